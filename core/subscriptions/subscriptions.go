// Package subscriptions keeps each user's entitlement (the subscriber row):
// the trial a confirmed account starts, the premium a Stripe subscription
// pays for (core/billing reads Stripe and calls ApplyBilling), the grace a
// failed payment leaves, the roles "trial" and "premium" it adds to a
// principal, and the trial limits. One Temporal workflow per member (in
// workflows/, told through the Workflows interface) is its alarm clock:
// trial reminders and end, the end of grace, the end of a cancelled period.
// The row is the truth; the view never calls Stripe.
package subscriptions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/postgres"
)

// Statuses and tiers.
const (
	StatusActive = "active"
	StatusTrial  = "trial"
	// StatusCanceled is a former subscriber whose premium ended: neither
	// premium nor on trial.
	StatusCanceled = "canceled"
)

// PremiumTiers are the tiers that make an active subscriber premium.
var PremiumTiers = []string{"premium", "premium_monthly", "premium_yearly", "vip"}

// EventChanged is the live event sent when a user's subscription changes.
const EventChanged = "subscription.changed"

// Subscriber is one row of subscribers.
type Subscriber struct {
	UserID      string
	Status      string
	Tier        *string
	TrialEndsAt *time.Time

	// Billing, as last applied from Stripe (nil/zero when never billed).
	BillingStatus     *string
	CurrentPeriodEnd  *time.Time
	CancelAtPeriodEnd bool
	PaymentFailedAt   *time.Time
	GraceUntil        *time.Time
	// PremiumUntil is when an active premium ends (grace end, or the
	// period's end after a cancellation); nil = open-ended.
	PremiumUntil      *time.Time
	BillingObservedAt *time.Time
	TrialExpiredAt    *time.Time
	Reminded3dAt      *time.Time
	Reminded1dAt      *time.Time
}

// subscriberColumns and scan read a whole Subscriber.
const subscriberColumns = `user_id::text, subscription_status, subscription_tier, trial_ends_at,
	billing_status, current_period_end, cancel_at_period_end, payment_failed_at, grace_until,
	premium_until, billing_observed_at, trial_expired_at, trial_reminded_3d_at, trial_reminded_1d_at`

func (sub *Subscriber) scan(row pgx.Row) error {
	return row.Scan(&sub.UserID, &sub.Status, &sub.Tier, &sub.TrialEndsAt,
		&sub.BillingStatus, &sub.CurrentPeriodEnd, &sub.CancelAtPeriodEnd, &sub.PaymentFailedAt, &sub.GraceUntil,
		&sub.PremiumUntil, &sub.BillingObservedAt, &sub.TrialExpiredAt, &sub.Reminded3dAt, &sub.Reminded1dAt)
}

