package subscriptions_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// Confirming an email starts the trial (TRIAL_DAYS), the principal gains the
// "trial" role, and the subscription and limit routes answer as the product rules say.
func TestTrialStartsOnConfirmationOverHTTP(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"TRIAL_DAYS": "7", "TRIAL_LIMITS": "patients=2"})
	if res := srv.Client(t).Do("GET", "/api/subscription/limits/patients", nil); res.Status != http.StatusOK {
		t.Fatalf("visitor limits: %d", res.Status)
	} else {
		var c subscriptions.LimitCheck
		res.JSON(t, &c)
		if c.Status != subscriptions.LimitNoUser || c.Allowed {
			t.Fatalf("visitor limits: %+v", c)
		}
	}
	c, userID := srv.SignedIn(t, "trial@example.com")
	var v subscriptions.View
	c.Do("GET", "/api/subscription", nil).JSON(t, &v)
	if v.TrialActive || v.IsPremium || v.Status != nil {
		t.Fatalf("before confirmation hooks: %+v", v)
	}
	srv.App.Auth.RunEmailConfirmedHooks(context.Background(), userID)
	c.Do("GET", "/api/subscription", nil).JSON(t, &v)
	if !v.TrialActive || v.TrialExpired || v.DaysLeft != 7 || v.Status == nil || *v.Status != "trial" {
		t.Fatalf("after confirmation: %+v", v)
	}
	roles, err := srv.App.Engagement.Subscriptions.Roles(context.Background(), userID)
	if err != nil || !slices.Contains(roles, core.RoleTrial) {
		t.Fatalf("roles %v err %v", roles, err)
	}
	var session struct {
		User struct {
			Roles []string `json:"roles"`
		} `json:"user"`
	}
	c.Do("GET", "/api/auth/session", nil).JSON(t, &session)
	if !slices.Contains(session.User.Roles, core.RoleTrial) {
		t.Fatalf("session roles %v, want trial among them", session.User.Roles)
	}
	var lc subscriptions.LimitCheck
	c.Do("GET", "/api/subscription/limits/patients", nil).JSON(t, &lc)
	if !lc.Allowed || lc.Limit != 2 || lc.Current != 0 || lc.Status != subscriptions.LimitWithin {
		t.Fatalf("limits: %+v", lc)
	}
	c.Do("GET", "/api/subscription/limits/foguetes", nil).JSON(t, &lc)
	if lc.Allowed || lc.Status != subscriptions.LimitError {
		t.Fatalf("unknown limit: %+v", lc)
	}
}
