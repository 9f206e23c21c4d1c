package sdk_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func TestPageFrom(t *testing.T) {
	for _, tc := range []struct {
		query      string
		want       sdk.Page
		badField   string
		badMessage string
	}{
		{"", sdk.Page{Limit: 20}, "", ""},
		{"limit=5&cursor=abc-123", sdk.Page{Limit: 5, Cursor: "abc-123"}, "", ""},
		{"limit=100", sdk.Page{Limit: 100}, "", ""},
		{"limit=0", sdk.Page{}, "limit", "O limite deve estar entre 1 e 100."},
		{"limit=101", sdk.Page{}, "limit", "O limite deve estar entre 1 e 100."},
		{"limit=-3", sdk.Page{}, "limit", "O limite deve estar entre 1 e 100."},
		{"limit=dez", sdk.Page{}, "limit", "O limite deve ser um número inteiro."},
		{"limit=1e3", sdk.Page{}, "limit", "O limite deve ser um número inteiro."},
		{"limit=99999999999999999999999", sdk.Page{}, "limit", "O limite deve ser um número inteiro."},
		{"limit=1&limit=2", sdk.Page{}, "limit", "Informe o limite uma vez só."},
		{"cursor=" + url.QueryEscape("a\x00b"), sdk.Page{}, "cursor", "O cursor da página é inválido."},
		{"cursor=" + strings.Repeat("x", 201), sdk.Page{}, "cursor", "O cursor da página é inválido."},
		{"cursor=%ff", sdk.Page{}, "cursor", "O cursor da página é inválido."},
	} {
		got, problems := sdk.PageFrom(httptest.NewRequest("GET", "/?"+tc.query, nil))
		if tc.badField == "" {
			if len(problems) > 0 || got != tc.want {
				t.Errorf("%q: %+v %v", tc.query, got, problems)
			}
			continue
		}
		if problems[tc.badField] != tc.badMessage {
			t.Errorf("%q: problems %v", tc.query, problems)
		}
		rec := httptest.NewRecorder()
		if !problems.Respond(rec) || rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("%q: answered %d", tc.query, rec.Code)
		}
	}
}

func TestPageOf(t *testing.T) {
	b, _ := json.Marshal(sdk.PageOf([]string(nil), ""))
	if string(b) != `{"items":[],"next_cursor":""}` {
		t.Errorf("empty page %s", b)
	}
	b, _ = json.Marshal(sdk.PageOf([]int{1, 2}, "c2"))
	if string(b) != `{"items":[1,2],"next_cursor":"c2"}` {
		t.Errorf("page %s", b)
	}
}
