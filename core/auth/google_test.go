package auth_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/auth/devoidc"
)

var carla = &devoidc.User{Subject: "google-sub-carla", Email: "Carla.Vet@Gmail.com", EmailVerified: true,
	GivenName: "Carla", FamilyName: "Mendes", Picture: "https://example.com/carla.jpg"}

func googleServer(t *testing.T, user *devoidc.User) (*apptest.Server, *devoidc.Provider) {
	t.Helper()
	p, err := devoidc.Start("127.0.0.1:0", user)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Shutdown() })
	srv := apptest.Start(t, map[string]string{
		"GOOGLE_CLIENT_ID":     p.ClientID,
		"GOOGLE_CLIENT_SECRET": p.ClientSecret,
		"GOOGLE_ISSUER":        p.Issuer(),
	})
	return srv, p
}

// googleFlow walks the browser through start → provider → callback. Between
// the provider's redirect and the callback, beforeCallback may act (queue a
// token-endpoint error). It returns the callback's response.
func googleFlow(t *testing.T, srv *apptest.Server, c *apptest.Client, redirect string, beforeCallback func()) apptest.Response {
	t.Helper()
	start := c.Do("GET", "/api/auth/google/start?redirect="+url.QueryEscape(redirect), nil)
	if start.Status != http.StatusFound {
		t.Fatalf("start: %d %s", start.Status, start.Body)
	}
	authURL, err := url.Parse(start.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	q := authURL.Query()
	for k, want := range map[string]string{"scope": "openid email profile", "prompt": "select_account", "access_type": "offline",
		"code_challenge_method": "S256", "response_type": "code", "redirect_uri": srv.URL + "/api/auth/google/callback"} {
		if q.Get(k) != want {
			t.Errorf("authorize %s=%q, want %q", k, q.Get(k), want)
		}
	}
	if q.Get("state") == "" || q.Get("nonce") == "" || q.Get("code_challenge") == "" {
		t.Errorf("authorize URL lacks state, nonce or PKCE challenge: %s", authURL)
	}
	res, err := c.HTTP.Get(authURL.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("provider answered %d", res.StatusCode)
	}
	back := res.Header.Get("Location")
	if !strings.HasPrefix(back, srv.URL+"/api/auth/google/callback?") {
		t.Fatalf("provider redirected to %s", back)
	}
	if beforeCallback != nil {
		beforeCallback()
	}
	req, _ := http.NewRequest("GET", back, nil)
	return c.Send(req)
}

func loginError(t *testing.T, res apptest.Response) (code, message string) {
	t.Helper()
	if res.Status != http.StatusFound {
		t.Fatalf("callback %d, want a redirect", res.Status)
	}
	u, err := url.Parse(res.Header.Get("Location"))
	if err != nil || u.Path != "/login" {
		t.Fatalf("callback redirected to %s, want /login", res.Header.Get("Location"))
	}
	return u.Query().Get("google_error"), u.Query().Get("message")
}

func TestGoogleNewAccount(t *testing.T) {
	srv, _ := googleServer(t, carla)
	var hooks atomic.Int32
	srv.App.Auth.AddEmailConfirmedHook(func(context.Context, string) error { hooks.Add(1); return nil })

	if res := srv.Client(t).Do("GET", "/api/auth/providers", nil); strings.TrimSpace(string(res.Body)) != `{"google":true}` {
		t.Errorf("providers %s", res.Body)
	}
	c := srv.Client(t)
	res := googleFlow(t, srv, c, "/comunidade?aba=1", nil)
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/comunidade?aba=1" {
		t.Fatalf("callback: %d → %s", res.Status, res.Header.Get("Location"))
	}
	if cookieFrom(res, auth.CookieAccess) == nil || cookieFrom(res, auth.CookieRefresh) == nil || cookieFrom(res, auth.CookieCSRF) == nil {
		t.Fatal("no session cookies")
	}
	s := c.Do("GET", "/api/auth/session", nil)
	var body struct{ User auth.SessionUser }
	s.JSON(t, &body)
	if body.User.Email != "carla.vet@gmail.com" || body.User.Provider != "google" {
		t.Fatalf("session %s", s.Body)
	}
	var given, family, picture string
	var confirmed bool
	err := srv.App.Pool.QueryRow(t.Context(), `SELECT metadata->>'given_name', metadata->>'family_name', metadata->>'picture',
		email_confirmed_at IS NOT NULL FROM users WHERE id = $1`, body.User.ID).Scan(&given, &family, &picture, &confirmed)
	if err != nil || given != "Carla" || family != "Mendes" || picture != carla.Picture || !confirmed {
		t.Errorf("metadata %q %q %q confirmed=%v (%v)", given, family, picture, confirmed, err)
	}
	if hooks.Load() != 1 {
		t.Errorf("email-confirmed hook ran %d times", hooks.Load())
	}
	// The profile is auto-created from Google's claims (core/profiles).
	var profile struct {
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		AvatarURL string `json:"avatar_url"`
		Email     string `json:"email"`
	}
	pr := c.Do("GET", "/api/profile", nil)
	pr.JSON(t, &profile)
	if pr.Status != http.StatusOK || profile.FirstName != "Carla" || profile.LastName != "Mendes" || profile.AvatarURL != carla.Picture {
		t.Errorf("profile %d %s", pr.Status, pr.Body)
	}

	// Signing in again finds the same account through the linked identity.
	c2 := srv.Client(t)
	if res := googleFlow(t, srv, c2, "/", nil); res.Header.Get("Location") != "/" {
		t.Fatalf("second sign-in → %s", res.Header.Get("Location"))
	}
	var users, identities int
	_ = srv.App.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM user_identities)`).Scan(&users, &identities)
	if users != 1 || identities != 1 || hooks.Load() != 1 {
		t.Errorf("%d users, %d identities, %d hook runs after a second sign-in", users, identities, hooks.Load())
	}
}

func TestGoogleLinksExistingAccountByVerifiedEmail(t *testing.T) {
	srv, _ := googleServer(t, carla)
	id, _, err := srv.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: "carla.vet@gmail.com", Password: goodPass, FirstName: "Carla F."})
	if err != nil {
		t.Fatal(err)
	}
	c := srv.Client(t)
	googleFlow(t, srv, c, "/", nil)
	var body struct{ User auth.SessionUser }
	c.Do("GET", "/api/auth/session", nil).JSON(t, &body)
	if body.User.ID != id || body.User.Provider != "email" {
		t.Fatalf("signed in as %+v, want the existing account %s", body.User, id)
	}
	var first, given string
	_ = srv.App.Pool.QueryRow(t.Context(), `SELECT metadata->>'first_name', metadata->>'given_name' FROM users WHERE id = $1`, id).Scan(&first, &given)
	if first != "Carla F." || given != "Carla" {
		t.Errorf("metadata first_name %q given_name %q: sign-up data must stay, Google's added", first, given)
	}
	// The password still works for a confirmed account.
	if res := srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": "carla.vet@gmail.com", "password": goodPass}); res.Status != http.StatusOK {
		t.Errorf("password login after linking: %d", res.Status)
	}
}

func TestGoogleConfirmsUnconfirmedAccountAndDropsItsPassword(t *testing.T) {
	srv, _ := googleServer(t, carla)
	res := srv.Client(t).Do("POST", "/api/auth/signup", map[string]string{"first_name": "X", "last_name": "Y", "email": "carla.vet@gmail.com", "password": goodPass})
	if res.Status != http.StatusCreated {
		t.Fatal(res.Status)
	}
	googleFlow(t, srv, srv.Client(t), "/", nil)
	var confirmed, hasPassword bool
	_ = srv.App.Pool.QueryRow(t.Context(), `SELECT email_confirmed_at IS NOT NULL, password_hash IS NOT NULL FROM users`).Scan(&confirmed, &hasPassword)
	if !confirmed || hasPassword {
		t.Errorf("confirmed=%v hasPassword=%v: whoever set that password never proved the address", confirmed, hasPassword)
	}
}

func TestGoogleRefusesUnverifiedEmail(t *testing.T) {
	unverified := *carla
	unverified.EmailVerified = false
	srv, _ := googleServer(t, &unverified)
	if _, _, err := srv.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: "carla.vet@gmail.com", Password: goodPass}); err != nil {
		t.Fatal(err)
	}
	code, msg := loginError(t, googleFlow(t, srv, srv.Client(t), "/", nil))
	if code != "email_not_verified" || !strings.HasPrefix(msg, "Erro ao fazer login com Google: ") {
		t.Errorf("unverified email: %s %q", code, msg)
	}
	var identities int
	_ = srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM user_identities`).Scan(&identities)
	if identities != 0 {
		t.Error("an unverified Google email was linked to an account")
	}
}

