package pluginhost_test

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/pluginhost"
)

// TestPremiumToolThroughTheHTTPAPI runs the whole path: real sign-in, roles
// from the subscription state, casbin, the plugin process.
func TestPremiumToolThroughTheHTTPAPI(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": install(t, "fixture", "fixture-premium")})
	const premiumOnly = "Esta ferramenta é exclusiva para assinantes Premium. Assine o VetClube Premium para usá-la."

	locked := func(c *apptest.Client) bool {
		t.Helper()
		var list struct{ Tools []pluginhost.Tool }
		c.Do("GET", "/api/tools", nil).JSON(t, &list)
		for _, tool := range list.Tools {
			if tool.ID == "fixture-premium" {
				if !tool.Premium {
					t.Error("premium tool without its badge")
				}
				return tool.Locked
			}
		}
		t.Fatal("premium tool not listed")
		return false
	}

	free, _ := srv.SignedIn(t, "livre@exemplo.com.br")
	if !locked(free) {
		t.Error("premium tool unlocked for a free user")
	}
	if res := free.Do("GET", "/api/tools/fixture-premium/echo", nil); res.Status != 403 || res.ErrorMessage() != premiumOnly {
		t.Errorf("free user: %d %s", res.Status, res.Body)
	}
	if res := free.Do("GET", "/api/tools/fixture/echo", nil); res.Status != 200 {
		t.Errorf("free user on a free tool: %d %s", res.Status, res.Body)
	}

	for _, sub := range []struct{ email, status, tier string }{
		{"assinante@exemplo.com.br", "active", "premium_monthly"},
		{"teste@exemplo.com.br", "trial", ""},
	} {
		c, userID := srv.SignedIn(t, sub.email)
		var tier any
		if sub.tier != "" {
			tier = sub.tier
		}
		if _, err := srv.App.Pool.Exec(context.Background(), `
			INSERT INTO subscribers (user_id, subscription_status, subscription_tier, trial_ends_at)
			VALUES ($1, $2, $3, now() + interval '7 days')`, userID, sub.status, tier); err != nil {
			t.Fatal(err)
		}
		// New roles come with the next access token.
		if res := c.Do("POST", "/api/auth/refresh", nil); res.Status != 200 {
			t.Fatalf("refresh: %d %s", res.Status, res.Body)
		}
		if locked(c) {
			t.Errorf("%s: premium tool still locked", sub.status)
		}
		var echo struct{ Subscription string }
		res := c.Do("GET", "/api/tools/fixture-premium/echo", nil)
		res.JSON(t, &echo)
		if res.Status != 200 {
			t.Errorf("%s subscriber: %d %s", sub.status, res.Status, res.Body)
		}
		want := map[string]string{"active": "premium", "trial": "trial"}[sub.status]
		if echo.Subscription != want {
			t.Errorf("plugin saw subscription %q, want %q", echo.Subscription, want)
		}
	}
}
