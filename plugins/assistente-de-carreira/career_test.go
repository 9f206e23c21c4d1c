package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

const (
	ana = "11111111-1111-4111-8111-111111111111"
	bia = "22222222-2222-4222-8222-222222222222"
)

type kit struct {
	host *sdktest.Host
	h    http.Handler
}

func newKit(t *testing.T) *kit {
	host := sdktest.New(t, sdktest.WithSQL(Migrations), sdktest.WithPrompts(Prompts))
	host.SetProfile(sdk.Profile{UserID: ana, FirstName: "Ana", LastName: "Lima", Title: "Médica-veterinária"})
	host.SetProfile(sdk.Profile{UserID: bia, FirstName: "Bia", LastName: "Reis", Title: "Médica-veterinária"})
	return &kit{host: host, h: Handler(host.Host)}
}

func (k *kit) do(user, method, path string, body any) *httptest.ResponseRecorder {
	var b []byte
	if s, ok := body.(string); ok {
		b = []byte(s)
	} else if body != nil {
		b, _ = json.Marshal(body)
	}
	w := httptest.NewRecorder()
	k.h.ServeHTTP(w, k.host.As(httptest.NewRequest(method, path, bytes.NewReader(b)), sdktest.User(user)))
	return w
}

func TestPlanCVAndLetterFromProfileAndQuestionnaire(t *testing.T) {
	k := newKit(t)
	if w := k.do(ana, "PUT", "/questionnaire", Questionnaire{Goals: "Trabalhar com felinos", Region: "Sul", Experience: "3 anos em clínica",
		Specialties: "Clínica médica de felinos", CRMV: "CRMV-PR 12345", Education: "UFPR 2021"}); w.Code != 200 {
		t.Fatalf("questionnaire: %d %s", w.Code, w.Body)
	}
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"resumo":"Plano.","areas_em_alta":["Felinos"],"cursos_vetclube":["Curso inventado"],"certificacoes":["ISFM"],"caminhos":["Residência"],"proximos_passos":["Estudar"]}`})
	w := k.do(ana, "POST", "/documents", map[string]string{"kind": "plano"})
	if w.Code != 201 || !strings.Contains(w.Body.String(), "Ainda não há cursos publicados") || strings.Contains(w.Body.String(), "Curso inventado") {
		t.Fatalf("plan (no invented course, the empty catalogue said): %d %s", w.Code, w.Body)
	}
	call := k.host.AICalls()[0]
	for _, want := range []string{"Nome: «Ana Lima»", "CRMV: «CRMV-PR 12345»", "Objetivo: «Trabalhar com felinos»"} {
		if !strings.Contains(call.User, want) {
			t.Errorf("prompt lacks %q:\n%s", want, call.User)
		}
	}
	if !strings.Contains(call.System, "não está disponível") {
		t.Errorf("the prompt does not say the course list is unavailable")
	}
	for v := 1; v <= 2; v++ {
		k.host.QueueAI(sdktest.AIAnswer{Text: `{"nome":"Ana Lima","titulo":"Médica-veterinária","resumo_profissional":"Clínica de felinos, atenção e ética.","experiencias":["3 anos em clínica"],"formacao":["UFPR 2021"],"competencias":["Felinos"],"dicas":[]}`})
		w = k.do(ana, "POST", "/documents", map[string]string{"kind": "curriculo"})
		if w.Code != 201 || !strings.Contains(w.Body.String(), `"version":`+itoa(v)) {
			t.Fatalf("cv v%d: %d %s", v, w.Code, w.Body)
		}
	}
	var cv Document
	_ = json.Unmarshal(w.Body.Bytes(), &cv)
	w = k.do(ana, "GET", "/documents/"+cv.ID+"/pdf", nil)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(w.Body.Bytes(), []byte("%PDF-")) {
		t.Fatalf("pdf: %d %s", w.Code, w.Header())
	}
	if w := k.do(bia, "GET", "/documents/"+cv.ID+"/pdf", nil); w.Code != 404 {
		t.Fatalf("another member's CV: %d", w.Code)
	}
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"carta":"Prezados, ..."}`})
	if w := k.do(ana, "POST", "/documents", map[string]string{"kind": "carta", "job": "Clínica felina em Curitiba"}); w.Code != 201 {
		t.Fatalf("letter: %d %s", w.Code, w.Body)
	}
	if w := k.do(bia, "GET", "/documents", nil); strings.Contains(w.Body.String(), cv.ID) {
		t.Fatal("another member lists Ana's documents")
	}
}

