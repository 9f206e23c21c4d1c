package referrals_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/referrals"
)

// Through the whole app: A's dashboard gives the code; a visitor's clicks
// count once per session; sign-up with the code answers the spec's message
// and binds the referee; an unknown code answers the other message; only
// super admins reach the backoffice routes.
func TestReferralsThroughTheAPI(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := context.Background()
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	res := ana.Do("GET", "/api/referrals/me", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("me: %d %s", res.Status, res.Body)
	}
	var d referrals.Dashboard
	res.JSON(t, &d)
	if d.Code == "" || d.Link == "" || d.Settings.ReferrerPoints != 500 || d.Settings.HoldDays != 14 {
		t.Fatalf("dashboard %+v", d)
	}

	if r := ana.Do("GET", "/api/referrals/me/qr.svg", nil); r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("qr: %d %q", r.Status, r.Header.Get("Content-Type"))
	}

	visitor := srv.Client(t)
	for range 5 {
		r := visitor.Do("POST", "/api/referrals/click", map[string]string{"referral_code": d.Code, "session_id": "sessao-visitante-1"})
		if r.Status != http.StatusOK {
			t.Fatalf("click: %d %s", r.Status, r.Body)
		}
	}
	if r := visitor.Do("POST", "/api/referrals/click", map[string]string{"referral_code": "nope", "session_id": "sessao-visitante-1"}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad code click: %d", r.Status)
	}

	signup := func(email, code string) string {
		r := srv.Client(t).Do("POST", "/api/auth/signup", map[string]string{"first_name": "Bia", "last_name": "Lima",
			"email": email, "password": apptest.TestPassword, "referral_code": code, "device_id": "device-bia-12345"})
		if r.Status != http.StatusCreated {
			t.Fatalf("signup %s: %d %s", email, r.Status, r.Body)
		}
		var m struct {
			Message string `json:"message"`
		}
		r.JSON(t, &m)
		return m.Message
	}
	if msg := signup("bia@example.com", d.Code); msg != referrals.MsgSignupReferralOK {
		t.Fatalf("signup with a code: %q", msg)
	}
	if msg := signup("caio@example.com", "ZZZZZZZZ"); msg != referrals.MsgSignupReferralFailed {
		t.Fatalf("signup with an unknown code: %q", msg)
	}
	var referrer, legacy string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT r.referrer_id, u.referral_code FROM referrals r JOIN users u ON u.id = r.referee_id WHERE u.email = 'bia@example.com'`).
		Scan(&referrer, &legacy); err != nil || referrer != anaID || legacy != d.Code {
		t.Fatalf("binding %q legacy %q err %v", referrer, legacy, err)
	}

	res = ana.Do("GET", "/api/referrals/me", nil)
	res.JSON(t, &d)
	if d.Totals.Clicks != 1 || d.Totals.Signups != 1 || len(d.Referrals) != 1 || d.Referrals[0].Name != "Bia L." {
		t.Fatalf("after sign-up: %+v", d)
	}

	if r := ana.Do("GET", "/api/admin/referrals", nil); r.Status != http.StatusForbidden {
		t.Fatalf("member on the backoffice list: %d", r.Status)
	}
	admin, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	r := admin.Do("GET", "/api/admin/referrals?filter="+`{"verdict":"approved"}`, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Range") != "referrals 0-0/1" {
		t.Fatalf("admin list: %d %q %s", r.Status, r.Header.Get("Content-Range"), r.Body)
	}
	if r := admin.Do("PUT", "/api/admin/referral-settings", map[string]int{"referrer_points": -1}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad settings: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("GET", "/api/admin/referral-stats", nil); r.Status != http.StatusOK {
		t.Fatalf("stats: %d %s", r.Status, r.Body)
	}
}
