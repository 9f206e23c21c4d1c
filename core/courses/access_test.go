package courses_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/courses"
)

type apiError struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func errorOf(t *testing.T, r apptest.Response) apiError {
	t.Helper()
	var e apiError
	r.JSON(t, &e)
	return e
}

// Free lessons open to every signed-in user; the rest need the enrolment;
// enrolment is open to premium and trial users and, for others, up to the
// courses limit; a trial's enrolments close when it ends unless counted.
func TestAccessRulesAndTrialLimit(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	free := e.lesson(t, "Introdução gratuita", map[string]any{"is_free": true})
	paid := e.lesson(t, "Aula paga", nil)
	c1 := e.course(t, "Curso A", nil, e.module(t, "M", free, paid))
	c2, _ := e.simpleCourse(t, "Curso B", 1)
	c3, _ := e.simpleCourse(t, "Curso C", 1)

	lesson := func(cl *apptest.Client, course, l string) apptest.Response {
		return cl.Do("GET", "/api/cursos/"+course+"/aulas/"+l, nil)
	}
	// Visitors: 401.
	if r := lesson(e.srv.Client(t), c1, free); r.Status != http.StatusUnauthorized {
		t.Fatalf("visitor: %d", r.Status)
	}
	// A signed-in user without a subscription.
	basic, _ := e.user(t, false)
	if r := lesson(basic, c1, free); r.Status != http.StatusOK {
		t.Fatalf("free lesson: %d %s", r.Status, r.Body)
	}
	r := lesson(basic, c1, paid)
	if er := errorOf(t, r); r.Status != http.StatusForbidden || er.Error.Fields["access"] != courses.AccessNotEnrolled || er.Error.Message != courses.MsgNotEnrolled {
		t.Fatalf("paid lesson, not enrolled: %d %s", r.Status, r.Body)
	}
	if r := basic.Do("PUT", "/api/cursos/"+c1+"/aulas/"+paid+"/progresso", map[string]any{"position_seconds": 5}); r.Status != http.StatusForbidden {
		t.Fatalf("progress without access: %d", r.Status)
	}
	// The generic engagement routes cannot stand in for /api/cursos: a
	// lesson's progress or a course's enrolment there would skip access
	// rules and awards.
	if r := basic.Do("PUT", "/api/content/"+courses.TypeLesson+"/"+paid+"/progress",
		map[string]any{"position_seconds": 600, "duration_seconds": 600, "watched": [][2]float64{{0, 600}}}); r.Status != http.StatusNotFound {
		t.Fatalf("generic lesson progress: %d %s", r.Status, r.Body)
	}
	if r := basic.Do("PUT", "/api/content/"+courses.TypeCourse+"/"+c1+"/enrolment", nil); r.Status != http.StatusNotFound {
		t.Fatalf("generic course enrolment: %d %s", r.Status, r.Body)
	}
	if r := basic.Do("GET", "/api/content/"+courses.TypeCourse+"/"+c1, nil); r.Status != http.StatusNotFound {
		t.Fatalf("generic course read: %d %s", r.Status, r.Body)
	}
	// Within the limit (1 course): enrolled and the paid lesson opens.
	var en courses.EnrolResult
	if r := basic.Do("POST", "/api/cursos/"+c1+"/matricula", nil); r.Status != http.StatusOK {
		t.Fatalf("enrol: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &en)
	}
	if !en.Success || en.Message != "Matrícula realizada com sucesso!" || en.PointsAwarded != 50 {
		t.Fatalf("enrol answer: %+v", en)
	}
	if r := lesson(basic, c1, paid); r.Status != http.StatusOK {
		t.Fatalf("paid lesson, enrolled: %d %s", r.Status, r.Body)
	}
	// Beyond the limit: refused with the Premium invitation's code.
	r = basic.Do("POST", "/api/cursos/"+c2+"/matricula", nil)
	if er := errorOf(t, r); r.Status != http.StatusForbidden || er.Error.Fields["access"] != courses.AccessTrialLimit || er.Error.Message != courses.MsgTrialLimit {
		t.Fatalf("over the limit: %d %s", r.Status, r.Body)
	}
	// Again for the same course: idempotent, nothing more paid.
	basic.Do("POST", "/api/cursos/"+c1+"/matricula", nil).JSON(t, &en)
	if en.Message != courses.MsgAlreadyEnrolled || en.PointsAwarded != 0 {
		t.Fatalf("again: %+v", en)
	}

	// Premium: no limit.
	prem, _ := e.user(t, true)
	for _, c := range []string{c1, c2, c3} {
		if r := prem.Do("POST", "/api/cursos/"+c+"/matricula", nil); r.Status != http.StatusOK {
			t.Fatalf("premium enrol: %d", r.Status)
		}
	}

	// Trial: no limit while it lasts; when it ends its enrolments' paid
	// lessons close (free ones stay open) until one is counted in the limit.
	trial, trialID := e.user(t, false)
	if err := e.srv.App.Engagement.Subscriptions.StartTrial(ctx, trialID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{c1, c2} {
		if r := trial.Do("POST", "/api/cursos/"+c+"/matricula", nil); r.Status != http.StatusOK {
			t.Fatalf("trial enrol: %d %s", r.Status, r.Body)
		}
	}
	if r := lesson(trial, c1, paid); r.Status != http.StatusOK {
		t.Fatalf("trial lesson: %d", r.Status)
	}
	if _, err := e.srv.App.Pool.Exec(ctx, `UPDATE subscribers SET trial_ends_at = now() - interval '1 hour' WHERE user_id = $1`, trialID); err != nil {
		t.Fatal(err)
	}
	r = lesson(trial, c1, paid)
	if er := errorOf(t, r); r.Status != http.StatusForbidden || er.Error.Fields["access"] != courses.AccessPremium || er.Error.Message != courses.MsgPremium {
		t.Fatalf("after the trial: %d %s", r.Status, r.Body)
	}
	if r := lesson(trial, c1, free); r.Status != http.StatusOK {
		t.Fatalf("free after the trial: %d", r.Status)
	}
	var d courses.Detail
	trial.Do("GET", "/api/cursos/"+c1, nil).JSON(t, &d)
	if ls := d.Modules[0].Lessons; !ls[0].CanAccess || ls[1].CanAccess {
		t.Fatalf("can_access after the trial: %+v", ls)
	}
	if r := trial.Do("POST", "/api/cursos/"+c1+"/matricula", nil); r.Status != http.StatusOK {
		t.Fatalf("counting the enrolment in the limit: %d %s", r.Status, r.Body)
	}
	if r := lesson(trial, c1, paid); r.Status != http.StatusOK {
		t.Fatalf("counted enrolment: %d", r.Status)
	}
	if r := trial.Do("POST", "/api/cursos/"+c2+"/matricula", nil); r.Status != http.StatusForbidden {
		t.Fatalf("second course after the trial: %d", r.Status)
	}
	if got := e.balance(t, trialID); got != 100 {
		t.Fatalf("trial learner VetCoins %d, want 100 (two enrolments, once each)", got)
	}

	// Unknown course and a lesson of another course: 404.
	if r := prem.Do("GET", "/api/cursos/nao-existe", nil); r.Status != http.StatusNotFound || r.ErrorMessage() != courses.MsgCourseNotFound {
		t.Fatalf("unknown course: %d %s", r.Status, r.Body)
	}
	if r := lesson(prem, c2, paid); r.Status != http.StatusNotFound {
		t.Fatalf("lesson of another course: %d", r.Status)
	}
}

// 50 simultaneous enrolments and 50 simultaneous completions of the same
// learner pay 50 and 200 VetCoins exactly once; retries pay nothing.
func TestPointsExactlyOnceUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	c, ls := e.simpleCourse(t, "Concorrido", 1)
	for _, premium := range []bool{true, false} {
		cl, u := e.user(t, premium)
		var wg sync.WaitGroup
		statuses := make(chan int, 100)
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- cl.Do("POST", "/api/cursos/"+c+"/matricula", nil).Status
			}()
		}
		wg.Wait()
		for range 50 {
			if s := <-statuses; s != http.StatusOK {
				t.Fatalf("premium=%v enrol: %d", premium, s)
			}
		}
		if got := e.balance(t, u); got != 50 {
			t.Fatalf("premium=%v after 50 enrolments: %d VetCoins", premium, got)
		}
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+ls[0]+"/progresso", map[string]any{"position_seconds": 600,
					"duration_seconds": 600, "watched": [][2]float64{{0, 600}}}).Status
			}()
		}
		wg.Wait()
		for range 50 {
			if s := <-statuses; s != http.StatusOK {
				t.Fatalf("complete: %d", s)
			}
		}
		// Retries.
		cl.Do("POST", "/api/cursos/"+c+"/matricula", nil)
		var a courses.ProgressAnswer
		cl.Do("POST", "/api/cursos/"+c+"/aulas/"+ls[0]+"/concluir", nil).JSON(t, &a)
		if a.Course.PointsAwarded != 0 || !a.Course.IsCompleted || a.Course.Certificate == nil {
			t.Fatalf("retry: %+v", a.Course)
		}
		if got := e.balance(t, u); got != 250 {
			t.Fatalf("premium=%v: %d VetCoins, want 250", premium, got)
		}
		var n int
		if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM points_ledger WHERE user_id = $1) + (SELECT count(*) FROM course_certificates WHERE user_id = $1) +
			(SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'course')`, u).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 4 {
			t.Fatalf("ledger rows + certificates + notifications = %d, want 2 + 1 + 1", n)
		}
	}
	var students int
	if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT students FROM course_listings WHERE item_id = $1`, c).Scan(&students); err != nil || students != 2 {
		t.Fatalf("students %d (%v)", students, err)
	}
}

