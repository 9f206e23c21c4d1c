package workflows_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// The whole app on the embedded server with a 3-second BILLING_GRACE: a
// failed payment applied the way billing does (ApplyBilling in its
// transaction, then NotifyEntitlement, twice) keeps Premium through the
// grace; at its end the member's Entitlement workflow downgrades, notifies,
// and the open session loses the premium role.
func TestE2EGraceEndsInADowngradeThroughTheApp(t *testing.T) {
	dev := devServer(t, "")
	srv := apptest.Start(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr, "BILLING_GRACE": "3s"})
	c, user := srv.SignedIn(t, "grace@example.com")
	ctx := context.Background()
	subs := srv.App.Engagement.Subscriptions
	hasPremium := func() bool {
		var session struct {
			User struct {
				Roles []string `json:"roles"`
			} `json:"user"`
		}
		c.Do("GET", "/api/auth/session", nil).JSON(t, &session)
		return slices.Contains(session.User.Roles, core.RolePremium)
	}
	now := time.Now()
	failed := now
	st := subscriptions.BillingState{UserID: user, StripeStatus: "past_due", Tier: "premium_monthly",
		CurrentPeriodEnd: now.Add(30 * 24 * time.Hour), PaymentFailedAt: &failed, ObservedAt: now}
	if err := postgres.InTx(ctx, srv.App.Pool, func(tx pgx.Tx) error {
		_, err := subs.ApplyBilling(ctx, tx, st)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a duplicate notice is harmless
		if err := subs.NotifyEntitlement(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 2*time.Second, "premium in the session during grace", hasPremium)
	eventually(t, 30*time.Second, "the downgrade at the end of grace", func() bool {
		sub, err := subs.Get(ctx, user)
		return err == nil && sub != nil && sub.Status == subscriptions.StatusCanceled
	})
	if since := time.Since(failed); since < 3*time.Second {
		t.Fatalf("downgraded %s after the failure, before the grace ended", since)
	}
	eventually(t, 2*time.Second, "the session to lose premium", func() bool { return !hasPremium() })
	eventually(t, 10*time.Second, "the downgrade notice", func() bool {
		list, err := srv.App.Engagement.Notifications.List(ctx, user, 10)
		return err == nil && len(list) == 1 && list[0].Title == workflows.PremiumEndedTitle
	})
	changes, err := subs.Changes(ctx, user)
	if err != nil || len(changes) != 2 || changes[0].Kind != "premium" || changes[1].Kind != subscriptions.ReasonGraceEnded {
		t.Fatalf("timeline %+v %v", changes, err)
	}
}
