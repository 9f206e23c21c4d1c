package videos_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/videos"
)

// asset inserts a media library row as the upload and the processing leave
// it (the library's own tests cover how it gets there) and returns its id.
func (e *env) asset(t *testing.T, state string) string {
	t.Helper()
	var id string
	err := e.srv.App.Pool.QueryRow(context.Background(), `INSERT INTO media_assets
			(kind, state, upload_id, original_name, mime_type, original_key, size_bytes, hls_prefix, progress_percent, progress)
		VALUES ('video', $1, 'tus-' || gen_random_uuid(), 'aula.mp4', 'video/mp4', 'media/x/original.mp4', 1048576,
			'media/x/tok', 42, '{"360p": 100, "720p": 0}')
		RETURNING id::text`, state).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// An uploaded video goes to review only once its asset is processed: the
// videos plugin, in its own process, reads the asset's state the core sends
// with the item and refuses with the progress or the failure. Once ready,
// the player plays the asset's HLS stream with its poster and duration, and
// the list card shows the poster for want of a thumbnail.
func TestUploadedVideoWaitsForProcessingThenPlaysHLS(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if e.srv.App.Media == nil {
		t.Fatal("the app has no media library")
	}
	pool := e.srv.App.Pool
	id := e.asset(t, "processando")
	it := e.create(t, videos.TypeVideo, "Cirurgia gravada", map[string]any{"video_source": "upload", "video_asset": id,
		"description": "Aula gravada em centro cirúrgico."})

	_, err := e.publish(it)
	if want := "O vídeo ainda está sendo processado (42 %). Envie para revisão quando estiver pronto."; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("processing video sent to review: %v", err)
	}

	if _, err := pool.Exec(ctx, `UPDATE media_assets SET state = 'erro', error = 'O vídeo não pôde ser convertido.' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	_, err = e.publish(it)
	if want := "O processamento do vídeo falhou: O vídeo não pôde ser convertido. Tente novamente na biblioteca de mídia."; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("failed video sent to review: %v", err)
	}

	if _, err := pool.Exec(ctx, `UPDATE media_assets SET state = 'pronto', error = '', progress_percent = 100,
			duration_seconds = 754.4, width = 1280, height = 720, master_key = 'media/x/tok/hls/master.m3u8',
			poster_key = 'media/x/img/poster.jpg', thumbnail_keys = '{media/x/img/thumb-1.jpg}' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	published, err := e.publish(it)
	if err != nil {
		t.Fatalf("ready video refused: %v", err)
	}

	premium, _ := e.user(t, "premium")
	var d videos.Detail
	if r := premium.Do("GET", "/api/videos/"+published.ID, nil); r.Status != 200 {
		t.Fatalf("detail: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &d)
	}
	p := d.Video
	// The stream is not public: the member with access gets a signed
	// address of the stream endpoint, never the /uploads/ one.
	if p == nil || p.Source != "upload" || p.Kind != videos.PlayerHLS || !p.HLS || !strings.HasPrefix(p.URL, media.StreamPath) ||
		!strings.HasSuffix(p.URL, "/master.m3u8") || strings.Contains(p.URL, "/uploads/") ||
		p.EmbedURL != nil || p.Poster == nil || *p.Poster != "/uploads/media/x/img/poster.jpg" ||
		p.DurationSeconds == nil || *p.DurationSeconds != 754.4 {
		t.Fatalf("player: %+v", p)
	}
	// A member without premium and a visitor get no player, so no stream
	// address.
	member, _ := e.user(t, "")
	if r := member.Do("GET", "/api/videos/"+published.ID, nil); r.Status != 403 || strings.Contains(string(r.Body), media.StreamPath) {
		t.Fatalf("non-premium member: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Client(t).Do("GET", "/api/videos/"+published.ID, nil); r.Status < 400 || strings.Contains(string(r.Body), media.StreamPath) {
		t.Fatalf("visitor: %d %s", r.Status, r.Body)
	}
	// The editor gave no duration: the card shows the asset's.
	if d.DurationSeconds != 754 || d.Duration != "13min" || d.Thumbnail == nil || *d.Thumbnail != "/uploads/media/x/img/poster.jpg" {
		t.Fatalf("detail card: duration %d %q, thumbnail %v", d.DurationSeconds, d.Duration, d.Thumbnail)
	}
	page := list(t, premium, "")
	if len(page.Videos) != 1 || page.Videos[0].Thumbnail == nil || *page.Videos[0].Thumbnail != "/uploads/media/x/img/poster.jpg" ||
		page.Videos[0].DurationSeconds != 754 {
		t.Fatalf("list card: %+v", page.Videos)
	}

	// An editor's own thumbnail wins over the poster.
	yt := e.video(t, "Com miniatura", "", map[string]any{"video_source": "upload", "video_asset": id, "youtube_url": nil,
		"thumbnail": "content/capa.jpg", "duration": "12:00"})
	for _, c := range list(t, premium, "").Videos {
		if c.ID == yt && (c.Thumbnail == nil || *c.Thumbnail != "/uploads/content/capa.jpg" || c.DurationSeconds != 720) {
			t.Fatalf("card with its own thumbnail: %+v", c)
		}
	}

	// Reprocessing takes the stream away: the player has nothing to play.
	if _, err := pool.Exec(ctx, `UPDATE media_assets SET state = 'processando', master_key = '' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	premium.Do("GET", "/api/videos/"+published.ID, nil).JSON(t, &d)
	if d.Video != nil {
		t.Fatalf("player while reprocessing: %+v", d.Video)
	}
}