// View is the subscription as the app shows it.
type View struct {
	Status       *string    `json:"subscription_status"`
	Tier         *string    `json:"subscription_tier"`
	TrialEndsAt  *time.Time `json:"trial_ends_at"`
	IsPremium    bool       `json:"is_premium"`
	TrialActive  bool       `json:"trial_active"`
	TrialExpired bool       `json:"trial_expired"`
	DaysLeft     int        `json:"days_left"`

	// Plan is "monthly" or "yearly" for a Stripe plan, nil otherwise.
	Plan *string `json:"plan"`
	// BillingStatus is Stripe's word (active, past_due, canceled…), nil when never billed.
	BillingStatus     *string    `json:"billing_status"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
	// GraceUntil is when access ends unless the failed payment is settled.
	GraceUntil *time.Time `json:"grace_until"`
	// PaymentFailed is true while the latest invoice failed and access lasts
	// (the dunning banner).
	PaymentFailed bool `json:"payment_failed"`
	// PremiumUntil is when premium ends (grace or a cancelled period), nil = open-ended or not premium.
	PremiumUntil *time.Time `json:"premium_until"`
}

// Plans: the Stripe tiers and the plan each is.
const (
	TierMonthly = "premium_monthly"
	TierYearly  = "premium_yearly"
)

// PlanOf is the plan ("monthly", "yearly") of a tier, nil for other tiers.
func PlanOf(tier *string) *string {
	if tier == nil {
		return nil
	}
	var p string
	switch *tier {
	case TierMonthly:
		p = "monthly"
	case TierYearly:
		p = "yearly"
	default:
		return nil
	}
	return &p
}

// ViewOf is the subscription's state at now; sub nil means no subscriber row.
// Premium is status active with a premium tier (and, while a grace or a
// cancelled period runs, before its end: access stops on time even when the
// workflow that records the downgrade is late).
func ViewOf(sub *Subscriber, now time.Time) View {
	if sub == nil {
		return View{}
	}
	v := View{Status: &sub.Status, Tier: sub.Tier, TrialEndsAt: sub.TrialEndsAt,
		Plan: PlanOf(sub.Tier), BillingStatus: sub.BillingStatus, CurrentPeriodEnd: sub.CurrentPeriodEnd,
		CancelAtPeriodEnd: sub.CancelAtPeriodEnd, GraceUntil: sub.GraceUntil}
	v.IsPremium = sub.Status == StatusActive && sub.Tier != nil && isPremiumTier(*sub.Tier) &&
		(sub.PremiumUntil == nil || now.Before(*sub.PremiumUntil))
	if v.IsPremium {
		v.PremiumUntil = sub.PremiumUntil
		v.PaymentFailed = sub.PaymentFailedAt != nil
	}
	if sub.Status == StatusTrial && sub.TrialEndsAt != nil {
		left := sub.TrialEndsAt.Sub(now)
		v.TrialActive = left > 0
		v.TrialExpired = left <= 0 && !v.IsPremium
		if left > 0 {
			v.DaysLeft = int(math.Ceil(left.Hours() / 24))
		}
	}
	return v
}

func isPremiumTier(t string) bool {
	for _, p := range PremiumTiers {
		if p == t {
			return true
		}
	}
	return false
}

// Workflows runs each member's Entitlement workflow (the alarm clock of
// trial reminders, trial end, grace end and the end of a cancelled period);
// the Temporal implementation is in workflows/.
type Workflows interface {
	// SignalEntitlement starts userID's workflow unless it runs and tells it
	// the row changed (SignalWithStart: a duplicate start is harmless).
	// observedAt is the billing state's time: a signal older than the last
	// one applied is ignored; zero is a plain wake-up (a trial start, a
	// manual grant, the catch-up) that only makes the workflow re-read.
	SignalEntitlement(ctx context.Context, userID string, observedAt time.Time) error
}

// NoWorkflows runs no clock: the view still derives trial expiry and the
// end of grace or of a cancelled period from the row, but no reminder is
// sent and no downgrade recorded. Used without a Temporal cluster.
type NoWorkflows struct{}

func (NoWorkflows) SignalEntitlement(context.Context, string, time.Time) error { return nil }

// Notifier sends the trial's in-app notifications.
type Notifier interface {
	Create(ctx context.Context, userID, kind, title, message, idempotencyKey string) error
}

// Service manages subscribers.
type Service struct {
	pool     *pgxpool.Pool
	wf       Workflows
	trialLen time.Duration
	grace    time.Duration
	mu       sync.Mutex
	daily    map[string]bool // limit types counted per day (offer.go)
	limits   map[string]int
	now      func() time.Time
	log      *slog.Logger
	counters map[string]UsageCounter // limit types a feature counts itself (limits.go)
}

// DefaultBillingGrace is how long a member keeps premium after a failed
// payment when BILLING_GRACE is not set.
const DefaultBillingGrace = 7 * 24 * time.Hour

// Options configures a Service.
type Options struct {
	Workflows     Workflows
	TrialDuration time.Duration
	// BillingGrace is how long premium lasts after a failed payment
	// (BILLING_GRACE); 0 means DefaultBillingGrace.
	BillingGrace time.Duration
	Limits       map[string]int // trial limits per limit type
	Now          func() time.Time
	Log          *slog.Logger
}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	s := &Service{pool: pool, wf: o.Workflows, trialLen: o.TrialDuration, grace: o.BillingGrace, limits: o.Limits, now: o.Now, log: o.Log}
	if s.wf == nil {
		s.wf = NoWorkflows{}
	}
	if s.grace <= 0 {
		s.grace = DefaultBillingGrace
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Get returns userID's subscriber row, nil when there is none.
func (s *Service) Get(ctx context.Context, userID string) (*Subscriber, error) {
	return getSubscriber(ctx, s.pool, userID, false)
}

func getSubscriber(ctx context.Context, q RowQuerier, userID string, forUpdate bool) (*Subscriber, error) {
	var sub Subscriber
	sql := `SELECT ` + subscriberColumns + ` FROM subscribers WHERE user_id = $1`
	if forUpdate {
		sql += ` FOR UPDATE`
	}
	err := sub.scan(q.QueryRow(ctx, sql, userID))
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read subscriber: %w", err)
	}
	return &sub, nil
}

// View returns userID's subscription view.
func (s *Service) View(ctx context.Context, userID string) (View, error) {
	sub, err := s.Get(ctx, userID)
	if err != nil {
		return View{}, err
	}
	return ViewOf(sub, s.now()), nil
}

// StartTrial gives a newly confirmed account its trial, once: an account
// that already has a subscriber row keeps it. It is the email-confirmed hook,
// so it is idempotent and restarts a clock that failed to start before.
func (s *Service) StartTrial(ctx context.Context, userID string) error {
	if s.trialLen <= 0 {
		return nil
	}
	now := s.now()
	endsAt := now.Add(s.trialLen).UTC()
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// created_at is the trial's start (the reminders skip moments before it).
		tag, err := tx.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, trial_ends_at, created_at)
			VALUES ($1, 'trial', $2, $3) ON CONFLICT (user_id) DO NOTHING`, userID, endsAt, now)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return recordChange(ctx, tx, userID, now, "trial_started", false, map[string]any{"trial_ends_at": endsAt})
	})
	if err != nil {
		return fmt.Errorf("start trial: %w", err)
	}
	sub, err := s.Get(ctx, userID)
	if err != nil {
		return err
	}
	if sub == nil || sub.Status != StatusTrial || sub.TrialEndsAt == nil || !sub.TrialEndsAt.After(s.now()) {
		return nil
	}
	return s.wf.SignalEntitlement(ctx, userID, time.Time{})
}

