package apptest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/auth"
)

// TestPassword is the password of every account SignedIn creates; it passes
// the password rules for any email whose local part is not in it.
const TestPassword = "Teste#Senha123"

// SignedIn creates a confirmed account for email (or reuses it, adding
// roles) with the given extra roles from user_roles ("super_admin",
// "editor"), opens a session for it and returns a client carrying that
// session's cookies, plus the user's id. Every role source registered on the
// auth service applies as for any user. Email-confirmed hooks are NOT run;
// call s.App.Auth.RunEmailConfirmedHooks when a test needs them.
func (s *Server) SignedIn(t testing.TB, email string, roles ...string) (*Client, string) {
	t.Helper()
	ctx := context.Background()
	first, _, _ := strings.Cut(email, "@")
	userID, _, err := s.App.Auth.CreateConfirmedUser(ctx, auth.NewUser{
		Email: email, Password: TestPassword, FirstName: first, LastName: "Teste", Roles: roles,
	})
	if err != nil {
		t.Fatalf("apptest: create %s: %v", email, err)
	}
	// Verified: staff roles need a session that passed two-step
	// verification (SignedInUnverified signs in without it).
	tokens, err := s.App.Auth.StartVerifiedSession(ctx, userID, "apptest")
	if err != nil {
		t.Fatalf("apptest: session for %s: %v", email, err)
	}
	return s.ClientWithSession(t, tokens), userID
}

// SignedInUnverified is SignedIn with a session that has not passed
// two-step verification (staff roles are held back from it).
func (s *Server) SignedInUnverified(t testing.TB, email string, roles ...string) (*Client, string) {
	t.Helper()
	_, userID := s.SignedIn(t, email, roles...)
	tokens, err := s.App.Auth.StartSession(context.Background(), userID, "apptest")
	if err != nil {
		t.Fatalf("apptest: session for %s: %v", email, err)
	}
	return s.ClientWithSession(t, tokens), userID
}

// ClientWithSession is a client carrying tokens' session cookies.
func (s *Server) ClientWithSession(t testing.TB, tokens auth.Tokens) *Client {
	t.Helper()
	c := s.Client(t)
	u, _ := url.Parse(s.URL)
	// The jar only returns a cookie for the path it was set with: the
	// refresh cookie is scoped to /api/auth as the server sets it.
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{
		{Name: auth.CookieAccess, Value: tokens.Access, Path: "/"},
		{Name: auth.CookieCSRF, Value: tokens.CSRF, Path: "/"},
	})
	c.HTTP.Jar.SetCookies(u.JoinPath("/api/auth/"), []*http.Cookie{
		{Name: auth.CookieRefresh, Value: tokens.Refresh, Path: "/api/auth"},
	})
	return c
}
