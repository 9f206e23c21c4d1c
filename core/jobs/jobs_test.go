package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/jobs"
	"github.com/vetclube/vetclube/core/notifications"
)

// client is an API client of any kind (apptest's).
type client interface {
	Do(method, path string, body any) apptest.Response
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

type listAnswer struct {
	Jobs  []jobs.Job `json:"jobs"`
	Total int        `json:"total"`
}

func TestSearchFiltersAndSaving(t *testing.T) {
	e := newEnv(t)
	sp := e.publish(t, "Clínico geral", fields("SP", "Campinas"))
	rjFields := fields("RJ", "Niterói")
	rjFields["contract"], rjFields["workplace"], rjFields["apply_kind"], rjFields["apply_value"] = "plantao", "hibrido", "link", "https://exemplo.com.br/vagas/1"
	delete(rjFields, "salary_min")
	delete(rjFields, "salary_max")
	rj := e.publish(t, "Cirurgião de pequenos animais", rjFields)
	member, _ := e.srv.SignedIn(t, "membro@teste.dev")

	list := func(q string) listAnswer {
		t.Helper()
		res := member.Do(http.MethodGet, "/api/vagas"+q, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", q, res.Status, res.Body)
		}
		var a listAnswer
		res.JSON(t, &a)
		return a
	}
	if a := list(""); a.Total != 2 {
		t.Fatalf("all open jobs: %+v", a)
	}
	if a := list("?state=SP"); a.Total != 1 || a.Jobs[0].ID != sp.ID {
		t.Fatalf("state SP: %+v", a)
	}
	for _, q := range []string{"cirurgiao", "CIRURGIÃO", "cirurg", "niteroi"} {
		if a := list("?q=" + q); a.Total != 1 || a.Jobs[0].ID != rj.ID {
			t.Fatalf("search %q: %+v", q, a)
		}
	}
	if a := list("?city=niteroi&contract=plantao&workplace=hibrido"); a.Total != 1 || a.Jobs[0].ID != rj.ID {
		t.Fatalf("city, contract and workplace: %+v", a)
	}
	if a := list("?salary=1"); a.Total != 1 || a.Jobs[0].ID != sp.ID || *a.Jobs[0].SalaryMin != 6000 {
		t.Fatalf("salary given: %+v", a)
	}
	if a := list("?sort=encerramento"); a.Total != 2 {
		t.Fatalf("closing soon: %+v", a)
	}
	for _, bad := range []string{"?state=XX", "?contract=escravo", "?sort=aleatorio", "?page=0", "?page=abc", "?q=" + strings.Repeat("a", 201)} {
		res := member.Do(http.MethodGet, "/api/vagas"+bad, nil)
		if res.Status != http.StatusUnprocessableEntity && res.Status != http.StatusBadRequest {
			t.Errorf("GET %s: %d %s", bad, res.Status, res.Body)
		}
		if res.ErrorMessage() == "" {
			t.Errorf("GET %s: no message: %s", bad, res.Body)
		}
	}

	// Save, share link, saved list.
	res := member.Do(http.MethodPut, "/api/vagas/"+sp.Slug+"/salva", nil)
	var page jobs.DetailAnswer
	res.JSON(t, &page)
	if res.Status != http.StatusOK || !page.Saved || !strings.HasSuffix(page.ShareURL, "/oportunidades/"+sp.Slug) {
		t.Fatalf("save: %d %s", res.Status, res.Body)
	}
	member.Do(http.MethodPut, "/api/vagas/"+sp.Slug+"/salva", nil)
	var saved listAnswer
	member.Do(http.MethodGet, "/api/vagas/salvas", nil).JSON(t, &saved)
	if len(saved.Jobs) != 1 || saved.Jobs[0].ID != sp.ID {
		t.Fatalf("saved: %+v", saved)
	}
	if res := member.Do(http.MethodPut, "/api/vagas/nao-existe/salva", nil); res.Status != http.StatusNotFound {
		t.Fatalf("save unknown: %d", res.Status)
	}
	// A job applied to elsewhere refuses applications in VetClube.
	if res := apply(t, member, rj.Slug, "Olá", nil); res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != jobs.MsgNotInVetClube {
		t.Fatalf("apply to a link job: %d %s", res.Status, res.Body)
	}
}

// An application is visible to its applicant, the job's recruiter and the
// editorial staff who manage the job, and to nobody else; the recruiter
// moves it to 'entrevista' and the applicant is told once.
func TestApplicationVisibleToItsRecruiterOnly(t *testing.T) {
	e := newEnv(t)
	job := e.publish(t, "Clínico geral", fields("SP", "Campinas"))
	other := e.publish(t, "Anestesista", fields("MG", "Belo Horizonte"))
	applicant, applicantID := e.srv.SignedIn(t, "candidata@teste.dev")
	stranger, _ := e.srv.SignedIn(t, "curioso@teste.dev")
	recruiter, _ := e.srv.SignedIn(t, "recrutadora@teste.dev", core.RoleRecrutador)
	otherRecruiter, _ := e.srv.SignedIn(t, "outra.recrutadora@teste.dev", core.RoleRecrutador)
	otherEditor, _ := e.srv.SignedIn(t, "outro.editor@teste.dev", core.RoleEditor)
	revisor, _ := e.srv.SignedIn(t, "revisor@teste.dev", core.RoleRevisor)

	// The author assigns the recruiter to the first job, the other recruiter
	// to the other job; a member without the role cannot be assigned.
	if res := e.edClient.Do(http.MethodPost, "/api/admin/vagas/"+job.ID+"/recrutadores", map[string]string{"email": "recrutadora@teste.dev"}); res.Status != http.StatusOK {
		t.Fatalf("assign recruiter: %d %s", res.Status, res.Body)
	}
	if res := e.edClient.Do(http.MethodPost, "/api/admin/vagas/"+other.ID+"/recrutadores", map[string]string{"email": "outra.recrutadora@teste.dev"}); res.Status != http.StatusOK {
		t.Fatalf("assign other recruiter: %d %s", res.Status, res.Body)
	}
	if res := e.edClient.Do(http.MethodPost, "/api/admin/vagas/"+job.ID+"/recrutadores", map[string]string{"email": "curioso@teste.dev"}); res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != jobs.MsgNotRecruiter {
		t.Fatalf("assign a member: %d %s", res.Status, res.Body)
	}
	if res := recruiter.Do(http.MethodPost, "/api/admin/vagas/"+job.ID+"/recrutadores", map[string]string{"email": "outra.recrutadora@teste.dev"}); res.Status != http.StatusForbidden {
		t.Fatalf("a recruiter assigns recruiters: %d %s", res.Status, res.Body)
	}

	cv := minimalPDF("")
	res := apply(t, applicant, job.Slug, "Tenho 3 anos de clínica.", cv)
	if res.Status != http.StatusCreated {
		t.Fatalf("apply: %d %s", res.Status, res.Body)
	}
	var app jobs.Application
	res.JSON(t, &app)
	if app.Status != jobs.StatusReceived || !app.HasCV {
		t.Fatalf("application: %+v", app)
	}
	// Applying again, even 10 times at once, answers the same application.
	var wg sync.WaitGroup
	ids := make(chan string, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := apply(t, applicant, job.Slug, "de novo", nil)
			var a jobs.Application
			if r.Status == http.StatusOK {
				_ = jsonUnmarshal(r.Body, &a)
			}
			ids <- a.ID
		}()
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		if id != app.ID {
			t.Fatalf("a repeated application answered %q, want %s", id, app.ID)
		}
	}
	var rows int
	if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT count(*) FROM job_applications WHERE user_id = $1`, applicantID).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d application rows, want 1 (%v)", rows, err)
	}

	path := "/api/admin/vagas/" + job.ID + "/candidaturas"
	cvPath := "/api/vagas/candidaturas/" + app.ID + "/curriculo"
	// Who sees it.
	for _, who := range []struct {
		name string
		c    client
	}{{"recruiter", recruiter}, {"author", e.edClient}, {"revisor", revisor}} {
		res := who.c.Do(http.MethodGet, path, nil)
		var list struct {
			Applications []jobs.Application `json:"applications"`
		}
		if res.Status == http.StatusOK {
			res.JSON(t, &list)
		}
		if res.Status != http.StatusOK || len(list.Applications) != 1 || list.Applications[0].Applicant == nil ||
			list.Applications[0].Applicant.FirstName != "candidata" || list.Applications[0].Message != "Tenho 3 anos de clínica." {
			t.Fatalf("%s lists applications: %d %s", who.name, res.Status, res.Body)
		}
		if r := who.c.Do(http.MethodGet, cvPath, nil); r.Status != http.StatusOK || !bytes.Equal(r.Body, cv) || r.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("%s reads the CV: %d", who.name, r.Status)
		}
	}
	if r := applicant.Do(http.MethodGet, cvPath, nil); r.Status != http.StatusOK || !bytes.Equal(r.Body, cv) {
		t.Fatalf("applicant reads own CV: %d", r.Status)
	}
	// Nobody else: not the other job's recruiter, not an editor who does not
	// share the job, not another member, not the applicant in the backoffice.
	for _, who := range []struct {
		name   string
		c      client
		status int
	}{{"other recruiter", otherRecruiter, http.StatusNotFound}, {"other editor", otherEditor, http.StatusNotFound},
		{"member", stranger, http.StatusForbidden}, {"applicant", applicant, http.StatusForbidden}} {
		if r := who.c.Do(http.MethodGet, path, nil); r.Status != who.status || bytes.Contains(r.Body, []byte("candidata")) {
			t.Fatalf("%s lists applications: %d %s", who.name, r.Status, r.Body)
		}
		if r := who.c.Do(http.MethodPut, "/api/admin/vagas/candidaturas/"+app.ID, map[string]string{"status": "recusada"}); r.Status != who.status {
			t.Fatalf("%s sets the status: %d %s", who.name, r.Status, r.Body)
		}
		if who.name != "applicant" {
			if r := who.c.Do(http.MethodGet, cvPath, nil); r.Status != http.StatusNotFound {
				t.Fatalf("%s reads the CV: %d", who.name, r.Status)
			}
		}
	}
	var managed struct {
		Jobs []jobs.ManagedJob `json:"jobs"`
	}
	otherRecruiter.Do(http.MethodGet, "/api/admin/vagas", nil).JSON(t, &managed)
	if len(managed.Jobs) != 1 || managed.Jobs[0].ID != other.ID || managed.Jobs[0].Applications != 0 {
		t.Fatalf("other recruiter's jobs: %+v", managed)
	}
	recruiter.Do(http.MethodGet, "/api/admin/vagas", nil).JSON(t, &managed)
	if len(managed.Jobs) != 1 || managed.Jobs[0].ID != job.ID || managed.Jobs[0].Applications != 1 {
		t.Fatalf("recruiter's jobs: %+v", managed)
	}

	// Hostile status changes.
	for _, body := range []map[string]string{{"status": "contratado"}, {"status": ""}, {"status": "entrevista", "note": strings.Repeat("x", 2001)}} {
		if r := recruiter.Do(http.MethodPut, "/api/admin/vagas/candidaturas/"+app.ID, body); r.Status != http.StatusUnprocessableEntity || r.ErrorMessage() == "" {
			t.Fatalf("status %v: %d %s", body, r.Status, r.Body)
		}
	}
	// The recruiter moves it to 'entrevista'; the applicant is told once.
	for range 2 {
		r := recruiter.Do(http.MethodPut, "/api/admin/vagas/candidaturas/"+app.ID, map[string]string{"status": "entrevista", "note": "Entrevista na quinta, 14h."})
		if r.Status != http.StatusOK {
			t.Fatalf("move to entrevista: %d %s", r.Status, r.Body)
		}
	}
	var mine struct {
		Applications []jobs.Application `json:"applications"`
	}
	applicant.Do(http.MethodGet, "/api/vagas/candidaturas", nil).JSON(t, &mine)
	if len(mine.Applications) != 1 || mine.Applications[0].Status != jobs.StatusInterview || mine.Applications[0].Note != "Entrevista na quinta, 14h." ||
		len(mine.Applications[0].History) != 2 {
		t.Fatalf("my applications: %+v", mine)
	}
	var notes struct {
		Notifications []notifications.Notification `json:"notifications"`
	}
	applicant.Do(http.MethodGet, "/api/notifications", nil).JSON(t, &notes)
	told := 0
	for _, n := range notes.Notifications {
		if n.Type == jobs.NotificationType && strings.Contains(n.Message, "Entrevista") && n.Link == "/oportunidades/candidaturas" {
			told++
		}
	}
	if told != 1 {
		t.Fatalf("applicant told %d times: %+v", told, notes.Notifications)
	}
}

func TestApplicationHostileInput(t *testing.T) {
	e := newEnv(t)
	job := e.publish(t, "Clínico geral", fields("SP", "Campinas"))
	member, _ := e.srv.SignedIn(t, "membro@teste.dev")
	for name, cv := range map[string][]byte{
		"script":     minimalPDF("/OpenAction << /S /JavaScript /JS (app.alert(1)) >>"),
		"not a pdf":  []byte("GIF89a...."),
		"truncated":  []byte("%PDF-1.4\n1 0 obj"),
		"attachment": minimalPDF("/Names << /EmbeddedFiles 3 0 R >>"),
	} {
		r := apply(t, member, job.Slug, "Olá", cv)
		if r.Status != http.StatusUnprocessableEntity || r.ErrorMessage() == "" {
			t.Errorf("%s CV: %d %s", name, r.Status, r.Body)
		}
	}
	if r := apply(t, member, job.Slug, strings.Repeat("a", 3001), nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("long message: %d %s", r.Status, r.Body)
	}
	if r := apply(t, member, job.Slug, "ok\x00", nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("control character: %d %s", r.Status, r.Body)
	}
	big := append(minimalPDF(""), bytes.Repeat([]byte(" "), 10<<20)...)
	if r := apply(t, member, job.Slug, "Olá", big); r.Status != http.StatusRequestEntityTooLarge && r.Status != http.StatusUnprocessableEntity {
		t.Errorf("11 MB CV: %d %s", r.Status, r.Body)
	}
	if r := apply(t, member, "nao-existe", "Olá", nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown job: %d", r.Status)
	}
	var n int
	if err := e.srv.App.Pool.QueryRow(context.Background(), `SELECT count(*) FROM job_applications`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("refused applications stored: %d %v", n, err)
	}
	visitor := e.srv.Client(t)
	if r := apply(t, visitor, job.Slug, "Olá", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("visitor applies: %d", r.Status)
	}
}

// A saved search announces a newly published job that matches it once,
// and nothing that does not match; the member's data is exported and
// erased (the CV file included).
func TestSavedSearchAlertsAndLGPD(t *testing.T) {
	e := newEnv(t)
	member, memberID := e.srv.SignedIn(t, "alerta@teste.dev")
	res := member.Do(http.MethodPost, "/api/vagas/buscas", map[string]any{"state": "MG", "q": "anestesia"})
	if res.Status != http.StatusCreated {
		t.Fatalf("save search: %d %s", res.Status, res.Body)
	}
	if r := member.Do(http.MethodPost, "/api/vagas/buscas", map[string]any{}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("empty search saved: %d %s", r.Status, r.Body)
	}
	if r := member.Do(http.MethodPost, "/api/vagas/buscas", map[string]any{"state": "ZZ"}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad state saved: %d %s", r.Status, r.Body)
	}
	e.publish(t, "Anestesista", fields("SP", "Santos"))                     // another state
	mg := e.publish(t, "Anestesia veterinária", fields("MG", "Uberlândia")) // matches
	e.publish(t, "Dermatologista", fields("MG", "Uberaba"))                 // other words
	if _, err := e.srv.App.Jobs.SyncPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	alerts := func() []notifications.Notification {
		var notes struct {
			Notifications []notifications.Notification `json:"notifications"`
		}
		member.Do(http.MethodGet, "/api/notifications", nil).JSON(t, &notes)
		var out []notifications.Notification
		for _, n := range notes.Notifications {
			if n.Type == jobs.NotificationType {
				out = append(out, n)
			}
		}
		return out
	}
	got := alerts()
	if len(got) != 1 || got[0].Link != "/oportunidades/"+mg.Slug {
		t.Fatalf("alerts: %+v", got)
	}
	// Republishing the job (an edit) announces nothing new.
	if _, err := e.srv.App.Pool.Exec(context.Background(), `INSERT INTO job_sync_queue (item_id) VALUES ($1) ON CONFLICT DO NOTHING`, mg.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.App.Jobs.SyncPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := alerts(); len(got) != 1 {
		t.Fatalf("alerts after a resync: %+v", got)
	}

	if r := apply(t, member, mg.Slug, "Olá", minimalPDF("")); r.Status != http.StatusCreated {
		t.Fatalf("apply: %d %s", r.Status, r.Body)
	}
	member.Do(http.MethodPut, "/api/vagas/"+mg.Slug+"/salva", nil)
	data, err := e.srv.App.Jobs.ExportUserData(context.Background(), memberID)
	if err != nil {
		t.Fatal(err)
	}
	exp := data.(jobs.Export)
	if len(exp.Applications) != 1 || len(exp.SavedJobs) != 1 || len(exp.Searches) != 1 {
		t.Fatalf("export: %+v", exp)
	}
	files, err := e.srv.App.Jobs.ExportFiles(context.Background(), memberID)
	if err != nil || len(files) != 1 || !bytes.HasPrefix(files[0].Data, []byte("%PDF-")) {
		t.Fatalf("exported files: %d %v", len(files), err)
	}
	// The CV file, the application, the saved job and the search.
	n, err := e.srv.App.Jobs.EraseUserData(context.Background(), memberID)
	if err != nil || n != 4 {
		t.Fatalf("erase: %d %v", n, err)
	}
	if n, err := e.srv.App.Jobs.EraseUserData(context.Background(), memberID); err != nil || n != 0 {
		t.Fatalf("second erase: %d %v", n, err)
	}
	if files, _ := e.srv.App.Jobs.ExportFiles(context.Background(), memberID); len(files) != 0 {
		t.Fatalf("files after erase: %d", len(files))
	}
}