func TestInterviewOneQuestionAtATime(t *testing.T) {
	k := newKit(t)
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"pergunta":"Por que esta vaga?"}`})
	w := k.do(ana, "POST", "/interviews", map[string]string{"job": "Plantonista"})
	var iv Interview
	_ = json.Unmarshal(w.Body.Bytes(), &iv)
	if w.Code != 201 || len(iv.Turns) != 1 {
		t.Fatalf("start: %d %s", w.Code, w.Body)
	}
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"feedback":"Boa.","pontos_fortes":["clara"],"melhorar":["exemplo"],"nota":7,"proxima_pergunta":"E plantões noturnos?"}`})
	w = k.do(ana, "POST", "/interviews/"+iv.ID+"/answer", map[string]string{"answer": "Gosto de emergência."})
	_ = json.Unmarshal(w.Body.Bytes(), &iv)
	if w.Code != 200 || len(iv.Turns) != 2 || iv.Turns[0].Feedback != "Boa." || *iv.Turns[0].Score != 7 {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	if c := k.host.AICalls()[1]; !strings.Contains(c.User, "Resposta do candidato: «Gosto de emergência.»") {
		t.Errorf("feedback prompt: %s", c.User)
	}
	if w := k.do(bia, "POST", "/interviews/"+iv.ID+"/answer", map[string]string{"answer": "Oi"}); w.Code != 404 {
		t.Errorf("another member answers: %d", w.Code)
	}
}

func TestQuotaAndHostileInputs(t *testing.T) {
	k := newKit(t)
	k.host.SetAILimit(0)
	if w := k.do(ana, "POST", "/documents", map[string]string{"kind": "plano"}); w.Code != 429 || !strings.Contains(w.Body.String(), "Premium") {
		t.Fatalf("quota: %d %s", w.Code, w.Body)
	}
	for _, tc := range []struct{ method, path, body string }{
		{"PUT", "/questionnaire", `{"crmv":"'; DROP TABLE documents;--"}`},
		{"PUT", "/questionnaire", `{"goals":"` + strings.Repeat("a", 501) + `"}`},
		{"PUT", "/questionnaire", `{"bio":"a\u0000"}`},
		{"POST", "/documents", `{"kind":"tese"}`},
		{"POST", "/documents", `{"kind":"carta","job":""}`},
		{"POST", "/interviews", `{"job":"x"}`},
		{"GET", "/documents?kind=x", ``},
		{"POST", "/documents", `[`},
	} {
		if w := k.do(ana, tc.method, tc.path, tc.body); w.Code < 400 || w.Code >= 500 {
			t.Errorf("%s %s %s: %d %s", tc.method, tc.path, tc.body, w.Code, w.Body)
		}
	}
	if w := k.do(ana, "GET", "/documents/zzz", nil); w.Code != 404 {
		t.Errorf("bad id: %d", w.Code)
	}
}

func TestExportAndDeleteUser(t *testing.T) {
	k := newKit(t)
	k.do(ana, "PUT", "/questionnaire", Questionnaire{Goals: "Felinos"})
	ctx := context.Background()
	files, err := exportUser(ctx, k.host.Host, ana)
	if err != nil || !strings.Contains(string(files["assistente-de-carreira/questionario.json"]), "Felinos") {
		t.Fatalf("export: %v %s", err, files)
	}
	if err := deleteUser(ctx, k.host.Host, ana); err != nil {
		t.Fatal(err)
	}
	if files, _ := exportUser(ctx, k.host.Host, ana); strings.Contains(string(files["assistente-de-carreira/questionario.json"]), "Felinos") {
		t.Fatal("left after delete")
	}
}

