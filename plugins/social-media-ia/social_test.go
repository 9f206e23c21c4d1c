package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

const (
	ana = "11111111-1111-4111-8111-111111111111"
	bia = "22222222-2222-4222-8222-222222222222"
)

type kit struct {
	t    *testing.T
	host *sdktest.Host
	h    http.Handler
}

func newKit(t *testing.T) *kit {
	host := sdktest.New(t, sdktest.WithSQL(Migrations), sdktest.WithPrompts(Prompts))
	return &kit{t: t, host: host, h: Handler(host.Host)}
}

func (k *kit) do(user, method, path string, body any) *httptest.ResponseRecorder {
	var b []byte
	switch v := body.(type) {
	case nil:
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	r := httptest.NewRequest(method, path, bytes.NewReader(b))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	k.h.ServeHTTP(w, k.host.As(r, sdktest.User(user)))
	return w
}

func postJSON(texto string, tags ...string) string {
	b, _ := json.Marshal(map[string]any{"texto": texto, "hashtags": tags, "cta": "Agende uma avaliação.",
		"sugestao_imagem": "Cão feliz no consultório.", "variacoes": []string{"Variação 1.", "Variação 2.", "Variação 3."}})
	return string(b)
}

type created struct {
	Post struct {
		ID      string `json:"id"`
		Content Post   `json:"content"`
	} `json:"post"`
	Remaining int `json:"remaining"`
}

func TestPostFillsTheTemplateAndKeepsTheNetworksLimits(t *testing.T) {
	k := newKit(t)
	if w := k.do(ana, "PUT", "/profile", Profile{Name: "Clínica Patas", City: "Campinas", WhatsApp: "19 91234-5678", Responsible: "Dra. Ana, CRMV-SP 12345"}); w.Code != 200 {
		t.Fatalf("profile: %d %s", w.Code, w.Body)
	}
	long := strings.Repeat("Vacinar é um ato de amor e de saúde pública. ", 40) // ~1,800 characters
	tags := []string{"#vacina", "#pet", "#saude", "#gatos", "#caes", "#vet", "#clinica", "#campinas", "#amor", "#cuidado", "#extra1", "#extra2"}
	for _, n := range Networks {
		k.host.QueueAI(sdktest.AIAnswer{Text: postJSON(long, tags...)})
		w := k.do(ana, "POST", "/posts", Request{Network: n.ID, Topic: "vacinacao", Audience: "tutores-caes", Tone: "acolhedor", UseProfile: true})
		if w.Code != 201 {
			t.Fatalf("%s: %d %s", n.ID, w.Code, w.Body)
		}
		var c created
		_ = json.Unmarshal(w.Body.Bytes(), &c)
		p := c.Post.Content
		if got := utf8.RuneCountInString(p.Full); got > n.MaxChars {
			t.Errorf("%s: ready-to-copy text has %d characters, limit %d", n.ID, got, n.MaxChars)
		}
		if len(p.Hashtags) > n.MaxHashtags {
			t.Errorf("%s: %d hashtags, max %d", n.ID, len(p.Hashtags), n.MaxHashtags)
		}
		if len(p.Variations) != 3 || p.CTA == "" || p.Image == "" {
			t.Errorf("%s: incomplete post %+v", n.ID, p)
		}
		if !strings.Contains(strings.Join(p.Notes, " "), "CFMV") || !strings.Contains(strings.Join(p.Notes, " "), "preço") {
			t.Errorf("%s: the advertising notes are missing: %v", n.ID, p.Notes)
		}
	}
	calls := k.host.AICalls()
	if len(calls) != len(Networks) {
		t.Fatalf("calls: %d", len(calls))
	}
	c := calls[0]
	for _, want := range []string{"Rede: «Instagram»", "Limite de caracteres do texto: 1900", "Tema: «Campanha de vacinação»", "Clínica: «Clínica Patas»", "Responsável técnico: «Dra. Ana, CRMV-SP 12345»"} {
		if !strings.Contains(c.User, want) {
			t.Errorf("filled prompt lacks %q:\n%s", want, c.User)
		}
	}
	if !c.JSON || c.Template != "post" || c.Version != "1" || !strings.Contains(c.System, "sem preços") && !strings.Contains(c.System, "nada de preços") {
		t.Errorf("template: %+v", c)
	}
}

func TestDosesNeverReachAPostForTutors(t *testing.T) {
	k := newKit(t)
	k.host.QueueAI(sdktest.AIAnswer{Text: postJSON("Vermifugar é essencial. Use praziquantel 5 mg/kg a cada 3 meses. Fale com seu veterinário.")})
	w := k.do(ana, "POST", "/posts", Request{Network: "instagram", Topic: "prevencao", Audience: "tutores-gatos", Tone: "educativo"})
	var c created
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	if strings.Contains(c.Post.Content.Full, "mg") || !strings.Contains(c.Post.Content.Full, "Vermifugar é essencial.") {
		t.Errorf("dose kept or text lost: %q", c.Post.Content.Full)
	}
	if !strings.Contains(strings.Join(c.Post.Content.Notes, " "), "dose") {
		t.Errorf("no note on the removed dose: %v", c.Post.Content.Notes)
	}
}

func TestQuotaRefusedWithItsReason(t *testing.T) {
	k := newKit(t)
	k.host.SetAILimit(1)
	k.host.QueueAI(sdktest.AIAnswer{Text: postJSON("Olá.")})
	req := Request{Network: "facebook", Topic: "adocao", Audience: "tutores-caes", Tone: "acolhedor"}
	if w := k.do(ana, "POST", "/posts", req); w.Code != 201 {
		t.Fatalf("first: %d %s", w.Code, w.Body)
	}
	w := k.do(ana, "POST", "/posts", req)
	if w.Code != 429 || !strings.Contains(w.Body.String(), "Assine o Premium") || !strings.Contains(w.Body.String(), `"upgrade":true`) {
		t.Fatalf("over the limit: %d %s", w.Code, w.Body)
	}
	// The model down: 503 in pt-BR.
	k.host.SetAILimit(10)
	k.host.QueueAI(sdktest.AIAnswer{Err: status.Error(codes.Unavailable, "down")})
	if w := k.do(ana, "POST", "/posts", req); w.Code != 503 || !strings.Contains(w.Body.String(), "Tente novamente") {
		t.Fatalf("model down: %d %s", w.Code, w.Body)
	}
}

func TestHistoryFavouritesAndPrivacy(t *testing.T) {
	k := newKit(t)
	k.host.QueueAI(sdktest.AIAnswer{Text: postJSON("Adote um amigo.")})
	cid := "33333333-3333-4333-8333-333333333333"
	w := k.do(ana, "POST", "/posts", Request{Network: "linkedin", Topic: "adocao", Audience: "tutores-caes", Tone: "profissional", ClientID: cid})
	var c created
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	// A retry with the same client id answers the saved post without a new generation.
	if w := k.do(ana, "POST", "/posts", Request{Network: "linkedin", Topic: "adocao", Audience: "tutores-caes", Tone: "profissional", ClientID: cid}); w.Code != 200 || !strings.Contains(w.Body.String(), c.Post.ID) {
		t.Fatalf("retry: %d %s", w.Code, w.Body)
	}
	if len(k.host.AICalls()) != 1 {
		t.Fatalf("a retry generated again")
	}
	if w := k.do(ana, "PUT", "/posts/"+c.Post.ID+"/favorite", map[string]bool{"favorite": true}); w.Code != 200 {
		t.Fatalf("favorite: %d %s", w.Code, w.Body)
	}
	if w := k.do(ana, "GET", "/posts?favorites=1", nil); !strings.Contains(w.Body.String(), c.Post.ID) {
		t.Fatalf("favorites: %s", w.Body)
	}
	for _, probe := range []struct{ method, path string }{{"GET", "/posts/" + c.Post.ID}, {"PUT", "/posts/" + c.Post.ID + "/favorite"}, {"DELETE", "/posts/" + c.Post.ID}} {
		if w := k.do(bia, probe.method, probe.path, map[string]bool{"favorite": false}); w.Code != 404 {
			t.Errorf("another member %s %s: %d", probe.method, probe.path, w.Code)
		}
	}
	if w := k.do(bia, "GET", "/posts", nil); strings.Contains(w.Body.String(), c.Post.ID) {
		t.Errorf("another member's history shows the post")
	}
	if w := k.do(ana, "DELETE", "/posts/"+c.Post.ID, nil); w.Code != 204 {
		t.Fatalf("delete: %d", w.Code)
	}
}

func TestWeeklyCalendarHasSevenPosts(t *testing.T) {
	k := newKit(t)
	var days []map[string]any
	for _, d := range []string{"Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado", "Domingo"} {
		days = append(days, map[string]any{"dia": d, "tema": "Calor", "texto": "Água fresca sempre.", "hashtags": []string{"#verao"}})
	}
	b, _ := json.Marshal(map[string]any{"posts": days})
	k.host.QueueAI(sdktest.AIAnswer{Text: string(b)})
	w := k.do(ana, "POST", "/calendar", Request{Network: "whatsapp", Topic: "sazonal", Audience: "tutores-caes", Tone: "divertido"})
	if w.Code != 201 || strings.Count(w.Body.String(), `"dia"`) != 7 || strings.Contains(w.Body.String(), "#verao") {
		t.Fatalf("calendar (WhatsApp takes no hashtags): %d %s", w.Code, w.Body)
	}
	if k.host.AICalls()[0].Template != "calendario" {
		t.Fatal("calendar template not used")
	}
}

func TestHostileInputs(t *testing.T) {
	k := newKit(t)
	for _, tc := range []struct {
		body any
		want string
	}{
		{`{"network":`, ""},
		{Request{Network: "tiktok", Topic: "adocao", Audience: "tutores-caes", Tone: "acolhedor"}, "rede social"},
		{Request{Network: "instagram", Topic: "'; DROP TABLE posts;--", Audience: "tutores-caes", Tone: "acolhedor"}, "tema"},
		{Request{Network: "instagram", Topic: "adocao", Audience: "tutores-caes", Tone: "acolhedor", Details: strings.Repeat("x", 501)}, "500 caracteres"},
		{Request{Network: "instagram", Topic: "adocao", Audience: "tutores-caes", Tone: "acolhedor", ClientID: "not-a-uuid"}, "Identificador"},
		{`{"network":"instagram","details":"a\u0000b"}`, ""},
	} {
		w := k.do(ana, "POST", "/posts", tc.body)
		if w.Code < 400 || w.Code >= 500 || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%v: %d %s", tc.body, w.Code, w.Body)
		}
	}
	if w := k.do(ana, "PUT", "/profile", Profile{WhatsApp: "<script>"}); w.Code != 422 {
		t.Errorf("profile: %d", w.Code)
	}
	if w := k.do(ana, "GET", "/posts/nao-e-um-id", nil); w.Code != 404 {
		t.Errorf("bad id: %d", w.Code)
	}
	if len(k.host.AICalls()) != 0 {
		t.Errorf("a refused input reached the AI")
	}
}

func TestExportAndDeleteUser(t *testing.T) {
	k := newKit(t)
	k.host.QueueAI(sdktest.AIAnswer{Text: postJSON("Olá.")})
	k.do(ana, "POST", "/posts", Request{Network: "instagram", Topic: "adocao", Audience: "tutores-caes", Tone: "acolhedor"})
	ctx := context.Background()
	files, err := exportUser(ctx, k.host.Host, ana)
	if err != nil || !strings.Contains(string(files["social-media-ia/posts.json"]), "Olá.") {
		t.Fatalf("export: %v %v", err, files)
	}
	if err := deleteUser(ctx, k.host.Host, ana); err != nil {
		t.Fatal(err)
	}
	if files, _ := exportUser(ctx, k.host.Host, ana); strings.Contains(string(files["social-media-ia/posts.json"]), "Olá.") {
		t.Fatal("posts left after delete")
	}
}
