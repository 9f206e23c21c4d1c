package billing_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// The reward coupon's requests (customer, coupon, promotion code) are
// accepted by stripe-mock against Stripe's API description.
func TestRewardCouponAgainstStripeMock(t *testing.T) {
	base := stripeMock(t)
	ctx := context.Background()
	pool := pgtest.New(t)
	cfg := billing.Config{SecretKey: "sk_test_123", WebhookSecret: testWebhookSecret, APIBase: base,
		PriceMonthly: "price_monthly", PriceYearly: "price_yearly", PublicURL: "http://vetclube.test"}
	svc := billing.New(pool, billing.NewClient(cfg, nil), cfg, billing.Options{Entitlement: newRecorder()})
	var user string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("coupon%d@example.com", time.Now().UnixNano())).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateRewardCoupon(ctx, user, 15, 3, "reward-coupon:nocustomer"); err == nil {
		t.Fatal("a coupon for a member without a subscription")
	}
	if _, err := pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_mock')`, user); err != nil {
		t.Fatal(err)
	}
	c, err := svc.CreateRewardCoupon(ctx, user, 15, 3, "reward-coupon:test")
	if err != nil {
		t.Fatalf("reward coupon against stripe-mock: %v", err)
	}
	if c.Code == "" || c.SubscriptionID == "" {
		t.Fatalf("coupon %+v", c)
	}
	if _, err := svc.CreateRewardCoupon(ctx, user, 0, 1, "reward-coupon:bad"); err == nil {
		t.Fatal("a 0% coupon was accepted")
	}
}
