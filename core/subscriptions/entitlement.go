package subscriptions

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/postgres"
)

// BillingState is what Stripe says of a member's subscription, as billing read it.
type BillingState struct {
	UserID            string
	StripeStatus      string // active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused; "" = no subscription
	Tier              string // premium_monthly | premium_yearly (billing maps price ids)
	CurrentPeriodEnd  time.Time
	CancelAtPeriodEnd bool
	PaymentFailedAt   *time.Time // set while the latest invoice failed (dunning); nil after invoice.paid
	ObservedAt        time.Time  // Stripe event time (or the read time of a Sync); a state older than the last applied one is ignored
}

// Stripe subscription statuses.
const (
	StripeActive            = "active"
	StripeTrialing          = "trialing"
	StripePastDue           = "past_due"
	StripeUnpaid            = "unpaid"
	StripeCanceled          = "canceled"
	StripeIncomplete        = "incomplete"
	StripeIncompleteExpired = "incomplete_expired"
	StripePaused            = "paused"
)

var stripeStatuses = map[string]bool{"": true, StripeActive: true, StripeTrialing: true, StripePastDue: true,
	StripeUnpaid: true, StripeCanceled: true, StripeIncomplete: true, StripeIncompleteExpired: true, StripePaused: true}

// Downgrade reasons (subscribers.downgrade_reason).
const (
	ReasonCanceled    = "canceled"     // Stripe ended the subscription
	ReasonGraceEnded  = "grace_ended"  // a failed payment was not settled within the grace
	ReasonPeriodEnded = "period_ended" // cancelled at period end, and the period ended
)

// BillingGrace is how long premium lasts after a failed payment.
func (s *Service) BillingGrace() time.Duration { return s.grace }

// decision is the row a billing state implies.
type decision struct {
	next   Subscriber
	reason string // downgrade reason when the state ends premium now
}

// decide is the entitlement rules: active/trialing → premium with the tier;
// a failed payment (past_due, unpaid or PaymentFailedAt) → premium until the
// end of grace; a cancellation at period end → premium until the period's
// end; canceled, incomplete_expired, paused, incomplete or no subscription →
// not premium (a trial keeps its trial, a premium granted by hand is not
// Stripe's to take). An end already passed downgrades at once.
func decide(cur Subscriber, st BillingState, grace time.Duration, now time.Time) (decision, error) {
	next := cur
	observed := st.ObservedAt
	next.BillingObservedAt = &observed
	status := st.StripeStatus
	next.BillingStatus = &status
	next.CurrentPeriodEnd = nil
	if !st.CurrentPeriodEnd.IsZero() {
		pe := st.CurrentPeriodEnd
		next.CurrentPeriodEnd = &pe
	}
	next.CancelAtPeriodEnd = st.CancelAtPeriodEnd

	switch status {
	case StripeActive, StripeTrialing, StripePastDue, StripeUnpaid:
		if st.Tier != TierMonthly && st.Tier != TierYearly && !isPremiumTier(st.Tier) {
			return decision{}, core.Invalid("Plano inválido.", map[string]string{"tier": "Plano desconhecido."})
		}
		tier := st.Tier
		next.Tier = &tier
		var until *time.Time
		reason := ""
		if status == StripePastDue || status == StripeUnpaid || st.PaymentFailedAt != nil {
			failed := st.PaymentFailedAt
			if failed == nil {
				failed = cur.PaymentFailedAt
			}
			if failed == nil {
				failed = &observed
			}
			f := *failed
			g := f.Add(grace)
			next.PaymentFailedAt, next.GraceUntil = &f, &g
			until, reason = &g, ReasonGraceEnded
		} else {
			next.PaymentFailedAt, next.GraceUntil = nil, nil
		}
		if st.CancelAtPeriodEnd && next.CurrentPeriodEnd != nil && (until == nil || next.CurrentPeriodEnd.Before(*until)) {
			until, reason = next.CurrentPeriodEnd, ReasonPeriodEnded
		}
		if until != nil && !now.Before(*until) {
			next.Status, next.PremiumUntil = StatusCanceled, nil
			return decision{next: next, reason: reason}, nil
		}
		next.Status, next.PremiumUntil = StatusActive, until
		return decision{next: next}, nil
	}

	// Not premium.
	next.PaymentFailedAt, next.GraceUntil, next.PremiumUntil = nil, nil, nil
	switch {
	case cur.Status == StatusTrial || cur.Status == StatusCanceled:
		// A trial keeps its own clock; a former subscriber stays one.
	case cur.Status == StatusActive && cur.BillingStatus == nil &&
		(status == "" || status == StripeIncomplete || status == StripeIncompleteExpired):
		// Premium granted by hand, and Stripe never billed it: nothing of
		// Stripe's to take away (a checkout that was never paid).
		return decision{next: cur}, nil
	case cur.TrialEndsAt != nil && cur.TrialExpiredAt == nil && now.Before(*cur.TrialEndsAt):
		// Paid during the trial and stopped: the trial's rest remains.
		next.Status = StatusTrial
	default:
		next.Status = StatusCanceled
		return decision{next: next, reason: ReasonCanceled}, nil
	}
	return decision{next: next}, nil
}

