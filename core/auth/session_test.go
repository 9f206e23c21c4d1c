package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
)

func TestSignedInHelperAndAuthenticator(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, id := signedIn(t, srv, "Admin.Teste@Example.com", "super_admin")
	res := c.Do("GET", "/api/auth/session", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("session: %d %s", res.Status, res.Body)
	}
	var body struct{ User auth.SessionUser }
	res.JSON(t, &body)
	if body.User.ID != id || body.User.Email != "admin.teste@example.com" || body.User.Provider != "email" {
		t.Errorf("session user %+v, want id %s and the normalised email", body.User, id)
	}
	if !slices.Equal(body.User.Roles, []string{"user", "super_admin"}) {
		t.Errorf("roles %v", body.User.Roles)
	}

	anon := srv.Client(t).Do("GET", "/api/auth/session", nil)
	if anon.Status != http.StatusUnauthorized || anon.ErrorMessage() != "Usuário não autenticado" {
		t.Errorf("anonymous session: %d %q", anon.Status, anon.ErrorMessage())
	}
}

// GET /api/auth/session answers from the principal Authenticate resolved:
// served from the principal cache (apptest runs the invalidation listener)
// or, without it, reading only the account's provider and creation time, it
// shows the same user SessionUser loads from the database.
func TestSessionAnswerFromThePrincipalMatchesTheDatabase(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, id := signedIn(t, srv, "cache.sessao@example.com", "editor")
	want, err := srv.App.Auth.SessionUser(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, res apptest.Response) {
		t.Helper()
		if res.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", name, res.Status, res.Body)
		}
		var body struct{ User auth.SessionUser }
		res.JSON(t, &body)
		got := body.User
		if got.ID != want.ID || got.Email != want.Email || got.Provider != want.Provider ||
			!got.CreatedAt.Equal(want.CreatedAt) || !slices.Equal(got.Roles, want.Roles) {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	check("first read (fills the cache)", c.Do("GET", "/api/auth/session", nil))
	check("cached read", c.Do("GET", "/api/auth/session", nil))

	// No listener: nothing is cached and the handler reads the account.
	f := newFixture(t, nil)
	uid, _, err := f.svc.CreateConfirmedUser(context.Background(), auth.NewUser{Email: "sem.cache@example.com", Password: goodPass})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := f.svc.StartSession(context.Background(), uid, "test")
	if err != nil {
		t.Fatal(err)
	}
	p, ok, err := f.svc.PrincipalForAccessToken(context.Background(), tok.Access)
	if err != nil || !ok {
		t.Fatalf("principal: %v %v", ok, err)
	}
	if want, err = f.svc.SessionUser(context.Background(), uid); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/api/auth/session", nil)
	rec := httptest.NewRecorder()
	auth.HandleSession(nil, f.svc).ServeHTTP(rec, req.WithContext(core.WithPrincipal(req.Context(), p)))
	check("uncached read", apptest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()})
}
