package app

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/rewards"
)

// buildRewards wires the VetCoins shop: premium-only rewards ask the
// subscription, coupon rewards go to Stripe through billing.
func (a *App) buildRewards(pool *pgxpool.Pool, log *slog.Logger) {
	o := rewards.Options{
		Premium: func(ctx context.Context, userID string) (bool, error) {
			v, err := a.Engagement.Subscriptions.View(ctx, userID)
			return v.IsPremium, err
		},
		Log: log,
	}
	if a.Billing != nil {
		o.Coupons = rewardCoupons{a.Billing}
	}
	a.Rewards = rewards.New(pool, o)
}

// rewardCoupons is core/billing as the shop's coupon issuer.
type rewardCoupons struct{ b *billing.Service }

func (c rewardCoupons) CreateRewardCoupon(ctx context.Context, userID string, pct float64, months int, key string) (string, error) {
	rc, err := c.b.CreateRewardCoupon(ctx, userID, pct, months, key)
	return rc.Code, err
}
