package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	return &kit{host: host, h: Handler(host.Host)}
}

func (k *kit) do(user, method, path string, body any) *httptest.ResponseRecorder {
	var b []byte
	if s, ok := body.(string); ok {
		b = []byte(s)
	} else if body != nil {
		b, _ = json.Marshal(body)
	}
	r := httptest.NewRequest(method, path, bytes.NewReader(b))
	w := httptest.NewRecorder()
	k.h.ServeHTTP(w, k.host.As(r, sdktest.User(user)))
	return w
}

const answer = `{"achados":["Opacidade intersticial difusa em lobos caudais, certamente pneumonia."],
"diferenciais":[{"diagnostico":"Broncopneumonia","probabilidade":"mais provável","raciocinio":"Padrão e tosse."},{"diagnostico":"Edema pulmonar","probabilidade":"possível","raciocinio":"Sem cardiomegalia evidente."}],
"exames":["Hemograma","Projeção lateral direita"],"observacoes":"Sem certeza sem laudo."}`

type created struct {
	Case struct {
		ID      string `json:"id"`
		Status  string `json:"status"`
		Refusal string `json:"refusal"`
		Result  Result `json:"result"`
	} `json:"case"`
}

func TestCaseIsAnalysedWithTheDisclaimerAndNoCertainty(t *testing.T) {
	k := newKit(t)
	img := k.host.AddImage(ana, "image/png", []byte("png"))
	k.host.QueueAI(sdktest.AIAnswer{Text: "```json\n" + answer + "\n```"})
	w := k.do(ana, "POST", "/cases", Request{FileID: img, Exam: "radiografia", Species: "cao", Region: "torax", Question: "Tosse há 5 dias, febre."})
	if w.Code != 201 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var c created
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	r := c.Case.Result
	if r.Disclaimer != Disclaimer || !strings.Contains(w.Body.String(), "confirmar com laudo de um médico-veterinário radiologista") {
		t.Errorf("no disclaimer: %s", w.Body)
	}
	if strings.Contains(strings.ToLower(r.Findings[0]), "certamente") || len(r.Differentials) != 2 || r.Differentials[0].Diagnosis != "Broncopneumonia" {
		t.Errorf("result: %+v", r)
	}
	call := k.host.AICalls()[0]
	if call.ImageFileID != img || call.ImageContentType != "image/png" || !strings.Contains(call.User, "Espécie: «Cão»") || !strings.Contains(call.User, "Tosse há 5 dias") {
		t.Errorf("call: %+v", call)
	}
	// History, another member 404, delete.
	if w := k.do(ana, "GET", "/cases", nil); !strings.Contains(w.Body.String(), c.Case.ID) {
		t.Fatalf("history: %s", w.Body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if w := k.do(bia, m, "/cases/"+c.Case.ID, nil); w.Code != 404 {
			t.Errorf("another member %s: %d", m, w.Code)
		}
	}
	if w := k.do(ana, "DELETE", "/cases/"+c.Case.ID, nil); w.Code != 200 || !strings.Contains(w.Body.String(), img) {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if w := k.do(ana, "GET", "/cases/"+c.Case.ID, nil); w.Code != 404 {
		t.Fatalf("deleted case still there: %d", w.Code)
	}
}

func TestNonClinicalImageIsRefusedAndAnotherMembersImageIsNotFound(t *testing.T) {
	k := newKit(t)
	img := k.host.AddImage(ana, "image/jpeg", []byte("jpg"))
	k.host.QueueAI(sdktest.AIAnswer{Text: "RECUSA: a imagem é uma selfie, não um exame."})
	w := k.do(ana, "POST", "/cases", Request{FileID: img, Exam: "dermatologia", Species: "gato", Region: "pele", Question: "Lesão alopécica?"})
	var c created
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	if w.Code != 201 || c.Case.Status != "recusado" || !strings.Contains(c.Case.Refusal, "selfie") {
		t.Fatalf("refusal: %d %s", w.Code, w.Body)
	}
	// Bia names Ana's image: the host does not find it.
	w = k.do(bia, "POST", "/cases", Request{FileID: img, Exam: "radiografia", Species: "gato", Region: "torax", Question: "Dispneia aguda."})
	if w.Code != 404 {
		t.Fatalf("another member's image: %d %s", w.Code, w.Body)
	}
}

func TestQuotaAndHostileInputs(t *testing.T) {
	k := newKit(t)
	k.host.SetAILimit(0)
	img := k.host.AddImage(ana, "image/png", []byte("png"))
	w := k.do(ana, "POST", "/cases", Request{FileID: img, Exam: "radiografia", Species: "cao", Region: "torax", Question: "Tosse crônica."})
	if w.Code != 429 || !strings.Contains(w.Body.String(), "meia-noite") {
		t.Fatalf("quota: %d %s", w.Code, w.Body)
	}
	for _, body := range []any{
		`{`, Request{FileID: "x", Exam: "radiografia", Species: "cao", Region: "torax", Question: "Tosse crônica."},
		Request{FileID: img, Exam: "tomografia", Species: "cao", Region: "torax", Question: "Tosse crônica."},
		Request{FileID: img, Exam: "radiografia", Species: "dragao", Region: "torax", Question: "Tosse crônica."},
		Request{FileID: img, Exam: "radiografia", Species: "cao", Region: "torax", Question: "?"},
		Request{FileID: img, Exam: "radiografia", Species: "cao", Region: "torax", Question: strings.Repeat("a", 1001)},
		`{"question":"a\u0007b"}`,
	} {
		if w := k.do(ana, "POST", "/cases", body); w.Code < 400 || w.Code >= 500 || !strings.Contains(w.Body.String(), "message") {
			t.Errorf("%v: %d %s", body, w.Code, w.Body)
		}
	}
	if w := k.do(ana, "GET", "/cases/1%20OR%201=1", nil); w.Code != 404 {
		t.Errorf("bad id: %d", w.Code)
	}
}

func TestExportAndDeleteUser(t *testing.T) {
	k := newKit(t)
	img := k.host.AddImage(ana, "image/png", []byte("png"))
	k.host.QueueAI(sdktest.AIAnswer{Text: answer})
	k.do(ana, "POST", "/cases", Request{FileID: img, Exam: "radiografia", Species: "cao", Region: "torax", Question: "Tosse crônica."})
	ctx := context.Background()
	files, err := exportUser(ctx, k.host.Host, ana)
	if err != nil || !strings.Contains(string(files["diagnostico-imagem/casos.json"]), "Tosse crônica.") {
		t.Fatalf("export: %v %s", err, files)
	}
	if err := deleteUser(ctx, k.host.Host, ana); err != nil {
		t.Fatal(err)
	}
	if files, _ := exportUser(ctx, k.host.Host, ana); strings.Contains(string(files["diagnostico-imagem/casos.json"]), "Tosse") {
		t.Fatal("cases left")
	}
}
