package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/httpx"
)

// rawJSON sends body as it is (the client's Do would re-encode it).
func rawJSON(t *testing.T, c *apptest.Client, method, path, body string) apptest.Response {
	t.Helper()
	req, err := http.NewRequest(method, c.URLFor(path), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return c.Send(req)
}

func errorBody(t *testing.T, res apptest.Response) httpx.ErrorDetail {
	t.Helper()
	var body httpx.ErrorBody
	if err := json.Unmarshal(res.Body, &body); err != nil || body.Error.Code == "" || body.Error.Message == "" {
		t.Fatalf("not the error shape (%v): %d %s", err, res.Status, res.Body)
	}
	return body.Error
}

// NUL and other control characters in JSON text used to reach PostgreSQL
// (which cannot store NUL) and come back as 500s.
func TestControlCharactersAreRefusedCentrally(t *testing.T) {
	srv := apptest.Start(t, nil)
	user, _ := srv.SignedIn(t, "membro@example.com")
	admin, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	visitor := srv.Client(t)

	cases := []struct {
		name   string
		c      *apptest.Client
		method string
		path   string
		body   string
		field  string
	}{
		{"profile first name", user, "PUT", "/api/profile", `{"first_name":"Ana\u0000","last_name":"Lima"}`, "first_name"},
		{"profile biography", user, "PUT", "/api/profile", `{"first_name":"Ana","last_name":"Lima","biography":"oi\u0000"}`, "biography"},
		{"profile specialty", user, "PUT", "/api/profile", `{"first_name":"Ana","last_name":"Lima","specialties":["\u0000"]}`, "specialties"},
		{"sign-up name", visitor, "POST", "/api/auth/signup", `{"first_name":"\u0000","last_name":"Lima","email":"nova@example.com","password":"Outra#Senha123"}`, "first_name"},
		{"login email", visitor, "POST", "/api/auth/login", `{"email":"membro@example.com\u0000","password":"x"}`, "email"},
		{"forgot password email", visitor, "POST", "/api/auth/password/forgot", `{"email":"a\u0000@example.com"}`, "email"},
		{"invalid UTF-8 login", visitor, "POST", "/api/auth/login", "{\"email\":\"\xff@example.com\",\"password\":\"x\"}", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := rawJSON(t, tc.c, tc.method, tc.path, tc.body)
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("%d %s, want 422", res.Status, res.Body)
			}
			e := errorBody(t, res)
			if tc.field != "" && e.Fields[tc.field] != httpx.MsgControlChars {
				t.Errorf("fields %v, want %s: %q", e.Fields, tc.field, httpx.MsgControlChars)
			}
		})
	}

	// The backoffice search arrives as JSON inside the query string: a NUL
	// escaped in that JSON and a raw NUL in the URL are both refused.
	for _, filter := range []string{`{"q":"ana\u0000"}`, "{\"q\":\"ana\x00\"}", `{"q":"\u001b"}`} {
		res := admin.Do("GET", "/api/admin/users?filter="+url.QueryEscape(filter), nil)
		if res.Status != http.StatusUnprocessableEntity {
			t.Errorf("filter %q: %d %s", filter, res.Status, res.Body)
			continue
		}
		if e := errorBody(t, res); e.Fields["filter"] == "" {
			t.Errorf("filter %q: fields %v", filter, e.Fields)
		}
	}
	// The same text without the control character works.
	if res := admin.Do("GET", "/api/admin/users?filter="+url.QueryEscape(`{"q":"ana"}`), nil); res.Status != http.StatusOK {
		t.Errorf("plain filter: %d %s", res.Status, res.Body)
	}
}

func TestOversizedAndUnknownJSON(t *testing.T) {
	srv := apptest.Start(t, nil)
	user, _ := srv.SignedIn(t, "membro@example.com")

	big := `{"first_name":"Ana","last_name":"Lima","biography":"` + strings.Repeat("a", 2<<20) + `"}`
	res := rawJSON(t, user, "PUT", "/api/profile", big)
	if res.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("2 MB body: %d %s, want 413", res.Status, res.Body)
	}
	if e := errorBody(t, res); e.Code != "too_large" || !strings.Contains(e.Message, "grande demais") {
		t.Errorf("2 MB body: %+v", e)
	}
	// Labelling the body multipart (a larger envelope) does not buy a JSON
	// handler more room.
	req, _ := http.NewRequest("PUT", user.URLFor("/api/profile"), strings.NewReader(big))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	if res := user.Send(req); res.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("multipart-labelled JSON: %d %s", res.Status, res.Body)
	}

	res = rawJSON(t, user, "PUT", "/api/profile", `{"first_name":"Ana","last_name":"Lima","role":"super_admin"}`)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("unknown field: %d %s", res.Status, res.Body)
	}
	if e := errorBody(t, res); e.Fields["role"] != "Campo desconhecido." {
		t.Errorf("unknown field: %+v", e)
	}
}

