package auth_test

import (
	"net/http"
	"slices"
	"testing"

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