// The certificate: issued on completion with a 128-bit code, printable and
// as a PDF for its owner only, publicly verifiable (valid, revoked, unknown),
// listed with the hours per year; the learner's statistics and the home card.
func TestCertificatesStatisticsAndHomeCard(t *testing.T) {
	e := newEnv(t)
	l1, l2 := e.lesson(t, "Triagem", map[string]any{"duration": "50:00"}), e.lesson(t, "Estabilização", map[string]any{"duration": "1:10:00"})
	c := e.course(t, "Emergências", nil, e.module(t, "M", l1, l2))
	other, _ := e.simpleCourse(t, "Outro curso", 2)
	cl, u := e.user(t, true)
	var lc struct {
		Course *courses.LastCourse `json:"course"`
	}
	cl.Do("GET", "/api/cursos/ultimo", nil).JSON(t, &lc)
	if lc.Course != nil {
		t.Fatalf("no course yet: %+v", lc.Course)
	}
	cl.Do("POST", "/api/cursos/"+other+"/matricula", nil)
	cl.Do("POST", "/api/cursos/"+c+"/matricula", nil)
	var a courses.ProgressAnswer
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+l1+"/progresso", map[string]any{"position_seconds": 120, "duration_seconds": 3000,
		"watched": [][2]float64{{0, 120}}}).JSON(t, &a)
	if a.Course.Progress != 0 || a.Course.Continue == nil || a.Course.Continue.LessonID != l1 || a.Course.Continue.PositionSeconds != 120 {
		t.Fatalf("after 2 minutes: %+v", a.Course)
	}
	cl.Do("GET", "/api/cursos/ultimo", nil).JSON(t, &lc)
	if lc.Course == nil || lc.Course.ID != c || lc.Course.Continue == nil || lc.Course.Continue.PositionSeconds != 120 {
		t.Fatalf("home card: %+v", lc.Course)
	}
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+l1+"/progresso", map[string]any{"position_seconds": 3000, "duration_seconds": 3000,
		"watched": [][2]float64{{120, 3000}}})
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+l2+"/progresso", map[string]any{"position_seconds": 4200, "duration_seconds": 4200,
		"watched": [][2]float64{{0, 4200}}}).JSON(t, &a)
	cert := a.Course.Certificate
	if !a.Course.JustCompleted || cert == nil || len(cert.Code) != 26 || cert.Hours != 2 || cert.LearnerName == "" || cert.CourseTitle != "Emergências" {
		t.Fatalf("completion: %+v %+v", a.Course, cert)
	}
	// The certificate names who taught the course.
	if cert.InstructorName != "Dra. Ana Souza" || cert.InstructorTitle != "Médica veterinária" {
		t.Fatalf("instructor on the certificate: %+v", cert)
	}
	// The home card moves to the unfinished course.
	cl.Do("GET", "/api/cursos/ultimo", nil).JSON(t, &lc)
	if lc.Course == nil || lc.Course.ID != other {
		t.Fatalf("home card after completing: %+v", lc.Course)
	}
	// The notification.
	var note struct {
		Title, Link string
	}
	if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT title, link FROM notifications WHERE user_id = $1 AND type = 'course'`, u).
		Scan(&note.Title, &note.Link); err != nil || note.Link != "/certificados/"+cert.Code {
		t.Fatalf("notification: %+v %v", note, err)
	}
	// Statistics: 2 enrolled, 1 completed (2h), average (100 + 0) / 2.
	cl.Do("POST", "/api/cursos/"+other+"/favorito", nil)
	var st courses.Statistics
	cl.Do("GET", "/api/cursos/estatisticas", nil).JSON(t, &st)
	if st != (courses.Statistics{EnrolledCourses: 2, CompletedCourses: 1, FavoriteCourses: 1, TotalPoints: 300, AverageProgress: 50, CompletedHours: 2}) {
		t.Fatalf("statistics: %+v", st)
	}
	var fav courses.FavoriteResult
	cl.Do("POST", "/api/cursos/"+other+"/favorito", nil).JSON(t, &fav)
	if fav.IsFavorite || fav.Message != courses.MsgFavoriteOff {
		t.Fatalf("unfavorite: %+v", fav)
	}

	// Public verification, signed out, with the code typed in lower case.
	visitor := e.srv.Client(t)
	var v courses.Verification
	r := visitor.Do("GET", "/api/certificados/"+strings.ToLower(cert.Code), nil)
	r.JSON(t, &v)
	if r.Status != http.StatusOK || v.Status != "valid" || v.LearnerName != cert.LearnerName || v.Hours != 2 || v.CourseTitle != "Emergências" || v.InstructorName != "Dra. Ana Souza" {
		t.Fatalf("verify: %d %s", r.Status, r.Body)
	}
	var raw map[string]any
	_ = json.Unmarshal(r.Body, &raw)
	if len(raw) != 6 {
		t.Fatalf("verification tells more than name, course, instructor, hours, date and status: %v", raw)
	}
	if r := visitor.Do("GET", "/api/certificados/0000000000000000000000000Z", nil); r.Status != http.StatusNotFound || r.ErrorMessage() != courses.MsgCertNotFound {
		t.Fatalf("unknown code: %d %s", r.Status, r.Body)
	}
	// Printable page and PDF: the owner only.
	if r := cl.Do("GET", cert.HTMLURL, nil); r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte(cert.Code)) ||
		!bytes.Contains(r.Body, []byte("Instrutor(a): Dra. Ana Souza — Médica veterinária")) ||
		!strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("printable: %d %s", r.Status, r.Header)
	}
	if r := cl.Do("GET", cert.PDFURL, nil); r.Status != http.StatusOK || !bytes.HasPrefix(r.Body, []byte("%PDF-")) || r.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("pdf: %d %s", r.Status, r.Header)
	}
	stranger, _ := e.user(t, true)
	if r := stranger.Do("GET", cert.PDFURL, nil); r.Status != http.StatusNotFound {
		t.Fatalf("someone else's pdf: %d", r.Status)
	}
	// My certificates with hours per year.
	var mine courses.MyCertificates
	cl.Do("GET", "/api/me/certificados", nil).JSON(t, &mine)
	year := time.Now().In(time.FixedZone("BRT", -3*3600)).Year()
	if len(mine.Certificates) != 1 || len(mine.HoursByYear) != 1 || mine.HoursByYear[0] != (courses.YearHours{Year: year, Hours: 2}) {
		t.Fatalf("mine: %+v", mine)
	}
	// Revocation by an editor (learners may not).
	if r := cl.Do("POST", "/api/admin/certificados/"+cert.Code+"/revogar", nil); r.Status != http.StatusForbidden {
		t.Fatalf("learner revoking: %d", r.Status)
	}
	editor, _ := e.srv.SignedIn(t, "editora@teste.dev")
	if r := editor.Do("POST", "/api/admin/certificados/"+cert.Code+"/revogar", map[string]string{"reason": "Fraude"}); r.Status != http.StatusOK {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	visitor.Do("GET", "/api/certificados/"+cert.Code, nil).JSON(t, &v)
	if v.Status != "revoked" {
		t.Fatalf("after revoking: %+v", v)
	}
	cl.Do("GET", "/api/me/certificados", nil).JSON(t, &mine)
	if mine.Certificates[0].Status != "revoked" || len(mine.HoursByYear) != 0 {
		t.Fatalf("mine after revoking: %+v", mine)
	}
}

// The backoffice figures: enrolments, completion rate, average progress and
// where learners stand still.
func TestBackofficeCourseStats(t *testing.T) {
	e := newEnv(t)
	c, ls := e.simpleCourse(t, "Estatísticas", 3)
	ctx := context.Background()
	done := []int{3, 1, 1, 0} // lessons completed by each of four learners
	for _, n := range done {
		_, u := e.user(t, true)
		if _, err := e.svc.Enrol(ctx, c, u); err != nil {
			t.Fatal(err)
		}
		for _, l := range ls[:n] {
			if _, err := e.finish(ctx, c, l, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	revisor, _ := e.srv.SignedIn(t, "revisor@teste.dev")
	var st courses.Stats
	r := revisor.Do("GET", "/api/admin/courses/"+c+"/stats", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("stats: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &st)
	// progress: 100, 33, 33, 0 → 41.5
	if st.Enrolments != 4 || st.Completions != 1 || st.CompletionRate != 25 || st.AverageProgress != 41.5 || len(st.DropOff) != 3 {
		t.Fatalf("stats: %+v", st)
	}
	for i, want := range [][2]int{{3, 1}, {1, 2}, {1, 0}} {
		if st.DropOff[i].Reached != want[0] || st.DropOff[i].Stopped != want[1] {
			t.Errorf("lesson %d: reached %d stopped %d, want %v", i+1, st.DropOff[i].Reached, st.DropOff[i].Stopped, want)
		}
	}
	learnerCl, _ := e.user(t, true)
	if r := learnerCl.Do("GET", "/api/admin/courses/"+c+"/stats", nil); r.Status != http.StatusForbidden {
		t.Fatalf("learner reading stats: %d", r.Status)
	}
}

// The lesson page: video embed, neighbours, the reader's watched ranges and
// saved position, materials.
func TestLessonPage(t *testing.T) {
	e := newEnv(t)
	a := e.lesson(t, "Anamnese", map[string]any{"materials": "Apostila | https://exemplo.com/apostila.pdf",
		"external_link_url": "https://exemplo.com/artigo", "external_link_title": "Artigo", "support_material_url": "https://exemplo.com/slides"})
	b := e.lesson(t, "Exame físico", map[string]any{"video_source": "vimeo", "youtube_url": nil, "vimeo_url": "https://vimeo.com/76979871"})
	x := e.lesson(t, "Transmissão", map[string]any{"video_source": "stream", "youtube_url": nil, "stream_url": "https://cdn.exemplo.com/aula/index.m3u8"})
	c := e.course(t, "Semiologia", map[string]any{"video_intro": "https://youtu.be/dQw4w9WgXcQ"}, e.module(t, "M1", a), e.module(t, "M2", b, x))
	cl, _ := e.user(t, true)
	cl.Do("POST", "/api/cursos/"+c+"/matricula", nil)
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+b+"/progresso", map[string]any{"position_seconds": 95, "duration_seconds": 600, "watched": [][2]float64{{10, 95}}})
	var d courses.LessonDetail
	cl.Do("GET", "/api/cursos/"+c+"/aulas/"+b, nil).JSON(t, &d)
	if d.Video == nil || d.Video.Source != "vimeo" || d.Video.EmbedURL == nil || *d.Video.EmbedURL != "https://player.vimeo.com/video/76979871" {
		t.Fatalf("video: %+v", d.Video)
	}
	if d.Previous == nil || d.Previous.ID != a || d.Next == nil || d.Next.ID != x || d.ModuleTitle != "M2" || d.Order != 1 {
		t.Fatalf("neighbours: %+v %+v %s %d", d.Previous, d.Next, d.ModuleTitle, d.Order)
	}
	if d.PositionSeconds != 95 || len(d.Watched) != 1 || d.Duration != "10min" {
		t.Fatalf("progress: %v %v %s", d.PositionSeconds, d.Watched, d.Duration)
	}
	cl.Do("GET", "/api/cursos/"+c+"/aulas/"+a, nil).JSON(t, &d)
	if d.Video == nil || *d.Video.EmbedURL != "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" || len(d.Materials) != 1 ||
		d.ExternalLink == nil || d.ExternalLink.Title != "Artigo" || d.SupportMaterial == nil || d.SupportMaterial.Type != "other" {
		t.Fatalf("lesson a: %+v", d)
	}
	cl.Do("GET", "/api/cursos/"+c+"/aulas/"+x, nil).JSON(t, &d)
	if d.Video == nil || !d.Video.HLS || d.Video.EmbedURL != nil {
		t.Fatalf("stream: %+v", d.Video)
	}
	var det courses.Detail
	cl.Do("GET", "/api/cursos/"+c, nil).JSON(t, &det)
	if det.VideoIntro == nil || det.VideoIntro.Source != "youtube" || len(det.Modules) != 2 || det.Continue == nil || det.Continue.LessonID != a {
		t.Fatalf("detail: %+v", det)
	}
	// Lessons are not readable through the generic content API (their
	// videos are for those with access).
	if r := cl.Do("GET", "/api/content/cursos-aulas/"+b, nil); r.Status != http.StatusNotFound {
		t.Fatalf("generic lesson read: %d", r.Status)
	}
	// Bad progress: 422.
	if r := cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+b+"/progresso", map[string]any{"position_seconds": -1}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad progress: %d", r.Status)
	}
}

// A video lesson completes only from its watched ranges: 'concluir' on a
// video not (fully) watched is refused and grants nothing — no completion,
// certificate or VetCoins — however fast it is called on every lesson; a
// text lesson is still marked by hand.
func TestConcluirNeedsTheVideoWatched(t *testing.T) {
	e := newEnv(t)
	v1, v2 := e.lesson(t, "Vídeo 1", nil), e.lesson(t, "Vídeo 2", nil)
	txt := e.lesson(t, "Leitura", map[string]any{"video_source": nil, "youtube_url": nil, "duration": nil, "body": "Texto"})
	c := e.course(t, "Atalhos", nil, e.module(t, "M", v1, v2, txt))
	cl, u := e.user(t, true)
	if res := cl.Do("POST", "/api/cursos/"+c+"/matricula", nil); res.Status != http.StatusOK && res.Status != http.StatusCreated {
		t.Fatalf("enrol: %d %s", res.Status, res.Body)
	}
	start := e.balance(t, u)
	for _, l := range []string{v1, v2} {
		res := cl.Do("POST", "/api/cursos/"+c+"/aulas/"+l+"/concluir", nil)
		if res.Status != http.StatusConflict || res.ErrorMessage() != courses.MsgWatchFirst {
			t.Fatalf("concluir an unwatched video: %d %s", res.Status, res.Body)
		}
	}
	// Seeking to the end plays nothing; a third of it is not enough.
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+v1+"/progresso", map[string]any{"position_seconds": 600, "duration_seconds": 600,
		"watched": [][2]float64{{0, 200}}})
	if res := cl.Do("POST", "/api/cursos/"+c+"/aulas/"+v1+"/concluir", nil); res.Status != http.StatusConflict {
		t.Fatalf("concluir a third-watched video: %d %s", res.Status, res.Body)
	}
	if res := cl.Do("POST", "/api/cursos/"+c+"/aulas/"+txt+"/concluir", nil); res.Status != http.StatusOK {
		t.Fatalf("concluir a text lesson: %d %s", res.Status, res.Body)
	}
	var n int
	if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM course_lesson_completions WHERE user_id = $1 AND lesson_id <> $2) +
		(SELECT count(*) FROM course_certificates WHERE user_id = $1)`, u, txt).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 || e.balance(t, u) != start {
		t.Fatalf("shortcut granted %d completions/certificates and %d VetCoins", n, e.balance(t, u)-start)
	}
	// Watching the rest completes both videos and the course.
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+v1+"/progresso", map[string]any{"position_seconds": 600, "duration_seconds": 600,
		"watched": [][2]float64{{200, 600}}})
	var a courses.ProgressAnswer
	cl.Do("PUT", "/api/cursos/"+c+"/aulas/"+v2+"/progresso", map[string]any{"position_seconds": 600, "duration_seconds": 600,
		"watched": [][2]float64{{0, 600}}}).JSON(t, &a)
	if !a.Course.IsCompleted || a.Course.Certificate == nil {
		t.Fatalf("after watching: %+v", a.Course)
	}
	if res := cl.Do("POST", "/api/cursos/"+c+"/aulas/"+v1+"/concluir", nil); res.Status != http.StatusOK {
		t.Fatalf("concluir a watched video: %d %s", res.Status, res.Body)
	}
}