// Unsupported methods answer 405 with Allow (not 422), and HEAD works
// wherever GET does.
func TestMethodNotAllowedAndHead(t *testing.T) {
	srv := apptest.Start(t, nil)
	user, _ := srv.SignedIn(t, "membro@example.com")

	cases := []struct{ method, path, allow string }{
		{"PATCH", "/api/profile", "GET, HEAD, PUT"},
		{"DELETE", "/api/auth/login", "POST"},
		{"POST", "/api/specialties", "GET, HEAD"},
		{"PUT", "/api/auth/sessions/00000000-0000-0000-0000-000000000000", "DELETE"},
		{"HEAD", "/api/auth/login", "POST"},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, user.URLFor(tc.path), nil)
		res := user.Send(req)
		if res.Status != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d %s, want 405", tc.method, tc.path, res.Status, res.Body)
			continue
		}
		if got := res.Header.Get("Allow"); got != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, got, tc.allow)
		}
		if tc.method != "HEAD" {
			if e := errorBody(t, res); e.Code != "method_not_allowed" {
				t.Errorf("%s %s: code %q", tc.method, tc.path, e.Code)
			}
		}
	}

	for _, path := range []string{"/api/specialties", "/api/profile", "/healthz", "/api/openapi.json"} {
		get := user.Do("GET", path, nil)
		req, _ := http.NewRequest("HEAD", user.URLFor(path), nil)
		head := user.Send(req)
		if head.Status != http.StatusOK || get.Status != http.StatusOK {
			t.Errorf("HEAD %s: %d (GET %d)", path, head.Status, get.Status)
		}
		if len(head.Body) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: body %q, type %q vs %q", path, head.Body, head.Header.Get("Content-Type"), get.Header.Get("Content-Type"))
		}
	}
	// HEAD of a route the visitor may not GET is refused like the GET.
	req, _ := http.NewRequest("HEAD", srv.URL+"/api/profile", nil)
	if res := srv.Client(t).Send(req); res.Status != http.StatusUnauthorized {
		t.Errorf("visitor HEAD /api/profile: %d", res.Status)
	}
}

// Personal data must not be kept by browser or proxy caches; public data
// opts in to caching.
func TestAPIResponsesAreNotStoredByDefault(t *testing.T) {
	srv := apptest.Start(t, nil)
	user, userID := srv.SignedIn(t, "membro@example.com")
	for _, path := range []string{"/api/profile", "/api/auth/sessions", "/api/auth/session", "/api/profile/completeness", "/api/points/balance", "/api/does-not-exist"} {
		if got := user.Do("GET", path, nil).Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", path, got)
		}
	}
	if got := user.Do("PUT", "/api/profile", map[string]any{"first_name": "Ana"}).Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("PUT /api/profile error: Cache-Control %q", got)
	}
	if got := user.Do("GET", "/api/specialties", nil).Header.Get("Cache-Control"); got != "public, max-age=3600" {
		t.Errorf("specialties opt in to caching: %q", got)
	}
	_ = userID
}

// HEAD of the event stream answers its headers and ends: the streaming
// handler, reached through GET's route, must not keep the connection, which
// the client reuses at once for its next request.
func TestHeadOfEventStreamEnds(t *testing.T) {
	srv := apptest.Start(t, nil)
	user, _ := srv.SignedIn(t, "membro@example.com")
	user.HTTP.Timeout = 30 * time.Second
	for range 3 {
		req, _ := http.NewRequest("HEAD", user.URLFor("/api/events"), nil)
		res, err := user.HTTP.Do(req)
		if err != nil {
			t.Fatalf("HEAD /api/events: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("HEAD /api/events: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		// The same keep-alive connection serves the next request.
		if res := user.Do("GET", "/api/profile", nil); res.Status != http.StatusOK {
			t.Fatalf("GET after HEAD: %d", res.Status)
		}
	}
}