func timeEq(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func strEq(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// sameEntitlement is whether two rows show the member the same thing.
func sameEntitlement(a, b Subscriber) bool {
	return a.Status == b.Status && strEq(a.Tier, b.Tier) && strEq(a.BillingStatus, b.BillingStatus) &&
		timeEq(a.CurrentPeriodEnd, b.CurrentPeriodEnd) && a.CancelAtPeriodEnd == b.CancelAtPeriodEnd &&
		timeEq(a.PaymentFailedAt, b.PaymentFailedAt) && timeEq(a.GraceUntil, b.GraceUntil) &&
		timeEq(a.PremiumUntil, b.PremiumUntil)
}

// changeKind names a change for the timeline.
func changeKind(cur, next Subscriber, wasPremium, isPremium bool, reason string) string {
	switch {
	case wasPremium && !isPremium && reason != "":
		return reason
	case wasPremium && !isPremium:
		return "canceled"
	case !wasPremium && isPremium && cur.Status == StatusActive && cur.PremiumUntil != nil:
		return "restored"
	case !wasPremium && isPremium:
		return "premium"
	case isPremium && next.PaymentFailedAt != nil && cur.PaymentFailedAt == nil:
		return "grace"
	case isPremium && next.PaymentFailedAt == nil && cur.PaymentFailedAt != nil:
		return "restored"
	case isPremium && next.CancelAtPeriodEnd && !cur.CancelAtPeriodEnd:
		return "cancel_scheduled"
	case isPremium && !next.CancelAtPeriodEnd && cur.CancelAtPeriodEnd:
		return "reactivated"
	case isPremium && !strEq(cur.Tier, next.Tier):
		return "plan_changed"
	}
	return "billing_updated"
}

// ApplyBilling writes the entitlement the state implies in the caller's transaction (so the
// webhook inbox row and the change commit together), publishes subscription.changed (the live
// event + principal invalidation), and reports whether anything changed.
// A state older than the last one applied changes nothing.
func (s *Service) ApplyBilling(ctx context.Context, tx pgx.Tx, st BillingState) (changed bool, err error) {
	if st.UserID == "" {
		return false, core.Invalid("Membro ausente.", map[string]string{"user_id": "Obrigatório."})
	}
	if !stripeStatuses[st.StripeStatus] {
		return false, core.Invalid("Situação de assinatura desconhecida.", map[string]string{"status": "Desconhecida."})
	}
	if st.ObservedAt.IsZero() {
		return false, core.Invalid("Momento da leitura ausente.", map[string]string{"observed_at": "Obrigatório."})
	}
	now := s.now()
	grants := st.StripeStatus == StripeActive || st.StripeStatus == StripeTrialing ||
		st.StripeStatus == StripePastDue || st.StripeStatus == StripeUnpaid
	if grants {
		// A member paying without a subscriber row (no trial yet) gets one;
		// the row is then locked like any other.
		if _, err := tx.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status) VALUES ($1, 'canceled')
			ON CONFLICT (user_id) DO NOTHING`, st.UserID); err != nil {
			return false, fmt.Errorf("apply billing: %w", err)
		}
	}
	cur, err := getSubscriber(ctx, tx, st.UserID, true)
	if err != nil {
		return false, fmt.Errorf("apply billing: %w", err)
	}
	if cur == nil {
		return false, nil // nothing granted and nothing to take away
	}
	if cur.BillingObservedAt != nil && st.ObservedAt.Before(*cur.BillingObservedAt) {
		return false, nil
	}
	d, err := decide(*cur, st, s.grace, now)
	if err != nil {
		return false, err
	}
	next := d.next
	if sameEntitlement(*cur, next) {
		if !timeEq(cur.BillingObservedAt, next.BillingObservedAt) && next.BillingObservedAt != nil {
			if _, err := tx.Exec(ctx, `UPDATE subscribers SET billing_observed_at = $2 WHERE user_id = $1`,
				st.UserID, *next.BillingObservedAt); err != nil {
				return false, fmt.Errorf("apply billing: %w", err)
			}
		}
		return false, nil
	}
	wasPremium := ViewOf(cur, now).IsPremium
	isPremium := ViewOf(&next, now).IsPremium
	// A downgrade is the row leaving active, whether or not its end had
	// already stopped access (a replay after a long outage).
	var reason *string
	if cur.Status == StatusActive && next.Status != StatusActive {
		r := d.reason
		if r == "" {
			r = ReasonCanceled
		}
		reason = &r
	}
	_, err = tx.Exec(ctx, `UPDATE subscribers SET subscription_status = $2, subscription_tier = $3,
			billing_status = $4, current_period_end = $5, cancel_at_period_end = $6, payment_failed_at = $7,
			grace_until = $8, premium_until = $9, billing_observed_at = $10,
			downgraded_at = CASE WHEN $11::text IS NULL THEN downgraded_at ELSE $12 END,
			downgrade_reason = coalesce($11, downgrade_reason), updated_at = now()
		WHERE user_id = $1`,
		st.UserID, next.Status, next.Tier, next.BillingStatus, next.CurrentPeriodEnd, next.CancelAtPeriodEnd,
		next.PaymentFailedAt, next.GraceUntil, next.PremiumUntil, next.BillingObservedAt, reason, now)
	if err != nil {
		return false, fmt.Errorf("apply billing: %w", err)
	}
	kind := changeKind(*cur, next, wasPremium, isPremium, d.reason)
	if reason != nil {
		kind = *reason
	}
	if err := recordChange(ctx, tx, st.UserID, now, kind, isPremium, map[string]any{
		"stripe_status": st.StripeStatus, "tier": st.Tier, "observed_at": st.ObservedAt,
		"premium_until": next.PremiumUntil, "grace_until": next.GraceUntil,
		"cancel_at_period_end": st.CancelAtPeriodEnd,
	}); err != nil {
		return false, err
	}
	if err := publishChanged(ctx, tx, st.UserID, next, now); err != nil {
		return false, err
	}
	return true, nil
}

// NotifyEntitlement signals the member's Entitlement workflow after the commit (idempotent).
func (s *Service) NotifyEntitlement(ctx context.Context, st BillingState) error {
	if st.UserID == "" {
		return core.Invalid("Membro ausente.", map[string]string{"user_id": "Obrigatório."})
	}
	return s.wf.SignalEntitlement(ctx, st.UserID, st.ObservedAt)
}

// publishChanged sends subscription.changed with the new state; the
// subscribers trigger invalidates the member's cached principals.
func publishChanged(ctx context.Context, tx pgx.Tx, userID string, sub Subscriber, now time.Time) error {
	v := ViewOf(&sub, now)
	_, err := events.Publish(ctx, tx, userID, EventChanged, map[string]any{
		"is_premium": v.IsPremium, "subscription_status": sub.Status, "billing_status": sub.BillingStatus,
		"payment_failed": v.PaymentFailed, "premium_until": v.PremiumUntil,
	})
	return err
}

// recordChange appends one entitlement change to the member's timeline.
func recordChange(ctx context.Context, tx pgx.Tx, userID string, at time.Time, kind string, isPremium bool, detail map[string]any) error {
	if detail == nil {
		detail = map[string]any{}
	}
	raw, err := json.Marshal(detail)
	if err != nil {
		return fmt.Errorf("encode entitlement change: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO entitlement_changes (user_id, at, kind, is_premium, detail) VALUES ($1, $2, $3, $4, $5)`,
		userID, at, kind, isPremium, raw); err != nil {
		return fmt.Errorf("record entitlement change: %w", err)
	}
	return nil
}

// Change is one entry of a member's entitlement timeline.
type Change struct {
	At        time.Time       `json:"at"`
	Kind      string          `json:"type"`
	IsPremium bool            `json:"is_premium"`
	Detail    json.RawMessage `json:"detail"`
}

// Changes is userID's entitlement timeline, oldest first (the backoffice's
// member timeline; the caller checks who asks).
func (s *Service) Changes(ctx context.Context, userID string) ([]Change, error) {
	rows, err := s.pool.Query(ctx, `SELECT at, kind, is_premium, detail FROM entitlement_changes
		WHERE user_id = $1 ORDER BY at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("entitlement changes: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Change, error) {
		var c Change
		err := r.Scan(&c.At, &c.Kind, &c.IsPremium, &c.Detail)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("entitlement changes: %w", err)
	}
	return list, nil
}

// EndPremium records the downgrade of an active premium whose end (grace or
// a cancelled period) has passed: what the Entitlement workflow calls when
// its timer fires. It re-reads the row, so a restored payment or a renewed
// period that moved or cleared the end makes it do nothing; it reports
// whether it downgraded.
func (s *Service) EndPremium(ctx context.Context, userID string) (bool, error) {
	now := s.now()
	var done bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		cur, err := getSubscriber(ctx, tx, userID, true)
		if err != nil || cur == nil {
			return err
		}
		if cur.Status != StatusActive || cur.PremiumUntil == nil || now.Before(*cur.PremiumUntil) {
			return nil
		}
		reason := ReasonPeriodEnded
		if cur.GraceUntil != nil && !cur.GraceUntil.After(*cur.PremiumUntil) {
			reason = ReasonGraceEnded
		}
		next := *cur
		next.Status, next.PremiumUntil = StatusCanceled, nil
		if _, err := tx.Exec(ctx, `UPDATE subscribers SET subscription_status = 'canceled', premium_until = NULL,
				downgraded_at = $2, downgrade_reason = $3, updated_at = now() WHERE user_id = $1`, userID, now, reason); err != nil {
			return err
		}
		if err := recordChange(ctx, tx, userID, now, reason, false, map[string]any{"premium_until": cur.PremiumUntil}); err != nil {
			return err
		}
		done = true
		return publishChanged(ctx, tx, userID, next, now)
	})
	if err != nil {
		return false, fmt.Errorf("end premium: %w", err)
	}
	return done, nil
}