// BecomePremium grants an open-ended premium by hand (the seed, a vip), apart
// from Stripe: it clears any grace or scheduled end, and tells the
// member's workflow so no trial end or downgrade fires.
func (s *Service) BecomePremium(ctx context.Context, userID, tier string) error {
	if !isPremiumTier(tier) {
		return core.Invalid("Plano inválido.", map[string]string{"subscription_tier": "Plano desconhecido."})
	}
	now := s.now()
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, subscription_tier)
			VALUES ($1, 'active', $2) ON CONFLICT (user_id) DO UPDATE
			SET subscription_status = 'active', subscription_tier = EXCLUDED.subscription_tier,
				premium_until = NULL, grace_until = NULL, payment_failed_at = NULL, updated_at = now()`, userID, tier)
		if err != nil {
			return err
		}
		if err := recordChange(ctx, tx, userID, now, "premium", true, map[string]any{"tier": tier, "source": "manual"}); err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, userID, EventChanged, map[string]any{"is_premium": true})
		return err
	})
	if err != nil {
		return fmt.Errorf("record premium: %w", err)
	}
	return s.wf.SignalEntitlement(ctx, userID, time.Time{})
}

// ExpireTrial marks userID's trial expired when it is still a trial whose
// end has passed and the user is not premium. It reports whether it did.
func (s *Service) ExpireTrial(ctx context.Context, userID string) (bool, error) {
	var expired bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE subscribers SET trial_expired_at = $2, updated_at = now()
			WHERE user_id = $1 AND subscription_status = 'trial' AND trial_ends_at <= $2 AND trial_expired_at IS NULL`,
			userID, s.now())
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		expired = true
		if err := recordChange(ctx, tx, userID, s.now(), "trial_expired", false, nil); err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, userID, EventChanged, map[string]any{"trial_expired": true, "is_premium": false})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("expire trial: %w", err)
	}
	return expired, nil
}

