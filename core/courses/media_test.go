package courses_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/media"
)

// asset inserts a media library row as the upload and the processing leave
// it (the library's own tests cover how it gets there) and returns its id.
// A ready asset has its stream, poster and duration.
func (e *env) asset(t *testing.T, state string) string {
	t.Helper()
	var id string
	err := e.srv.App.Pool.QueryRow(context.Background(), `INSERT INTO media_assets
			(kind, state, upload_id, original_name, mime_type, original_key, size_bytes, hls_prefix, progress_percent,
			 duration_seconds, master_key, poster_key)
		VALUES ('video', $1, 'tus-' || gen_random_uuid(), 'aula.mp4', 'video/mp4', 'media/a/original.mp4', 1048576,
			'media/a/tok', CASE WHEN $1 = 'pronto' THEN 100 ELSE 15 END,
			CASE WHEN $1 = 'pronto' THEN 312.5 ELSE 0 END,
			CASE WHEN $1 = 'pronto' THEN 'media/a/tok/hls/master.m3u8' ELSE '' END,
			CASE WHEN $1 = 'pronto' THEN 'media/a/img/poster.jpg' ELSE '' END)
		RETURNING id::text`, state).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) setAssetState(t *testing.T, id, state string) {
	t.Helper()
	if _, err := e.srv.App.Pool.Exec(context.Background(), `UPDATE media_assets SET state = $2,
			master_key = CASE WHEN $2 = 'pronto' THEN master_key ELSE '' END WHERE id = $1`, id, state); err != nil {
		t.Fatal(err)
	}
}

// A lesson with an uploaded video goes to review only once the video is
// processed (the cursos plugin's gate, in its own process); once published,
// the lesson page plays the asset's HLS stream with its poster and length.
func TestUploadedLessonVideo(t *testing.T) {
	e := newEnv(t)
	waiting := e.create(t, courses.TypeLesson, "Aula em processamento", map[string]any{"video_source": "upload",
		"video_asset": e.asset(t, "processando"), "body": "Também tem texto."})
	_, err := e.publish(waiting)
	if ce := refusal(t, err); ce.Message != "O vídeo ainda está sendo processado (15 %). Envie para revisão quando estiver pronto." {
		t.Fatalf("processing lesson: %q", ce.Message)
	}

	ready := e.asset(t, "pronto")
	l := e.lesson(t, "Aula gravada", map[string]any{"video_source": "upload", "youtube_url": nil, "duration": nil,
		"video_asset": ready, "is_free": true})
	c := e.course(t, "Curso gravado", nil, e.module(t, "Módulo gravado", l))

	basic, _ := e.user(t, false)
	// No duration typed by the editor: the outline shows the video's measured one.
	var cd courses.Detail
	basic.Do("GET", "/api/cursos/"+c, nil).JSON(t, &cd)
	if len(cd.Modules) != 1 || len(cd.Modules[0].Lessons) != 1 || cd.Modules[0].Lessons[0].DurationSeconds != 313 ||
		cd.Modules[0].Lessons[0].Duration != "5min" || cd.Modules[0].DurationSeconds != 313 {
		t.Fatalf("outline durations: %+v", cd.Modules)
	}

	var d courses.LessonDetail
	if r := basic.Do("GET", "/api/cursos/"+c+"/aulas/"+l, nil); r.Status != http.StatusOK {
		t.Fatalf("lesson: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &d)
	}
	v := d.Video
	// The stream is not public: the reader who may open the lesson gets a
	// signed address of the stream endpoint.
	if v == nil || v.Source != "upload" || v.Kind != courses.VideoHLS || !v.HLS || !strings.HasPrefix(v.URL, media.StreamPath) ||
		!strings.HasSuffix(v.URL, "/master.m3u8") || strings.Contains(v.URL, "/uploads/") ||
		v.EmbedURL != nil || v.Poster == nil || *v.Poster != "/uploads/media/a/img/poster.jpg" ||
		v.DurationSeconds == nil || *v.DurationSeconds != 312.5 {
		t.Fatalf("lesson video: %+v", v)
	}

	// Reprocessing takes the stream away until it is ready again.
	e.setAssetState(t, ready, "processando")
	basic.Do("GET", "/api/cursos/"+c+"/aulas/"+l, nil).JSON(t, &d)
	if d.Video != nil {
		t.Fatalf("video while reprocessing: %+v", d.Video)
	}
}

// A premium lesson's uploaded video and material file are handed out only
// to a reader who may open the lesson, as signed addresses of the stream
// endpoint (never their /uploads/ address): a member who is not enrolled
// gets a refusal and no address, an enrolled premium member gets both.
func TestProtectedLessonMediaOnlyForReadersWithAccess(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	doc := uuid.NewString()
	docKey := "media/" + doc + "/original.pdf"
	if _, err := e.srv.App.Pool.Exec(ctx, `INSERT INTO media_assets (id, kind, state, upload_id, original_name, mime_type,
			original_key, size_bytes, hls_prefix, progress_percent)
		VALUES ($1::uuid, 'document', 'pronto', 'direct-' || gen_random_uuid(), 'apostila.pdf', 'application/pdf', $2, 100, 'media/' || $1::text, 100)`,
		doc, docKey); err != nil {
		t.Fatal(err)
	}
	l := e.lesson(t, "Aula premium gravada", map[string]any{"video_source": "upload", "youtube_url": nil, "duration": nil,
		"video_asset": e.asset(t, "pronto"), "support_material_file": docKey, "support_material_title": "Apostila"})
	c := e.course(t, "Curso premium gravado", nil, e.module(t, "Módulo premium", l))

	basic, _ := e.user(t, false)
	r := basic.Do("GET", "/api/cursos/"+c+"/aulas/"+l, nil)
	if r.Status != http.StatusForbidden || strings.Contains(string(r.Body), media.StreamPath) || strings.Contains(string(r.Body), "media/") {
		t.Fatalf("member without access: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Client(t).Do("GET", "/api/cursos/"+c+"/aulas/"+l, nil); r.Status < 400 || strings.Contains(string(r.Body), "media/") {
		t.Fatalf("visitor: %d %s", r.Status, r.Body)
	}

	premium, _ := e.user(t, true)
	if r := premium.Do("POST", "/api/cursos/"+c+"/matricula", nil); r.Status >= 300 {
		t.Fatalf("enrol: %d %s", r.Status, r.Body)
	}
	var d courses.LessonDetail
	if r := premium.Do("GET", "/api/cursos/"+c+"/aulas/"+l, nil); r.Status != http.StatusOK {
		t.Fatalf("lesson: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &d)
	}
	if d.Video == nil || !strings.HasPrefix(d.Video.URL, media.StreamPath) {
		t.Fatalf("video: %+v", d.Video)
	}
	if d.SupportMaterial == nil || !strings.HasPrefix(d.SupportMaterial.URL, media.StreamPath) ||
		!strings.HasSuffix(d.SupportMaterial.URL, "/original.pdf") || d.SupportMaterial.Title != "Apostila" {
		t.Fatalf("material: %+v", d.SupportMaterial)
	}
}