func TestGoogleErrorMapping(t *testing.T) {
	srv, p := googleServer(t, carla)
	cases := []struct {
		name, code, description string
		atTokenEndpoint         bool
		wantCode, wantMessage   string
	}{
		{"user cancels", "access_denied", "", false, "access_denied", "Acesso negado pelo usuário."},
		{"client not allowed", "unauthorized_client", "", false, "unauthorized_client", "Configuração OAuth incorreta..."},
		{"redirect not registered", "redirect_uri_mismatch", "bad uri", false, "redirect_uri_mismatch", "URL de redirecionamento não autorizada..."},
		{"other with description", "invalid_scope", "Escopo não permitido", false, "invalid_scope", "Erro ao fazer login com Google: Escopo não permitido"},
		{"other without description", "temporarily_unavailable", "", false, "temporarily_unavailable", "Erro ao fazer login com Google: temporarily_unavailable"},
		{"token endpoint refuses the client", "unauthorized_client", "client disabled", true, "unauthorized_client", "Configuração OAuth incorreta..."},
		{"token endpoint other error", "invalid_grant", "Código expirado", true, "invalid_grant", "Erro ao fazer login com Google: Código expirado"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before func()
			if tc.atTokenEndpoint {
				before = func() {
					p.QueueError(&mockoidc.ServerError{Code: http.StatusBadRequest, Error: tc.code, Description: tc.description})
				}
			} else {
				p.FailNextAuthorize(tc.code, tc.description)
			}
			c := srv.Client(t)
			code, msg := loginError(t, googleFlow(t, srv, c, "/", before))
			if code != tc.wantCode || msg != tc.wantMessage {
				t.Errorf("got %s %q, want %s %q", code, msg, tc.wantCode, tc.wantMessage)
			}
			if res := c.Do("GET", "/api/auth/session", nil); res.Status != http.StatusUnauthorized {
				t.Error("a failed Google sign-in left a session")
			}
		})
	}

	t.Run("callback from another browser is unexpected", func(t *testing.T) {
		c := srv.Client(t)
		start := c.Do("GET", "/api/auth/google/start", nil)
		res, err := c.HTTP.Get(start.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		// An attacker's browser, without the state cookie, replays the callback.
		req, _ := http.NewRequest("GET", res.Header.Get("Location"), nil)
		code, msg := loginError(t, srv.Client(t).Send(req))
		if code != "unexpected" || msg != "Erro inesperado ao fazer login com Google" {
			t.Errorf("got %s %q", code, msg)
		}
	})

	t.Run("replayed callback is unexpected", func(t *testing.T) {
		c := srv.Client(t)
		start := c.Do("GET", "/api/auth/google/start", nil)
		res, _ := c.HTTP.Get(start.Header.Get("Location"))
		res.Body.Close()
		back := res.Header.Get("Location")
		req, _ := http.NewRequest("GET", back, nil)
		if first := c.Send(req); first.Header.Get("Location") != "/" {
			t.Fatalf("first callback → %s", first.Header.Get("Location"))
		}
		u, _ := url.Parse(srv.URL)
		c.HTTP.Jar.SetCookies(u.JoinPath("/api/auth/google/"), []*http.Cookie{{Name: "vc_oauth_state", Value: mustQuery(t, back, "state"), Path: "/api/auth/google"}})
		req, _ = http.NewRequest("GET", back, nil)
		if code, _ := loginError(t, c.Send(req)); code != "unexpected" {
			t.Errorf("replay gave %s", code)
		}
	})

	t.Run("redirect stays on this site", func(t *testing.T) {
		for _, evil := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example"} {
			res := googleFlow(t, srv, srv.Client(t), evil, nil)
			if res.Header.Get("Location") != "/" {
				t.Errorf("redirect %q → %s", evil, res.Header.Get("Location"))
			}
		}
	})
}

func mustQuery(t *testing.T, raw, key string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get(key)
}

// The reported open redirect: /api/auth/google/start?redirect=%2F..%2F%5Cevil.example
// used to end at Location: /\evil.example.
func TestGoogleRedirectStaysOnSite(t *testing.T) {
	srv, _ := googleServer(t, carla)
	for redirect, want := range map[string]string{
		"/../\\evil.example": "/",
		"/%5Cevil.example":   "/",
		"//evil.example":     "/",
		"/cursos//aula":      "/cursos//aula",
	} {
		res := googleFlow(t, srv, srv.Client(t), redirect, nil)
		if res.Status != http.StatusFound || res.Header.Get("Location") != want {
			t.Errorf("redirect %q: %d → %q, want %q", redirect, res.Status, res.Header.Get("Location"), want)
		}
	}
}
