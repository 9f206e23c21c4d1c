package subscriptions_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres"
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
	roles, until, err := srv.App.Engagement.Subscriptions.Roles(context.Background(), userID)
	if err != nil || !slices.Contains(roles, core.RoleTrial) || v.TrialEndsAt == nil || !until.Equal(*v.TrialEndsAt) {
		t.Fatalf("roles %v until %s (trial ends %v) err %v", roles, until, v.TrialEndsAt, err)
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

// The subscription view over HTTP carries the billing state the dunning
// banner and the subscription screens read, next to the fields it always
// had; a billing change reaches the member's session at once (the
// principal invalidation), both ways.
func TestSubscriptionViewCarriesBillingStateOverHTTP(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"TRIAL_DAYS": "7"})
	c, userID := srv.SignedIn(t, "dunning@example.com")
	ctx := context.Background()
	subs := srv.App.Engagement.Subscriptions
	roles := func() []string {
		var session struct {
			User struct {
				Roles []string `json:"roles"`
			} `json:"user"`
		}
		c.Do("GET", "/api/auth/session", nil).JSON(t, &session)
		return session.User.Roles
	}
	if slices.Contains(roles(), core.RolePremium) {
		t.Fatal("premium before paying")
	}
	apply := func(st subscriptions.BillingState) {
		t.Helper()
		st.UserID = userID
		if err := postgres.InTx(ctx, srv.App.Pool, func(tx pgx.Tx) error {
			_, err := subs.ApplyBilling(ctx, tx, st)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC().Truncate(time.Second)
	failed := now.Add(-time.Hour)
	periodEnd := now.Add(25 * 24 * time.Hour)
	apply(subscriptions.BillingState{StripeStatus: "past_due", Tier: "premium_monthly", CurrentPeriodEnd: periodEnd,
		PaymentFailedAt: &failed, ObservedAt: now})
	var raw map[string]any
	c.Do("GET", "/api/subscription", nil).JSON(t, &raw)
	for _, k := range []string{"subscription_status", "subscription_tier", "trial_ends_at", "is_premium", "trial_active", "trial_expired",
		"days_left", "plan", "billing_status", "current_period_end", "cancel_at_period_end", "grace_until", "payment_failed", "premium_until"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("view lacks %q: %v", k, raw)
		}
	}
	graceEnd := failed.Add(subscriptions.DefaultBillingGrace).Format(time.RFC3339)
	if raw["plan"] != "monthly" || raw["billing_status"] != "past_due" || raw["payment_failed"] != true || raw["is_premium"] != true ||
		raw["grace_until"] != graceEnd || raw["premium_until"] != graceEnd || raw["current_period_end"] != periodEnd.Format(time.RFC3339) {
		t.Fatalf("view in grace: %v", raw)
	}
	// Cached principals are dropped when the row changes (NOTIFY), within a second.
	within := func(want bool) {
		t.Helper()
		deadline := time.Now().Add(time.Second)
		for slices.Contains(roles(), core.RolePremium) != want {
			if time.Now().After(deadline) {
				t.Fatalf("session roles %v, want premium=%v within a second", roles(), want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	within(true)
	apply(subscriptions.BillingState{StripeStatus: "canceled", Tier: "premium_monthly", CurrentPeriodEnd: periodEnd, ObservedAt: now.Add(time.Second)})
	within(false)
	c.Do("GET", "/api/subscription", nil).JSON(t, &raw)
	if raw["is_premium"] != false || raw["payment_failed"] != false || raw["subscription_status"] != "canceled" || raw["plan"] != "monthly" {
		t.Fatalf("view after cancellation: %v", raw)
	}
}
