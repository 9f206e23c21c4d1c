package billing

import (
	"context"
	"fmt"

	"github.com/stripe/stripe-go/v82"
)

// RewardCoupon is a discount on the member's subscription bought with
// VetCoins: a Stripe promotion code that only their customer can use, once.
type RewardCoupon struct {
	Code     string `json:"code"`
	CouponID string `json:"coupon_id"`
}

// CreateRewardCoupon creates a percent-off coupon (for durationMonths
// months, 0 = once) and its single-use promotion code for userID's Stripe
// customer (made now if the member never subscribed). idempotencyKey makes
// a retry return the same code. A Stripe failure is EUNAVAILABLE.
func (s *Service) CreateRewardCoupon(ctx context.Context, userID string, percentOff float64, durationMonths int, idempotencyKey string) (RewardCoupon, error) {
	if percentOff <= 0 || percentOff > 100 || durationMonths < 0 || durationMonths > 36 {
		return RewardCoupon{}, fmt.Errorf("reward coupon: invalid percent %v or months %d", percentOff, durationMonths)
	}
	cus, err := s.EnsureCustomer(ctx, userID, "")
	if err != nil {
		return RewardCoupon{}, fmt.Errorf("reward coupon: %w", err)
	}
	cp := &stripe.CouponCreateParams{
		PercentOff:     stripe.Float64(percentOff),
		Duration:       stripe.String("once"),
		MaxRedemptions: stripe.Int64(1),
		Name:           stripe.String(fmt.Sprintf("VetCoins: %g%% de desconto", percentOff)),
		Metadata:       map[string]string{"user_id": userID, "idempotency_key": idempotencyKey},
	}
	if durationMonths > 0 {
		cp.Duration = stripe.String("repeating")
		cp.DurationInMonths = stripe.Int64(int64(durationMonths))
	}
	cp.SetIdempotencyKey(idempotencyKey + ":coupon")
	coupon, err := s.sc.V1Coupons.Create(ctx, cp)
	if err != nil {
		return RewardCoupon{}, stripeDown(err)
	}
	pp := &stripe.PromotionCodeCreateParams{
		Coupon:         stripe.String(coupon.ID),
		Customer:       stripe.String(cus),
		MaxRedemptions: stripe.Int64(1),
		Metadata:       map[string]string{"user_id": userID, "idempotency_key": idempotencyKey},
	}
	pp.SetIdempotencyKey(idempotencyKey + ":promotion_code")
	pc, err := s.sc.V1PromotionCodes.Create(ctx, pp)
	if err != nil {
		return RewardCoupon{}, stripeDown(err)
	}
	return RewardCoupon{Code: pc.Code, CouponID: coupon.ID}, nil
}
