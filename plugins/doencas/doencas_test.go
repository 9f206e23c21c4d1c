package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/doencas/data"
	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func item(i int, d data.Disease) sdk.ContentItem {
	return sdk.ContentItem{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1), Type: TypeID, Status: "publicado", Version: 3,
		Slug: d.Slug, Title: d.Title, Summary: d.Summary, Fields: d.Fields(), Published: true}
}

// The first edition is complete and passes the type's own checks: every
// required field, option values the type declares, the notification rules,
// no doses, and every species group covered.
func TestFirstEditionIsValid(t *testing.T) {
	all, err := data.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 60 {
		t.Fatalf("%d diseases, want at least 60", len(all))
	}
	host := sdktest.New(t)
	covered := map[string]int{}
	for i, d := range all {
		if d.Slug == "" || !slugPattern.MatchString(d.Slug) || d.Title == "" || d.Summary == "" {
			t.Errorf("%d: slug, title and summary: %+v", i, d.Slug)
		}
		for name, v := range map[string]string{"agent": d.Agent, "transmission": d.Transmission, "sinais_clinicos": d.Signs,
			"diagnostico": d.Diagnosis, "tratamento": d.Treatment, "prevencao": d.Prevention, "references": d.References} {
			if utf8.RuneCountInString(strings.TrimSpace(v)) < 10 {
				t.Errorf("%s: %s is missing", d.Slug, name)
			}
		}
		if label(Systems, d.BodySystem) == "" || label(AgentTypes, d.AgentType) == "" || len(d.Species) == 0 {
			t.Errorf("%s: system %q, agent type %q, species %v", d.Slug, d.BodySystem, d.AgentType, d.Species)
		}
		for _, s := range d.Species {
			if label(Species, s) == "" {
				t.Errorf("%s: species %q", d.Slug, s)
			}
			covered[s]++
		}
		for _, s := range d.Synonyms {
			if n := utf8.RuneCountInString(s); n == 0 || n > 40 {
				t.Errorf("%s: synonym %q (the core takes 1 to 40 characters)", d.Slug, s)
			}
		}
		// The core's own checks of the declaration: text lengths.
		for name, v := range d.Fields() {
			text, ok := v.(string)
			for _, f := range DiseaseType.Fields {
				if !ok || f.Name != name || (f.Kind != sdk.ContentText && f.Kind != sdk.ContentLongText) {
					continue
				}
				if n := float64(utf8.RuneCountInString(strings.TrimSpace(text))); (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max) {
					t.Errorf("%s: %s has %v characters, outside its declared bounds", d.Slug, name, n)
				}
			}
		}
		check, err := host.ValidateContent(context.Background(), Plugin(), item(i, d))
		if err != nil || check.Errors != nil {
			t.Errorf("%s: %v %v", d.Slug, check.Errors, err)
		}
	}
	for _, s := range Species {
		if covered[s.Value] < 3 {
			t.Errorf("species %s: only %d diseases", s.Value, covered[s.Value])
		}
	}
}

func TestValidateMessages(t *testing.T) {
	host := sdktest.New(t)
	check := func(f map[string]any) map[string]string {
		t.Helper()
		c, err := host.ValidateContent(context.Background(), Plugin(), sdk.ContentItem{Type: TypeID, Fields: f})
		if err != nil {
			t.Fatal(err)
		}
		return c.Errors
	}
	if e := check(map[string]any{"notifiable": true, "references": "MAPA. IN 50/2013."}); e["notification_list"] != MsgListNeeded {
		t.Errorf("notifiable without a list: %v", e)
	}
	if e := check(map[string]any{"notification_list": "2", "references": "MAPA. IN 50/2013."}); e["notification_list"] != MsgListWithout {
		t.Errorf("a list without notifiable: %v", e)
	}
	for _, dose := range []string{"Amoxicilina 20 mg/kg a cada 12 h.", "Penicilina 20.000 UI/kg.", "Doxiciclina 10 mg por kg."} {
		if e := check(map[string]any{"tratamento": dose}); e["tratamento"] != MsgNoDoses {
			t.Errorf("%q: %v", dose, e)
		}
	}
	if e := check(map[string]any{"references": " \n \n"}); e["references"] != MsgReferencesForm {
		t.Errorf("empty references: %v", e)
	}
	if e := check(map[string]any{"tratamento": "Suporte e antimicrobiano conforme cultura.", "references": "Greene, 2023."}); e != nil {
		t.Errorf("valid: %v", e)
	}
}

