// Package subscriptions keeps each user's subscriber state (the
// subscriber row and its subscription): the trial a confirmed account starts, its
// clock (a Temporal workflow reminds 2 days before the end and expires it
// unless the billing side signals premium), the premium state, the roles
// "trial" and "premium" it adds to a principal, and the trial limits.
package subscriptions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
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
}

// ViewOf is the subscription's state at now; sub nil means no subscriber row.
func ViewOf(sub *Subscriber, now time.Time) View {
	if sub == nil {
		return View{}
	}
	v := View{Status: &sub.Status, Tier: sub.Tier, TrialEndsAt: sub.TrialEndsAt}
	v.IsPremium = sub.Status == StatusActive && sub.Tier != nil && isPremiumTier(*sub.Tier)
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

// Workflows runs the trial clock; the Temporal implementation is in workflows/.
type Workflows interface {
	StartTrialClock(ctx context.Context, userID string, endsAt time.Time) error
	SignalPremium(ctx context.Context, userID string) error
}

// NoWorkflows runs no clock: the view still derives expiry from
// trial_ends_at, but no reminder is sent. Used without a Temporal cluster.
type NoWorkflows struct{}

func (NoWorkflows) StartTrialClock(context.Context, string, time.Time) error { return nil }
func (NoWorkflows) SignalPremium(context.Context, string) error              { return nil }

// Notifier sends the trial's in-app notifications.
type Notifier interface {
	Create(ctx context.Context, userID, kind, title, message, idempotencyKey string) error
}

// Service manages subscribers.
type Service struct {
	pool     *pgxpool.Pool
	wf       Workflows
	trialLen time.Duration
	limits   map[string]int
	now      func() time.Time
	log      *slog.Logger
	counters map[string]UsageCounter // limit types a feature counts itself (limits.go)
}

// Options configures a Service.
type Options struct {
	Workflows     Workflows
	TrialDuration time.Duration
	Limits        map[string]int // trial limits per limit type
	Now           func() time.Time
	Log           *slog.Logger
}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	s := &Service{pool: pool, wf: o.Workflows, trialLen: o.TrialDuration, limits: o.Limits, now: o.Now, log: o.Log}
	if s.wf == nil {
		s.wf = NoWorkflows{}
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
	sub := Subscriber{UserID: userID}
	err := s.pool.QueryRow(ctx, `SELECT subscription_status, subscription_tier, trial_ends_at FROM subscribers WHERE user_id = $1`, userID).
		Scan(&sub.Status, &sub.Tier, &sub.TrialEndsAt)
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
	endsAt := s.now().Add(s.trialLen).UTC()
	_, err := s.pool.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, trial_ends_at)
		VALUES ($1, 'trial', $2) ON CONFLICT (user_id) DO NOTHING`, userID, endsAt)
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
	return s.wf.StartTrialClock(ctx, userID, *sub.TrialEndsAt)
}

// BecomePremium records an active premium subscription (what a paid
// checkout calls) and stops the trial clock.
func (s *Service) BecomePremium(ctx context.Context, userID, tier string) error {
	if !isPremiumTier(tier) {
		return core.Invalid("Plano inválido.", map[string]string{"subscription_tier": "Plano desconhecido."})
	}
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, subscription_tier)
			VALUES ($1, 'active', $2) ON CONFLICT (user_id) DO UPDATE
			SET subscription_status = 'active', subscription_tier = EXCLUDED.subscription_tier, updated_at = now()`, userID, tier)
		if err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, userID, EventChanged, map[string]any{"is_premium": true})
		return err
	})
	if err != nil {
		return fmt.Errorf("record premium: %w", err)
	}
	return s.wf.SignalPremium(ctx, userID)
}

// ExpireTrial marks userID's trial expired when it is still a trial whose
// end has passed and the user is not premium. It reports whether it did.
func (s *Service) ExpireTrial(ctx context.Context, userID string) (bool, error) {
	var expired bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE subscribers SET trial_expired_at = now(), updated_at = now()
			WHERE user_id = $1 AND subscription_status = 'trial' AND trial_ends_at <= $2 AND trial_expired_at IS NULL`,
			userID, s.now())
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		expired = true
		_, err = events.Publish(ctx, tx, userID, EventChanged, map[string]any{"trial_expired": true})
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
// during an active trial.
func (s *Service) Roles(ctx context.Context, userID string) ([]string, error) {
	v, err := s.View(ctx, userID)
	if err != nil {
		return nil, err
	}
	switch {
	case v.IsPremium:
		return []string{core.RolePremium}, nil
	case v.TrialActive:
		return []string{core.RoleTrial}, nil
	}
	return nil, nil
}

// RolesOf is Roles for many accounts at once (the backoffice's user list):
// each account with a trial or premium role maps to it; the others are absent.
func (s *Service) RolesOf(ctx context.Context, userIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(userIDs) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT user_id::text, subscription_status, subscription_tier, trial_ends_at
		FROM subscribers WHERE user_id = ANY($1::uuid[])`, userIDs)
	if err != nil {
		return nil, fmt.Errorf("subscription roles: %w", err)
	}
	defer rows.Close()
	now := s.now()
	for rows.Next() {
		var sub Subscriber
		if err := rows.Scan(&sub.UserID, &sub.Status, &sub.Tier, &sub.TrialEndsAt); err != nil {
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

// ResumeTrialClocks starts the clock of every trial that has not expired
// yet: a no-op for clocks already running (the workflow id is reused), and
// the catch-up for trials whose clock failed to start (the confirmation hook
// only logs) or whose end passed while nothing ran. It returns how many
// trials it looked at.
func (s *Service) ResumeTrialClocks(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT user_id, trial_ends_at FROM subscribers
		WHERE subscription_status = 'trial' AND trial_expired_at IS NULL AND trial_ends_at IS NOT NULL`)
	if err != nil {
		return 0, fmt.Errorf("list open trials: %w", err)
	}
	type trial struct {
		userID string
		endsAt time.Time
	}
	trials, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (trial, error) {
		var t trial
		err := row.Scan(&t.userID, &t.endsAt)
		return t, err
	})
	if err != nil {
		return 0, fmt.Errorf("list open trials: %w", err)
	}
	var errs []error
	for _, t := range trials {
		if err := s.wf.StartTrialClock(ctx, t.userID, t.endsAt); err != nil {
			errs = append(errs, fmt.Errorf("trial clock for %s: %w", t.userID, err))
		}
	}
	return len(trials), errors.Join(errs...)
}
