package auth_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
)

// signedIn is srv.SignedIn with the session's real CSRF cookie, whatever
// value the helper puts there.
func signedIn(t *testing.T, srv *apptest.Server, email string, roles ...string) (*apptest.Client, string) {
	t.Helper()
	c, id := srv.SignedIn(t, email, roles...)
	u, _ := url.Parse(srv.URL)
	var access string
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == auth.CookieAccess {
			access = ck.Value
		}
	}
	p, ok, err := srv.App.Auth.PrincipalForAccessToken(t.Context(), access)
	if err != nil || !ok {
		t.Fatalf("signed-in client has no session (%v)", err)
	}
	csrf, err := srv.App.Auth.CSRFToken(t.Context(), p.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieCSRF, Value: csrf, Path: "/"}})
	return c, id
}

func csrfOf(t *testing.T, srv *apptest.Server, c *apptest.Client) string {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == auth.CookieCSRF {
			return ck.Value
		}
	}
	t.Fatal("no CSRF cookie")
	return ""
}

// Any matching cookie+header pair used to pass: the token is now the
// session's own (an HMAC of its id under a per-database secret).
func TestHTTPCSRFBoundToSession(t *testing.T) {
	srv := apptest.Start(t, nil)
	for _, email := range []string{"um@example.com", "dois@example.com"} {
		if _, _, err := srv.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: email, Password: goodPass}); err != nil {
			t.Fatal(err)
		}
	}
	login := func(email string) *apptest.Client {
		c := srv.Client(t)
		if res := c.Do("POST", "/api/auth/login", map[string]string{"email": email, "password": goodPass}); res.Status != http.StatusOK {
			t.Fatalf("login %s: %d %s", email, res.Status, res.Body)
		}
		return c
	}
	a, b, a2 := login("um@example.com"), login("dois@example.com"), login("um@example.com")
	tokA, tokB, tokA2 := csrfOf(t, srv, a), csrfOf(t, srv, b), csrfOf(t, srv, a2)
	if tokA == tokB || tokA == tokA2 {
		t.Fatalf("sessions share a CSRF token: %q %q %q", tokA, tokB, tokA2)
	}

	// with sends a write from c with the CSRF cookie and header both set to token.
	with := func(c *apptest.Client, path, token string) int {
		u, _ := url.Parse(srv.URL)
		c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieCSRF, Value: token, Path: "/"}})
		req, _ := http.NewRequest("POST", srv.URL+path, nil)
		return c.Send(req).Status
	}
	// Another user's token, the same user's other session's token, and a
	// made-up pair are all refused, on the access cookie and on refresh.
	for _, forged := range []string{tokB, tokA2, "forged", ""} {
		if st := with(a, "/api/auth/logout", forged); st != http.StatusForbidden {
			t.Errorf("logout with token %q: %d", forged, st)
		}
		if st := with(a, "/api/auth/refresh", forged); st != http.StatusForbidden {
			t.Errorf("refresh with token %q: %d", forged, st)
		}
	}
	if res := a.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK {
		t.Fatalf("refused writes ended the session: %d", res.Status)
	}
	// The right one passes, and stays the session's token after a refresh.
	if st := with(a, "/api/auth/refresh", tokA); st != http.StatusOK {
		t.Fatalf("refresh with the session's token: %d", st)
	}
	if got := csrfOf(t, srv, a); got != tokA {
		t.Errorf("CSRF token changed on refresh: %q → %q", tokA, got)
	}
	if st := with(a, "/api/auth/logout", tokA); st != http.StatusOK {
		t.Errorf("logout with the session's token: %d", st)
	}

	// Every instance sharing the database derives the same token.
	other, err := auth.New(srv.App.Pool, nil, auth.Options{PublicURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := srv.App.Auth.StartSession(t.Context(), mustUserID(t, srv, "dois@example.com"), "ua")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.CSRFToken(t.Context(), tokens.SessionID); err != nil || got != tokens.CSRF {
		t.Errorf("second instance derives %q, first %q (%v)", got, tokens.CSRF, err)
	}
}

func mustUserID(t *testing.T, srv *apptest.Server, email string) string {
	t.Helper()
	var id string
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT id FROM users WHERE email = $1`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A browser whose CSRF cookie is not its session's (a session opened before
// tokens were bound to sessions) gets the right one back from the session
// read the web app makes on load, instead of being refused every write.
func TestHTTPSessionReadRepairsAStaleCSRFCookie(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, _ := signedIn(t, srv, "antiga@example.com")
	right := csrfOf(t, srv, c)
	u, _ := url.Parse(srv.URL)
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieCSRF, Value: "random-old-value", Path: "/"}})
	if res := c.Do("POST", "/api/auth/logout", nil); res.Status != http.StatusForbidden {
		t.Fatalf("write with the stale token: %d", res.Status)
	}
	res := c.Do("GET", "/api/auth/session", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("session: %d %s", res.Status, res.Body)
	}
	if ck := cookieFrom(res, auth.CookieCSRF); ck == nil || ck.Value != right {
		t.Fatalf("CSRF cookie not repaired: %+v", ck)
	}
	if res := c.Do("GET", "/api/auth/session", nil); cookieFrom(res, auth.CookieCSRF) != nil {
		t.Error("a right CSRF cookie is set again on every read")
	}
	if res := c.Do("POST", "/api/auth/logout", nil); res.Status != http.StatusOK {
		t.Errorf("write after the repair: %d", res.Status)
	}
}
