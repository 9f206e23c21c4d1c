package httpx_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

type address struct {
	City string `json:"city"`
}

type form struct {
	Name     string            `json:"name"`
	Bio      string            `json:"bio"`
	Age      int               `json:"age"`
	Tags     []string          `json:"tags"`
	Home     *address          `json:"home"`
	Extra    map[string]string `json:"extra"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
	Untagged string
}

func decode(t *testing.T, body string) (form, error) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	return httpx.Decode[form](r)
}

func TestDecodeRefusesHostileText(t *testing.T) {
	cases := []struct {
		name, body string
		field      string // the field the error names, "" for none
		message    string // substring of the message or of the field message
	}{
		{"NUL escape", `{"name":"Ana\u0000"}`, "name", httpx.MsgControlChars},
		{"escape character", `{"bio":"\u001b[31m"}`, "bio", httpx.MsgControlChars},
		{"backspace escape", `{"name":"a\bb"}`, "name", httpx.MsgControlChars},
		{"form feed escape", `{"name":"a\fb"}`, "name", httpx.MsgControlChars},
		{"DEL", `{"name":"a\u007fb"}`, "name", httpx.MsgControlChars},
		{"C1 control", `{"name":"a\u0085b"}`, "name", httpx.MsgControlChars},
		{"invalid UTF-8", "{\"name\":\"Jos\xe9\"}", "", httpx.MsgInvalidUTF8},
		{"in a list", `{"tags":["ok","x\u0000"]}`, "tags", httpx.MsgControlChars},
		{"nested", `{"home":{"city":"\u0001"}}`, "home.city", httpx.MsgControlChars},
		{"map value", `{"extra":{"k":"\u0000"}}`, "extra.k", httpx.MsgControlChars},
		{"map key", `{"extra":{"\u0000":"v"}}`, "extra", httpx.MsgControlChars},
		{"inside any", `{"any":{"a":["\u0002"]}}`, "any.a", httpx.MsgControlChars},
		{"untagged field", `{"Untagged":"\u0000"}`, "Untagged", httpx.MsgControlChars},
		{"raw message", `{"raw":{"x":"\u0000"}}`, "", httpx.MsgControlChars},
		{"unknown field", `{"name":"Ana","admin":true}`, "admin", "Campo desconhecido."},
		{"wrong type", `{"age":"dez"}`, "age", "Tipo de valor inválido."},
		{"number too large", `{"age":1e400}`, "age", "Tipo de valor inválido."},
		{"integer overflow", `{"age":99999999999999999999}`, "age", "Tipo de valor inválido."},
		{"fraction for an integer", `{"age":1.5}`, "age", "Tipo de valor inválido."},
		{"top-level list", `[1,2]`, "", "esperado: objeto"},
		{"top-level string", `"x"`, "", "esperado: objeto"},
		{"malformed", `{"name":`, "", "JSON inválido"},
		{"garbage", `not json`, "", "JSON inválido"},
		{"trailing data", `{"name":"Ana"} {"name":"Bia"}`, "", "depois do documento"},
		{"trailing garbage", `{"name":"Ana"}]`, "", "depois do documento"},
		{"empty", ``, "", "vazio"},
		{"only spaces", "  \n ", "", "vazio"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode(t, tc.body)
			var e *core.Error
			if !errors.As(err, &e) || e.Code != core.EINVALID {
				t.Fatalf("err %v, want an %q *core.Error", err, core.EINVALID)
			}
			if httpx.Status(e.Code) != http.StatusUnprocessableEntity {
				t.Errorf("status %d", httpx.Status(e.Code))
			}
			got := e.Message
			if tc.field != "" {
				msg, ok := e.Fields[tc.field]
				if !ok {
					t.Fatalf("fields %v, want %q", e.Fields, tc.field)
				}
				got = msg
			}
			if !strings.Contains(got, tc.message) {
				t.Errorf("message %q (fields %v), want %q", e.Message, e.Fields, tc.message)
			}
		})
	}
}

func TestDecodeKeepsOrdinaryText(t *testing.T) {
	v, err := decode(t, `{"name":"José Ñandú 🐾","bio":"linha 1\nlinha 2\r\n\tfim","tags":["a"],"raw":{"literal":"\\u0000"},"age":-3}`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "José Ñandú 🐾" || v.Bio != "linha 1\nlinha 2\r\n\tfim" || v.Age != -3 {
		t.Errorf("%+v", v)
	}
}

func TestDecodeRefusesOversizedBodies(t *testing.T) {
	big := `{"bio":"` + strings.Repeat("a", httpx.MaxJSONBody) + `"}`
	_, err := decode(t, big)
	if code := core.ErrorCode(err); code != core.ETOOLARGE || httpx.Status(code) != http.StatusRequestEntityTooLarge {
		t.Fatalf("err %v, want %s (413)", err, core.ETOOLARGE)
	}
	if msg := core.ErrorMessage(err); !strings.Contains(msg, "grande demais") {
		t.Errorf("message %q", msg)
	}
	// The server's own limit (http.MaxBytesReader) is reported the same way.
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"bio":"`+strings.Repeat("a", 100)+`"}`))
	r.Body = http.MaxBytesReader(w, r.Body, 10)
	if _, err := httpx.Decode[form](r); core.ErrorCode(err) != core.ETOOLARGE {
		t.Errorf("MaxBytesReader: %v", err)
	}
	// Just under the limit is accepted.
	ok := `{"bio":"` + strings.Repeat("a", httpx.MaxJSONBody-20) + `"}`
	if _, err := decode(t, ok); err != nil {
		t.Errorf("body under the limit: %v", err)
	}
}

