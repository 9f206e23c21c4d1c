package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
)

// premiumLink waits for the mailed /register-premium confirmation link.
func premiumLink(t *testing.T, srv *apptest.Server, email string) *url.URL {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := srv.Client(t).Do("GET", "/api/dev/mailbox?to="+url.QueryEscape(email), nil)
		var box mailboxBody
		res.JSON(t, &box)
		for _, m := range box.Messages {
			for _, l := range m.Links {
				if u, err := url.Parse(l); err == nil && u.Path == "/confirmar-email" && u.Query().Get("token") != "" {
					return u
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no confirmation link for %s in %s", email, res.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A /register-premium sign-up (intent premium_monthly) gets a link that
// continues to the checkout and whose confirmation opens a session; a plain
// sign-up's link does neither; an unknown intent is refused.
func TestHTTPPremiumSignupLinkSignsIn(t *testing.T) {
	srv := apptest.Start(t, nil)
	c := srv.Client(t)
	body := func(email, intent string) map[string]string {
		return map[string]string{"first_name": "Caio", "last_name": "Reis", "email": email, "password": goodPass, "intent": intent}
	}

	res := c.Do("POST", "/api/auth/signup", body("x@example.com", "vip_forever"))
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), `"intent"`) {
		t.Fatalf("unknown intent: %d %s", res.Status, res.Body)
	}

	if res := c.Do("POST", "/api/auth/signup", body("caio@example.com", auth.IntentPremiumMonthly)); res.Status != http.StatusCreated {
		t.Fatalf("premium signup: %d %s", res.Status, res.Body)
	}
	link := premiumLink(t, srv, "caio@example.com")
	if link.Query().Get("continuar") != "assinatura" {
		t.Fatalf("premium link %s does not continue to the checkout", link)
	}
	fresh := srv.Client(t)
	res = fresh.Do("POST", "/api/auth/confirm", map[string]string{"token": link.Query().Get("token")})
	var out struct {
		Message  string `json:"message"`
		SignedIn bool   `json:"signed_in"`
	}
	res.JSON(t, &out)
	if res.Status != http.StatusOK || out.Message != auth.MsgConfirmOK || !out.SignedIn || cookieFrom(res, auth.CookieAccess) == nil {
		t.Fatalf("premium confirm: %d %s", res.Status, res.Body)
	}
	if res := fresh.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "caio@example.com") {
		t.Fatalf("session after the premium link: %d %s", res.Status, res.Body)
	}
	// Single use, like every confirmation link.
	if res := srv.Client(t).Do("POST", "/api/auth/confirm", map[string]string{"token": link.Query().Get("token")}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("second use: %d %s", res.Status, res.Body)
	}

	// A plain sign-up: the link confirms and nothing more.
	if res := c.Do("POST", "/api/auth/signup", body("dora@example.com", "")); res.Status != http.StatusCreated {
		t.Fatalf("plain signup: %d %s", res.Status, res.Body)
	}
	plain := premiumLink(t, srv, "dora@example.com")
	if plain.Query().Has("continuar") {
		t.Fatalf("plain link %s continues to the checkout", plain)
	}
	other := srv.Client(t)
	res = other.Do("POST", "/api/auth/confirm", map[string]string{"token": plain.Query().Get("token")})
	if res.Status != http.StatusOK || strings.Contains(string(res.Body), "signed_in") || cookieFrom(res, auth.CookieAccess) != nil {
		t.Fatalf("plain confirm: %d %s", res.Status, res.Body)
	}
}
