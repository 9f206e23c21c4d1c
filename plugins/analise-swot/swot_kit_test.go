package main

// These tests call the handler directly with the SDK's fake host (sdktest):
// no core and no plugin process, only PostgreSQL for the plugin's schema.
// swot_test.go keeps the same rules covered through a real core and a real
// plugin process.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

const (
	anaID = "0d2f7a38-94c4-4a87-9d55-2b0f4a1f0a01"
	biaID = "0d2f7a38-94c4-4a87-9d55-2b0f4a1f0a02"
)

type kit struct {
	t    *testing.T
	host *sdktest.Host
	h    http.Handler
}

func newKit(t *testing.T) *kit {
	host := sdktest.New(t, sdktest.WithSQL(Migrations))
	return &kit{t: t, host: host, h: Handler(host.Host)}
}

type reply struct {
	status int
	body   []byte
}

func (k *kit) do(user, method, path string, body any) reply {
	k.t.Helper()
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			k.t.Fatal(err)
		}
	}
	r := k.host.As(httptest.NewRequest(method, path, bytes.NewReader(b)), sdktest.User(user))
	rec := httptest.NewRecorder()
	k.h.ServeHTTP(rec, r)
	return reply{rec.Code, rec.Body.Bytes()}
}

func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r reply) message(t *testing.T) string {
	var e struct{ Error struct{ Message string } }
	r.decode(t, &e)
	return e.Error.Message
}

func TestKitSWOTIsSavedPerUser(t *testing.T) {
	k := newKit(t)
	res := k.do(anaID, "POST", "/analyses", map[string]any{"title": " Clínica 2027 ", "quadrants": map[string]any{
		"strengths": []string{"Equipe experiente", "  ", "Boa localização"}, "threats": []string{"Concorrência"},
	}})
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	var a analysis
	res.decode(t, &a)
	if a.Version != 1 || a.Title != "Clínica 2027" || len(a.Quadrants.Strengths) != 2 || a.Quadrants.Weaknesses == nil {
		t.Fatalf("created %+v", a)
	}

	var list struct{ Analyses []analysis }
	k.do(biaID, "GET", "/analyses", nil).decode(t, &list)
	if len(list.Analyses) != 0 {
		t.Fatalf("bia lists %+v", list.Analyses)
	}
	for _, method := range []string{"GET", "PUT", "DELETE"} {
		var body any
		if method == "PUT" {
			body = map[string]any{"title": "invadida", "version": 1}
		}
		if res := k.do(biaID, method, "/analyses/"+a.ID, body); res.status != 404 || res.message(t) != "Análise não encontrada." {
			t.Errorf("bia %s ana's analysis: %d %s", method, res.status, res.body)
		}
	}

	a.Quadrants.Strengths = []string{"Boa localização", "Equipe experiente"}
	res = k.do(anaID, "PUT", "/analyses/"+a.ID, map[string]any{"title": a.Title, "quadrants": a.Quadrants, "version": 1})
	var updated analysis
	res.decode(t, &updated)
	if res.status != 200 || updated.Version != 2 || updated.Quadrants.Strengths[0] != "Boa localização" {
		t.Fatalf("update: %d %s", res.status, res.body)
	}
	res = k.do(anaID, "PUT", "/analyses/"+a.ID, map[string]any{"title": "Outra aba", "quadrants": a.Quadrants, "version": 1})
	if res.status != 409 {
		t.Errorf("stale update: %d %s", res.status, res.body)
	}
	if res := k.do(anaID, "DELETE", "/analyses/"+a.ID, nil); res.status != 204 {
		t.Fatalf("delete: %d %s", res.status, res.body)
	}
	if res := k.do(anaID, "GET", "/analyses/"+a.ID, nil); res.status != 404 {
		t.Errorf("after delete: %d", res.status)
	}
	if res := k.do(anaID, "GET", "/analyses/not-a-uuid", nil); res.status != 404 {
		t.Errorf("malformed id: %d %s", res.status, res.body)
	}
}

func TestKitValidationMessages(t *testing.T) {
	k := newKit(t)
	long := make([]byte, 121)
	for i := range long {
		long[i] = 'a'
	}
	many := make([]string, 51)
	for i := range many {
		many[i] = "item"
	}
	cases := []struct {
		body       map[string]any
		field, msg string
	}{
		{map[string]any{"title": "  "}, "title", "Dê um título à análise."},
		{map[string]any{"title": string(long)}, "title", "O título deve ter no máximo 120 caracteres."},
		{map[string]any{"title": "ok", "quadrants": map[string]any{"threats": many}}, "threats", "Cada quadrante aceita no máximo 50 itens."},
		{map[string]any{"title": "Clínica\x002027"}, "title", "Este campo contém caracteres de controle não permitidos."},
	}
	for _, c := range cases {
		res := k.do(anaID, "POST", "/analyses", c.body)
		var e struct {
			Error struct {
				Message string
				Fields  map[string]string
			}
		}
		res.decode(t, &e)
		if res.status != 422 || e.Error.Message != "Verifique os campos destacados." || e.Error.Fields[c.field] != c.msg {
			t.Errorf("%s: %d %s", c.field, res.status, res.body)
		}
	}
	var list struct{ Analyses []analysis }
	k.do(anaID, "GET", "/analyses", nil).decode(t, &list)
	if len(list.Analyses) != 0 {
		t.Fatalf("a refused analysis was saved: %+v", list.Analyses)
	}
}

// When the core is down or busy, the user reads the core's own message with
// 503 or 429, not a generic 500, and the failure is logged.
func TestKitHostFailuresKeepTheirStatus(t *testing.T) {
	k := newKit(t)
	for _, c := range []struct {
		code   codes.Code
		status int
	}{{codes.Unavailable, 503}, {codes.ResourceExhausted, 429}, {codes.InvalidArgument, 500}} {
		k.host.Fail("SQLQuery", status.Error(c.code, "injected"))
		if res := k.do(anaID, "GET", "/analyses", nil); res.status != c.status {
			t.Errorf("%v: %d %s", c.code, res.status, res.body)
		}
	}
	if logs := k.host.Logs(); len(logs) != 3 || logs[0].Message != "swot storage failed" || logs[0].Level != "error" {
		t.Errorf("logs = %+v", logs)
	}
}