func TestDecodeParam(t *testing.T) {
	var f struct {
		Q string `json:"q"`
	}
	err := httpx.DecodeParam(`{"q":"a\u0000"}`, "filter", &f)
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.EINVALID || !strings.Contains(e.Fields["filter"], httpx.MsgControlChars) {
		t.Fatalf("NUL in filter: %v (%+v)", err, e)
	}
	err = httpx.DecodeParam(`{"x":1}`, "filter", &f)
	if !errors.As(err, &e) || !strings.Contains(e.Fields["filter"], "x: Campo desconhecido.") {
		t.Fatalf("unknown key: %v", err)
	}
	if err := httpx.DecodeParam(`{"q":"ana"}`, "filter", &f); err != nil || f.Q != "ana" {
		t.Fatalf("%v %+v", err, f)
	}
}

func TestURLProblem(t *testing.T) {
	cases := []struct {
		raw  string
		want bool // refused
	}{
		{"/api/profile", false},
		{"/api/admin/users?filter=%7B%22q%22%3A%22ana%22%7D&range=%5B0%2C9%5D", false},
		{"/api/profiles/jos%C3%A9", false},
		{"/api/profiles/%00", true},
		{"/api/profiles/%FF", true},
		{"/api/profiles/a%0D%0ASet-Cookie:x", true},
		{"/api/admin/users?filter=%00", true},
		{"/api/admin/users?filter=%C3%28", true},
		{"/api/admin/users?q=a%0Ab", true},
		{"/api/admin/users?q=a%09b", true},
		{"/api/admin/users?%00=1", true},
		{"/api/admin/users?q=%zz", true},
		{"/api/admin/users?a=1;b=2", true},
	}
	for _, tc := range cases {
		u, err := url.ParseRequestURI(tc.raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		err = httpx.URLProblem(u)
		if (err != nil) != tc.want {
			t.Errorf("%s: err %v, want refused=%v", tc.raw, err, tc.want)
		}
		if err != nil && core.ErrorCode(err) != core.EINVALID {
			t.Errorf("%s: code %s", tc.raw, core.ErrorCode(err))
		}
	}
}

func TestTextProblem(t *testing.T) {
	for s, want := range map[string]string{
		"":              "",
		"Ana Maria":     "",
		"a\tb\nc\r":     "",
		"ação 🐾 \u200b": "",
		"a\x00":         httpx.MsgControlChars,
		"\x1f":          httpx.MsgControlChars,
		"\x7f":          httpx.MsgControlChars,
		"\u009f":        httpx.MsgControlChars,
		"\xff":          httpx.MsgInvalidUTF8,
		"\xed\xa0\x80":  httpx.MsgInvalidUTF8, // a UTF-16 surrogate encoded as UTF-8
		"a\xc3":         httpx.MsgInvalidUTF8,
	} {
		if got := httpx.TextProblem(s); got != want {
			t.Errorf("TextProblem(%q) = %q, want %q", s, got, want)
		}
	}
	if httpx.URLTextProblem("a\tb") == "" || httpx.URLTextProblem("a b") != "" {
		t.Error("URLTextProblem: tab must be refused, space kept")
	}
}