// MarkReminded records that the 2-day reminder was sent.
func (s *Service) MarkReminded(ctx context.Context, userID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE subscribers SET trial_reminded_at = coalesce(trial_reminded_at, now()) WHERE user_id = $1`, userID)
	if err != nil {
		return fmt.Errorf("mark trial reminded: %w", err)
	}
	return nil
}

// Roles is the auth RoleSource: "premium" for premium subscribers, "trial"
// during an active trial; until is when that role ends by the clock alone
// (the trial's end, a grace or cancelled period's end), zero when only a
// write ends it.
func (s *Service) Roles(ctx context.Context, userID string) (roles []string, until time.Time, err error) {
	v, err := s.View(ctx, userID)
	if err != nil {
		return nil, time.Time{}, err
	}
	switch {
	case v.IsPremium:
		if v.PremiumUntil != nil {
			until = *v.PremiumUntil
		}
		return []string{core.RolePremium}, until, nil
	case v.TrialActive:
		return []string{core.RoleTrial}, *v.TrialEndsAt, nil
	}
	return nil, time.Time{}, nil
}

// RolesOf is Roles for many accounts at once (the backoffice's user list):
// each account with a trial or premium role maps to it; the others are absent.
func (s *Service) RolesOf(ctx context.Context, userIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(userIDs) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+subscriberColumns+`
		FROM subscribers WHERE user_id = ANY($1::uuid[])`, userIDs)
	if err != nil {
		return nil, fmt.Errorf("subscription roles: %w", err)
	}
	defer rows.Close()
	now := s.now()
	for rows.Next() {
		var sub Subscriber
		if err := sub.scan(rows); err != nil {
			return nil, fmt.Errorf("subscription roles: %w", err)
		}
		switch v := ViewOf(&sub, now); {
		case v.IsPremium:
			out[sub.UserID] = core.RolePremium
		case v.TrialActive:
			out[sub.UserID] = core.RoleTrial
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("subscription roles: %w", err)
	}
	return out, nil
}

// ResumeEntitlements starts (or wakes) the Entitlement workflow of every
// member with a moment still ahead or overdue: an open trial, or a premium
// with an end (grace, cancelled period). A no-op for workflows already
// running (they re-read the row), the catch-up for those whose start was
// lost (the confirmation hook only logs) or whose moment passed while
// nothing ran. It returns how many members it looked at.
func (s *Service) ResumeEntitlements(ctx context.Context) (int, error) {
	return s.resume(ctx, `SELECT user_id::text FROM subscribers
		WHERE (subscription_status = 'trial' AND trial_expired_at IS NULL AND trial_ends_at IS NOT NULL)
		   OR premium_until IS NOT NULL`)
}

// ResumeOverdueEntitlements wakes the workflow of every member whose trial
// end or premium end has passed without being recorded (a notice lost while
// Temporal was unreachable, a workflow that failed): the periodic catch-up.
// Access already follows the row's times; this records the change and tells
// the member.
func (s *Service) ResumeOverdueEntitlements(ctx context.Context) (int, error) {
	return s.resume(ctx, `SELECT user_id::text FROM subscribers
		WHERE (subscription_status = 'trial' AND trial_expired_at IS NULL AND trial_ends_at <= $1)
		   OR (subscription_status = 'active' AND premium_until <= $1)`, s.now())
}

func (s *Service) resume(ctx context.Context, sql string, args ...any) (int, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return 0, fmt.Errorf("list pending entitlements: %w", err)
	}
	users, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("list pending entitlements: %w", err)
	}
	var errs []error
	for _, u := range users {
		if err := s.wf.SignalEntitlement(ctx, u, time.Time{}); err != nil {
			errs = append(errs, fmt.Errorf("entitlement workflow for %s: %w", u, err))
		}
	}
	return len(users), errors.Join(errs...)
}
