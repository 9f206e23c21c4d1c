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
	if w.Code != 201 || !strings.Contains(w.Body.String(), "catálogo de cursos") || strings.Contains(w.Body.String(), "Curso inventado") {
		t.Fatalf("plan (no invented course, the missing catalogue said): %d %s", w.Code, w.Body)
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