// published starts a host whose projection holds the whole first edition,
// as AfterPublish leaves it after the seed.
func published(t *testing.T) (*sdktest.Host, http.Handler) {
	t.Helper()
	host := sdktest.New(t, sdktest.WithSQL(Migrations))
	all, err := data.All()
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range all {
		if err := host.AfterPublish(context.Background(), Plugin(), item(i, d)); err != nil {
			t.Fatalf("%s: %v", d.Slug, err)
		}
	}
	return host, Handler(host.Host)
}

type listAnswer struct {
	Items    []Summary `json:"items"`
	Total    int       `json:"total"`
	Page     int       `json:"page"`
	PageSize int       `json:"page_size"`
}

func call(t *testing.T, host *sdktest.Host, h http.Handler, user, method, target string) (int, []byte) {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	if user != "" {
		r = host.As(r, sdktest.User(user))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

func list(t *testing.T, host *sdktest.Host, h http.Handler, user string, q url.Values) listAnswer {
	t.Helper()
	code, body := call(t, host, h, user, "GET", "/doencas?"+q.Encode())
	if code != http.StatusOK {
		t.Fatalf("list %v: %d %s", q, code, body)
	}
	var a listAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func search(t *testing.T, host *sdktest.Host, h http.Handler, q string) []string {
	t.Helper()
	a := list(t, host, h, "u1", url.Values{"q": {q}})
	out := make([]string, len(a.Items))
	for i, it := range a.Items {
		out[i] = it.Slug
	}
	return out
}

// Accents, case, typos and synonyms find the right disease first.
func TestSearchToleratesAccentsAndTypos(t *testing.T) {
	host, h := published(t)
	cases := map[string]string{
		"cinomose":             "cinomose",
		"Cinomose":             "cinomose",
		"cinomoze":             "cinomose",
		"sinomose":             "cinomose",
		"cinomse":              "cinomose",
		"leptospirose":         "leptospirose",
		"Leptospirose canina":  "leptospirose",
		"leptospirosse":        "leptospirose",
		"doenca de carre":      "cinomose",
		"Doença de Carré":      "cinomose",
		"giardiase":            "giardiase",
		"tuberculose":          "tuberculose-bovina",
		"panleucopenia":        "panleucopenia-felina",
		"anemia infecciosa":    "anemia-infecciosa-equina",
		"mormo":                "mormo",
		"FIV":                  "fiv",
		"esporotricose":        "esporotricose",
		"esporotricoze":        "esporotricose",
		"newcastle":            "doenca-de-newcastle",
		"vaca louca":           "encefalopatia-espongiforme-bovina",
		"tristeza parasitaria": "tristeza-parasitaria-bovina",
	}
	for q, want := range cases {
		got := search(t, host, h, q)
		if len(got) == 0 || got[0] != want {
			t.Errorf("search %q: %v, want %s first", q, got, want)
		}
	}
	// Words inside the text are found too; nonsense finds nothing.
	if got := search(t, host, h, "Lutzomyia"); len(got) == 0 || got[0] != "leishmaniose-visceral-canina" {
		t.Errorf("vector: %v", got)
	}
	if got := search(t, host, h, "xyzwq"); len(got) != 0 {
		t.Errorf("nonsense: %v", got)
	}
}

func TestFiltersAndPages(t *testing.T) {
	host, h := published(t)
	all := list(t, host, h, "u1", url.Values{})
	if all.Total < 60 || len(all.Items) != DefaultPageSize || all.Page != 1 {
		t.Fatalf("first page: total %d, %d items", all.Total, len(all.Items))
	}
	seen := map[string]bool{}
	for p := 1; p <= (all.Total+9)/10; p++ {
		a := list(t, host, h, "u1", url.Values{"pagina": {fmt.Sprint(p)}, "por_pagina": {"10"}})
		for _, it := range a.Items {
			if seen[it.Slug] {
				t.Errorf("%s on two pages", it.Slug)
			}
			seen[it.Slug] = true
		}
	}
	if len(seen) != all.Total {
		t.Errorf("pages hold %d of %d", len(seen), all.Total)
	}
	past := list(t, host, h, "u1", url.Values{"pagina": {"99"}})
	if len(past.Items) != 0 || past.Total != all.Total {
		t.Errorf("past the end: %+v", past)
	}

	cats := list(t, host, h, "u1", url.Values{"especie": {"gatos"}, "por_pagina": {"50"}})
	if cats.Total < 8 {
		t.Errorf("cats: %d", cats.Total)
	}
	for _, it := range cats.Items {
		if !hasSpecies(it, "gatos") {
			t.Errorf("%s has no cats", it.Slug)
		}
	}
	nervous := list(t, host, h, "u1", url.Values{"sistema": {"nervoso"}, "por_pagina": {"50"}})
	for _, it := range nervous.Items {
		if it.System.Value != "nervoso" {
			t.Errorf("%s: %v", it.Slug, it.System)
		}
	}
	zoo := list(t, host, h, "u1", url.Values{"zoonotica": {"true"}, "especie": {"caes"}, "por_pagina": {"50"}})
	if zoo.Total == 0 {
		t.Error("no zoonoses of dogs")
	}
	for _, it := range zoo.Items {
		if !it.Zoonotic || !hasSpecies(it, "caes") {
			t.Errorf("zoonoses of dogs: %+v", it)
		}
	}
	notif := list(t, host, h, "u1", url.Values{"notificavel": {"true"}, "especie": {"equinos"}, "por_pagina": {"50"}})
	slugs := map[string]bool{}
	for _, it := range notif.Items {
		slugs[it.Slug] = true
		if !it.Notifiable || it.Notify == "" {
			t.Errorf("notifiable: %+v", it)
		}
	}
	if !slugs["mormo"] || !slugs["anemia-infecciosa-equina"] || slugs["laminite"] {
		t.Errorf("notifiable diseases of horses: %v", slugs)
	}
	// A search narrows a filter.
	if a := list(t, host, h, "u1", url.Values{"q": {"cinomose"}, "especie": {"bovinos"}}); a.Total != 0 {
		t.Errorf("distemper of cattle: %+v", a.Items)
	}
}

func hasSpecies(it Summary, s string) bool {
	for _, o := range it.Species {
		if o.Value == s {
			return true
		}
	}
	return false
}

func TestDiseasePage(t *testing.T) {
	host, h := published(t)
	code, body := call(t, host, h, "u1", "GET", "/doencas/raiva")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	var d Detail
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != "Raiva" || !d.Zoonotic || !d.Notification.Required || d.Notification.List != "2" ||
		!strings.Contains(d.Notification.Deadline, "24 horas") || d.Signs == "" || len(d.References) < 2 || d.AgentType.Label != "Vírus" {
		t.Errorf("raiva: %+v", d)
	}
	code, body = call(t, host, h, "u1", "GET", "/doencas/cinomose")
	d = Detail{}
	if err := json.Unmarshal(body, &d); err != nil || code != 200 || d.Notification.Required || d.Notification.Deadline != "" {
		t.Errorf("cinomose: %d %+v", code, d.Notification)
	}
	// (Dot segments never reach a plugin: the host refuses them.)
	for _, slug := range []string{"nao-existe", "CINOMOSE", "a--b", "a_b", strings.Repeat("a", 300)} {
		if code, body := call(t, host, h, "u1", "GET", "/doencas/"+slug); code != http.StatusNotFound || !strings.Contains(string(body), MsgNotFound) {
			t.Errorf("%q: %d %s", slug, code, body)
		}
	}
}

// Favourites are private: another member never sees them, cannot remove
// them, and a favourite of a disease that does not exist is 404.
func TestFavoritesArePrivate(t *testing.T) {
	host, h := published(t)
	if code, body := call(t, host, h, "ana", "PUT", "/doencas/cinomose/favorito"); code != 200 {
		t.Fatalf("favourite: %d %s", code, body)
	}
	if code, _ := call(t, host, h, "ana", "PUT", "/doencas/cinomose/favorito"); code != 200 {
		t.Fatal("favourite again is idempotent")
	}
	mine := list(t, host, h, "ana", url.Values{"favoritas": {"true"}})
	if mine.Total != 1 || mine.Items[0].Slug != "cinomose" || !mine.Items[0].Favorite {
		t.Fatalf("ana's favourites: %+v", mine)
	}
	theirs := list(t, host, h, "bruno", url.Values{"favoritas": {"true"}})
	if theirs.Total != 0 {
		t.Fatalf("bruno sees ana's favourites: %+v", theirs)
	}
	for _, it := range list(t, host, h, "bruno", url.Values{"q": {"cinomose"}}).Items {
		if it.Favorite {
			t.Fatal("bruno's list marks ana's favourite")
		}
	}
	_, body := call(t, host, h, "bruno", "GET", "/doencas/cinomose")
	if strings.Contains(string(body), `"favorite":true`) {
		t.Fatal("bruno's page marks ana's favourite")
	}
	if code, _ := call(t, host, h, "bruno", "DELETE", "/doencas/cinomose/favorito"); code != http.StatusNotFound {
		t.Fatalf("bruno removes ana's favourite: %d", code)
	}
	if a := list(t, host, h, "ana", url.Values{"favoritas": {"true"}}); a.Total != 1 {
		t.Fatal("ana's favourite went away")
	}
	if code, _ := call(t, host, h, "ana", "PUT", "/doencas/nao-existe/favorito"); code != http.StatusNotFound {
		t.Fatalf("unknown disease: %d", code)
	}
	if code, _ := call(t, host, h, "", "PUT", "/doencas/cinomose/favorito"); code != http.StatusUnauthorized {
		t.Fatalf("signed out: %d", code)
	}
	if code, _ := call(t, host, h, "ana", "DELETE", "/doencas/cinomose/favorito"); code != 200 {
		t.Fatal("remove")
	}
	if code, _ := call(t, host, h, "ana", "DELETE", "/doencas/cinomose/favorito"); code != http.StatusNotFound {
		t.Fatal("remove twice")
	}
}

func TestHostileInputs(t *testing.T) {
	host, h := published(t)
	cases := []struct {
		query, field string
	}{
		{"q=" + strings.Repeat("a", 201), "q"},
		{"q=" + url.QueryEscape(strings.Repeat("cinomose ", 5000)), "q"},
		{"q=cino%00mose", "q"},
		{"q=cino%1Bmose", "q"},
		{"q=cino%0Amose", "q"},
		{"q=%ff%fe", "q"},
		{"especie=dinossauros", "especie"},
		{"especie=" + url.QueryEscape("gatos' OR 1=1 --"), "especie"},
		{"sistema=alma", "sistema"},
		{"zoonotica=talvez", "zoonotica"},
		{"notificavel=1", "notificavel"},
		{"favoritas=sim", "favoritas"},
		{"pagina=0", "pagina"},
		{"pagina=-1", "pagina"},
		{"pagina=abc", "pagina"},
		{"pagina=99999999999999999999", "pagina"},
		{"por_pagina=500", "por_pagina"},
		{"por_pagina=0", "por_pagina"},
	}
	for _, c := range cases {
		code, body := call(t, host, h, "u1", "GET", "/doencas?"+c.query)
		var e struct {
			Error struct {
				Message string            `json:"message"`
				Fields  map[string]string `json:"fields"`
			} `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		if code != http.StatusUnprocessableEntity || e.Error.Fields[c.field] == "" || e.Error.Message == "" {
			t.Errorf("%.60s: %d %s", c.query, code, body)
		}
	}
	// Query syntax and SQL in a search are only words.
	for _, q := range []string{"'; DROP TABLE diseases; --", "cino & | ! :* ( ) mose", `\'`, "<script>alert(1)</script>", "  ", "***"} {
		if code, body := call(t, host, h, "u1", "GET", "/doencas?q="+url.QueryEscape(q)); code != 200 {
			t.Errorf("%q: %d %s", q, code, body)
		}
	}
	if a := list(t, host, h, "u1", url.Values{}); a.Total < 60 {
		t.Fatal("the projection lost rows")
	}
	if code, _ := call(t, host, h, "u1", "POST", "/doencas"); code != http.StatusMethodNotAllowed {
		t.Errorf("POST list: %d", code)
	}
	if code, _ := call(t, host, h, "u1", "DELETE", "/doencas/cinomose"); code != http.StatusMethodNotAllowed {
		t.Errorf("DELETE a disease: %d", code)
	}
	if code, _ := call(t, host, h, "u1", "GET", "/outra-coisa"); code != http.StatusNotFound {
		t.Errorf("unknown path: %d", code)
	}
}

// The projection follows publication: an edit replaces the disease, an
// older call arriving late changes nothing, and unpublishing or archiving
// takes it out.
func TestProjectionFollowsPublication(t *testing.T) {
	host, h := published(t)
	ctx := context.Background()
	all, _ := data.All()
	it := item(0, all[0]) // cinomose, version 3
	it.Version, it.Title = 5, "Cinomose canina"
	if err := host.AfterPublish(ctx, Plugin(), it); err != nil {
		t.Fatal(err)
	}
	old := item(0, all[0])
	old.Version, old.Title = 4, "Cinomose (versão antiga)"
	if err := host.AfterPublish(ctx, Plugin(), old); err != nil {
		t.Fatal(err)
	}
	if got := list(t, host, h, "u1", url.Values{"q": {"cinomose"}}); got.Items[0].Name != "Cinomose canina" {
		t.Fatalf("edit: %+v", got.Items[0])
	}
	// Moves that keep it published leave it.
	for _, to := range []string{"em_revisao", "publicado", "agendado"} {
		if r, err := host.BeforeTransition(ctx, Plugin(), it, to); r != "" || err != nil {
			t.Fatal(r, err)
		}
	}
	if code, _ := call(t, host, h, "u1", "GET", "/doencas/cinomose"); code != 200 {
		t.Fatal("withdrawn by a move that keeps it published")
	}
	if _, err := host.BeforeTransition(ctx, Plugin(), it, "rascunho"); err != nil { // "Despublicar"
		t.Fatal(err)
	}
	if code, _ := call(t, host, h, "u1", "GET", "/doencas/cinomose"); code != http.StatusNotFound {
		t.Fatal("unpublished disease still shown")
	}
	lepto := item(2, all[2])
	if _, err := host.BeforeTransition(ctx, Plugin(), lepto, "arquivado"); err != nil {
		t.Fatal(err)
	}
	if got := search(t, host, h, "leptospirose"); len(got) > 0 && got[0] == "leptospirose" {
		t.Fatal("archived disease still found")
	}
}

func TestExportAndDeleteFavorites(t *testing.T) {
	host, h := published(t)
	ctx := context.Background()
	for _, s := range []string{"raiva", "mormo"} {
		if code, _ := call(t, host, h, "ana", "PUT", "/doencas/"+s+"/favorito"); code != 200 {
			t.Fatal(s)
		}
	}
	call(t, host, h, "bruno", "PUT", "/doencas/fiv/favorito")
	files, err := exportUser(ctx, host.Host, "ana")
	if err != nil || len(files) != 1 {
		t.Fatal(files, err)
	}
	var out struct {
		Favorites []struct {
			Disease string `json:"doenca"`
		} `json:"doencas_favoritas"`
	}
	if err := json.Unmarshal(files[0].Data, &out); err != nil || len(out.Favorites) != 2 || strings.Contains(string(files[0].Data), "fiv") {
		t.Fatalf("export: %s %v", files[0].Data, err)
	}
	if err := deleteUser(ctx, host.Host, "ana"); err != nil {
		t.Fatal(err)
	}
	if err := deleteUser(ctx, host.Host, "ana"); err != nil {
		t.Fatal("delete twice:", err)
	}
	if a := list(t, host, h, "ana", url.Values{"favoritas": {"true"}}); a.Total != 0 {
		t.Fatal("favourites kept after deletion")
	}
	if a := list(t, host, h, "bruno", url.Values{"favoritas": {"true"}}); a.Total != 1 {
		t.Fatal("another member's favourites deleted")
	}
}

// The projection reads the published fields by name: every name it reads
// must be one the type declares (the page reads the rest through Detail).
func TestProjectionReadsDeclaredFields(t *testing.T) {
	declared := map[string]bool{}
	for _, f := range DiseaseType.Fields {
		declared[f.Name] = true
	}
	var d diseaseFields
	b, _ := json.Marshal(d)
	var read map[string]any
	_ = json.Unmarshal(b, &read)
	for name := range read {
		projectedFieldsCheck(t, declared, name)
	}
	for _, name := range projectedFields {
		projectedFieldsCheck(t, declared, name)
	}
}

func projectedFieldsCheck(t *testing.T, declared map[string]bool, name string) {
	t.Helper()
	if !declared[name] {
		t.Errorf("field %s is read but not declared", name)
	}
}
