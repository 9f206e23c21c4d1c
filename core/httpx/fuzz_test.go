package httpx_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// The fuzz targets run their seeds (below and testdata/fuzz) as ordinary
// tests; `go test -fuzz=FuzzX ./core/httpx` explores further.

// FuzzDecode: any body is either decoded into a value whose every string is
// acceptable text, or refused with a 4xx *core.Error; never a panic or an
// internal error.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"name":"Ana","bio":"a\nb","age":3,"tags":["x"],"home":{"city":"Recife"},"extra":{"k":"v"},"any":[1,{"a":null}],"raw":{"x":1}}`,
		`{"name":"\u0000"}`, `{"raw":"\\u0000"}`, `{"raw":"\u0000"}`, `{"any":{"\u0001":1}}`, "{\"name\":\"\xff\"}",
		`{"name":"\ud800"}`, `{"age":1e999}`, `{"age":-0}`, `[]`, `null`, `{"a":1}`, `{} {}`, `{`, ``, `"\u`,
		`{"tags":null,"home":null,"extra":null}`, `{"Untagged":"a\bb"}`, strings.Repeat(`[`, 20000),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(body)))
		v, err := httpx.Decode[form](r)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || (e.Code != core.EINVALID && e.Code != core.ETOOLARGE) || e.Message == "" {
				t.Fatalf("Decode(%q): %v, want an invalid or too_large *core.Error", body, err)
			}
			if s := httpx.Status(e.Code); s < 400 || s >= 500 {
				t.Fatalf("Decode(%q): status %d", body, s)
			}
			return
		}
		checkStrings(t, reflect.ValueOf(v), body)
		if problem := httpx.TextProblem(string(v.Raw)); problem != "" {
			t.Fatalf("Decode(%q) kept raw text %q", body, v.Raw)
		}
	})
}

func checkStrings(t *testing.T, v reflect.Value, body []byte) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		if p := httpx.TextProblem(v.String()); p != "" {
			t.Fatalf("Decode(%q) accepted %q: %s", body, v.String(), p)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkStrings(t, v.Elem(), body)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				checkStrings(t, v.Field(i), body)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			checkStrings(t, v.Index(i), body)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			checkStrings(t, it.Key(), body)
			checkStrings(t, it.Value(), body)
		}
	}
}

// FuzzParseList: whatever the query, a list page is bounded (0 ≤ offset ≤
// MaxListOffset, 1 ≤ limit ≤ MaxLimit) with a known sort field, or refused
// with a 422.
func FuzzParseList(f *testing.F) {
	for _, s := range [][3]string{
		{"[0,24]", `["email","ASC"]`, `{"q":"ana"}`},
		{"[0,9223372036854775807]", `["id","desc"]`, `{}`},
		{"[9223372036854775807,9223372036854775807]", "", ""},
		{"[-1,5]", `["email"]`, `{"q":"\u0000"}`},
		{"[5,2]", `["x","ASC"]`, `{"q":1}`},
		{"[0,1e3]", `[1,2]`, `[]`},
		{"[1000000000,1000000099]", `["created_at","DESC"]`, `{"q":"a\tb"}`},
		{"[0]", `"email"`, `null`},
	} {
		f.Add(s[0], s[1], s[2])
	}
	params := httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: []string{"id", "email", "created_at"}}
	f.Fuzz(func(t *testing.T, rng, sort, filter string) {
		q := url.Values{}
		q.Set("range", rng)
		q.Set("sort", sort)
		q.Set("filter", filter)
		r := httptest.NewRequest(http.MethodGet, "/?"+q.Encode(), nil)
		var fl struct {
			Q string `json:"q"`
		}
		lq, err := httpx.ParseList(r, params, &fl)
		if err != nil {
			if core.ErrorCode(err) != core.EINVALID && core.ErrorCode(err) != core.ETOOLARGE {
				t.Fatalf("ParseList(%q, %q, %q): %v", rng, sort, filter, err)
			}
			return
		}
		if lq.Offset < 0 || lq.Offset > httpx.MaxListOffset || lq.Limit < 1 || lq.Limit > params.MaxLimit {
			t.Fatalf("ParseList(%q, %q, %q) = %+v: out of bounds", rng, sort, filter, lq)
		}
		if lq.SortField != "" && !slices.Contains(params.SortFields, lq.SortField) {
			t.Fatalf("ParseList(%q, %q, %q): sort field %q", rng, sort, filter, lq.SortField)
		}
		if p := httpx.TextProblem(fl.Q); p != "" {
			t.Fatalf("ParseList(%q, %q, %q): filter kept %q", rng, sort, filter, fl.Q)
		}
	})
}

// FuzzURLProblem: a URL CheckURL lets through has a path and query values
// free of control characters and invalid UTF-8.
func FuzzURLProblem(f *testing.F) {
	for _, s := range []string{"/api/profile", "/api/x?q=a%00", "/a%ff", "/a?b=%zz", "/a?%0d%0a=1", "/a?x=1;y=2",
		"/api/admin/users?filter=%7B%22q%22%3A%22%C3%A9%22%7D", "/%E2%80%AE?x=%C2%85"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.ParseRequestURI(raw)
		if err != nil {
			return
		}
		if err := httpx.URLProblem(u); err != nil {
			if core.ErrorCode(err) != core.EINVALID {
				t.Fatalf("URLProblem(%q): %v", raw, err)
			}
			return
		}
		if p := httpx.URLTextProblem(u.Path); p != "" {
			t.Fatalf("URLProblem(%q) let path %q through", raw, u.Path)
		}
		for k, vs := range u.Query() {
			for _, v := range append(vs, k) {
				if p := httpx.URLTextProblem(v); p != "" {
					t.Fatalf("URLProblem(%q) let %q through", raw, v)
				}
			}
		}
	})
}
