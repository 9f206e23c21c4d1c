package billing

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"

	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core"
)

// MsgCouponNoSubscription refuses a subscription discount to a member
// without a paid subscription at Stripe.
const MsgCouponNoSubscription = "O desconto é aplicado na assinatura: assine o Premium para usar esta recompensa."

// RewardCoupon is a discount on the member's subscription bought with
// VetCoins: a Stripe coupon applied to their live subscription.
type RewardCoupon struct {
	Code           string `json:"code"`
	SubscriptionID string `json:"subscription_id"`
}

// CreateRewardCoupon creates a percent-off coupon (for durationMonths
// months, 0 = the next invoice only) whose id is the readable code the
// member sees, and applies it to userID's live subscription. The same
// idempotencyKey makes a retry reuse Stripe's first answers. A member
// without a live subscription is refused (ECONFLICT); a Stripe failure is
// EUNAVAILABLE.
func (s *Service) CreateRewardCoupon(ctx context.Context, userID string, percentOff float64, durationMonths int, idempotencyKey string) (RewardCoupon, error) {
	if percentOff <= 0 || percentOff > 100 || durationMonths < 0 || durationMonths > 36 {
		return RewardCoupon{}, fmt.Errorf("reward coupon: invalid percent %v or months %d", percentOff, durationMonths)
	}
	cus, _, err := customerOf(ctx, s.pool, userID)
	if err != nil {
		return RewardCoupon{}, err
	}
	if cus == "" {
		return RewardCoupon{}, core.Errorf(core.ECONFLICT, MsgCouponNoSubscription)
	}
	sub, err := s.currentSubscription(ctx, cus)
	if err != nil {
		return RewardCoupon{}, stripeDown(err)
	}
	if sub == nil || !slices.Contains(liveStatuses, string(sub.Status)) {
		return RewardCoupon{}, core.Errorf(core.ECONFLICT, MsgCouponNoSubscription)
	}
	cp := &stripe.CouponCreateParams{
		ID:             stripe.String(couponCode(idempotencyKey)),
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
	up := &stripe.SubscriptionUpdateParams{Discounts: []*stripe.SubscriptionUpdateDiscountParams{{Coupon: stripe.String(coupon.ID)}}}
	up.SetIdempotencyKey(idempotencyKey + ":apply")
	if _, err := s.sc.V1Subscriptions.Update(ctx, sub.ID, up); err != nil {
		return RewardCoupon{}, stripeDown(err)
	}
	return RewardCoupon{Code: coupon.ID, SubscriptionID: sub.ID}, nil
}

// couponCode is a readable coupon id, derived from nothing secret: VC-
// and eight random letters and digits (no 0/O, 1/I).
func couponCode(string) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	var sb strings.Builder
	sb.WriteString("VC-")
	for _, c := range b {
		sb.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return sb.String()
}