// The plan names real VetClube courses (published items of type "cursos",
// read through host.PublishedContent) with their pages; a course the model
// invents is dropped. The letter can be written for a job published in
// Oportunidades (type "vagas"), from its fields.
func TestPlanWithVetClubeCoursesAndLetterForPublishedJob(t *testing.T) {
	k := newKit(t)
	k.host.Publish(sdk.PublishedItem{ID: "c1", Type: "cursos", Slug: "medicina-felina", Title: "Medicina felina na prática",
		Summary: "Consulta cat friendly, doenças renais e endócrinas de gatos.", URL: "/cursos/medicina-felina", Fields: map[string]any{"level": "intermediario"}})
	k.host.Publish(sdk.PublishedItem{ID: "c2", Type: "cursos", Slug: "ortopedia", Title: "Ortopedia de pequenos animais", URL: "/cursos/ortopedia"})
	if w := k.do(ana, "PUT", "/questionnaire", Questionnaire{Goals: "Trabalhar com felinos", Areas: "felinos, nefrologia"}); w.Code != 200 {
		t.Fatalf("questionnaire: %d %s", w.Code, w.Body)
	}
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"resumo":"Plano.","areas_em_alta":["Felinos"],"cursos_vetclube":["Medicina felina na prática","Curso inventado"],"certificacoes":[],"caminhos":[],"proximos_passos":[]}`})
	w := k.do(ana, "POST", "/documents", map[string]string{"kind": "plano"})
	var plan struct {
		Content struct {
			Courses []string     `json:"cursos_vetclube"`
			Links   []PlanCourse `json:"cursos_links"`
			Note    string       `json:"aviso_cursos"`
		}
	}
	_ = json.Unmarshal(w.Body.Bytes(), &plan)
	if w.Code != 201 || len(plan.Content.Links) != 1 || plan.Content.Links[0] != (PlanCourse{"Medicina felina na prática", "/cursos/medicina-felina"}) ||
		len(plan.Content.Courses) != 1 || plan.Content.Note != "" {
		t.Fatalf("plan: %d %s", w.Code, w.Body)
	}
	if sys := k.host.AICalls()[0].System; !strings.Contains(sys, "«Medicina felina na prática» (Consulta cat friendly") || !strings.Contains(sys, "«Ortopedia de pequenos animais»") {
		t.Fatalf("the prompt lacks the catalogue:\n%s", sys)
	}

	// Jobs: the picker lists published ones, searchable; the letter uses one.
	k.host.Publish(sdk.PublishedItem{ID: "v1", Type: "vagas", Slug: "clinico-felinos", Title: "Médico-veterinário clínico de felinos",
		URL: "/oportunidades/clinico-felinos", Fields: map[string]any{"organization": "Clínica Gato & Cia", "city": "Curitiba", "state": "PR",
			"workplace": "presencial", "contract": "clt", "area": "Clínica", "specialty": "Felinos", "requirements": "CRMV ativo; 2 anos de experiência",
			"salary_min": 6000, "salary_max": nil, "apply_kind": "email", "apply_value": "rh@example.com"}})
	k.host.Publish(sdk.PublishedItem{ID: "v2", Type: "vagas", Slug: "plantonista", Title: "Plantonista", Fields: map[string]any{"city": "Recife", "state": "PE"}})
	var jobs struct {
		Items     []JobChoice
		Available bool
	}
	w = k.do(ana, "GET", "/jobs?q=felinos", nil)
	_ = json.Unmarshal(w.Body.Bytes(), &jobs)
	if w.Code != 200 || !jobs.Available || len(jobs.Items) != 1 || jobs.Items[0].ID != "v1" || jobs.Items[0].Organization != "Clínica Gato & Cia" {
		t.Fatalf("jobs: %d %s", w.Code, w.Body)
	}
	k.host.QueueAI(sdktest.AIAnswer{Text: `{"carta":"Prezada equipe da Clínica Gato & Cia, ..."}`})
	w = k.do(ana, "POST", "/documents", map[string]string{"kind": "carta", "job_id": "v1"})
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"vaga_url":"/oportunidades/clinico-felinos"`) ||
		!strings.Contains(w.Body.String(), "Carta — Médico-veterinário clínico de felinos — Clínica Gato") {
		t.Fatalf("letter for a published job: %d %s", w.Code, w.Body)
	}
	user := k.host.AICalls()[1].User
	for _, want := range []string{"Vaga: «Médico-veterinário clínico de felinos — Clínica Gato & Cia (Curitiba/PR)»", "Contrato: CLT.", "Modalidade: presencial.", "Requisitos: CRMV ativo"} {
		if !strings.Contains(user, want) {
			t.Errorf("letter prompt lacks %q:\n%s", want, user)
		}
	}
	if w := k.do(ana, "POST", "/documents", map[string]string{"kind": "carta", "job_id": "nao-existe"}); w.Code != 404 || !strings.Contains(w.Body.String(), "Vaga não encontrada") {
		t.Fatalf("unknown job: %d %s", w.Code, w.Body)
	}
	if w := k.do(ana, "GET", "/jobs?q="+strings.Repeat("a", 101), nil); w.Code != 422 {
		t.Fatalf("long query: %d", w.Code)
	}
}

// Without any published job type (Oportunidades not installed), the picker
// says so and the free-text letter still works.
func TestJobsUnavailableKeepsFreeText(t *testing.T) {
	k := newKit(t)
	w := k.do(ana, "GET", "/jobs", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"available":false`) {
		t.Fatalf("jobs without the type: %d %s", w.Code, w.Body)
	}
	if w := k.do(ana, "POST", "/documents", map[string]string{"kind": "carta", "job_id": "v1"}); w.Code != 404 {
		t.Fatalf("a job id without the type: %d %s", w.Code, w.Body)
	}
}
