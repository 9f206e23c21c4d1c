package workflows

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/temporal"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// Activities are the side effects the workflows ask for. Each one is
// idempotent: its ledger or notification key is derived from its input.
type Activities struct {
	Pool          *pgxpool.Pool
	Checkin       *checkin.Service
	Notifications *notifications.Service
	Subscriptions *subscriptions.Service
	// Mailer sends the trial reminders' e-mails (nil: in-app and push only)
	// to the address Recipient gives (core/auth's Email).
	Mailer    mail.Mailer
	Recipient func(ctx context.Context, userID string) (string, error)
	// PublicURL is the app's address the e-mails link to.
	PublicURL string
	// Now is the activities' clock (workflows use workflow.Now).
	Now func() time.Time
}

func (a *Activities) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// CreditStreakBonus credits +100 for the streak; true when this call credited.
func (a *Activities) CreditStreakBonus(ctx context.Context, in StreakBonusInput) (bool, error) {
	if a.Pool == nil {
		return false, errMissingDependency
	}
	d, err := checkin.ParseDate(in.StreakDate)
	if err != nil {
		return false, temporal.NewNonRetryableApplicationError("bad streak date", "BadInput", err)
	}
	return checkin.CreditStreakBonus(ctx, a.Pool, in.UserID, d)
}

// Streak bonus notification texts.
const (
	StreakBonusTitle   = "Bônus semanal conquistado!"
	StreakBonusMessage = "Você completou 7 dias seguidos de check-in e ganhou +100 VetCoins!"
)

// NotifyStreakBonus tells the user about the bonus, once.
func (a *Activities) NotifyStreakBonus(ctx context.Context, in StreakBonusInput) error {
	if a.Notifications == nil {
		return errMissingDependency
	}
	_, _, err := a.Notifications.Create(ctx, in.UserID, "checkin", StreakBonusTitle, StreakBonusMessage,
		"notify:checkin-bonus:"+in.UserID+":"+in.StreakDate)
	return err
}

// PlanStreakReminder belongs to the retired per-user reminder loop
// (StreakReminder): it now always answers inactive, so loops still running
// end after their pending reminder, and StreakReminderSweep reminds
// instead.
func (a *Activities) PlanStreakReminder(ctx context.Context, userID string) (ReminderPlan, error) {
	return ReminderPlan{}, nil
}

// StreakReminderTitle is the reminder's title; its message names the streak.
const StreakReminderTitle = "Check-in diário"

// StreakReminderMessage is "Não perca sua sequência de N dias!".
func StreakReminderMessage(days int) string {
	if days == 1 {
		return "Não perca sua sequência de 1 dia!"
	}
	return fmt.Sprintf("Não perca sua sequência de %d dias!", days)
}

// SendStreakReminder notifies the user on day unless they have checked in
// meanwhile or the streak ended; once per user and day.
func (a *Activities) SendStreakReminder(ctx context.Context, userID, day string) error {
	if a.Checkin == nil || a.Notifications == nil {
		return errMissingDependency
	}
	st, err := a.Checkin.Get(ctx, userID)
	if err != nil {
		return err
	}
	if st.CheckedInToday || st.SequenceCount == 0 || st.Broken || st.Today != day {
		return nil
	}
	_, _, err = a.Notifications.Create(ctx, userID, "checkin", StreakReminderTitle, StreakReminderMessage(st.SequenceCount),
		"notify:streak-reminder:"+userID+":"+day)
	return err
}

// streakReminderBatch is how many due reminders one activity handles.
const streakReminderBatch = 500

// ReminderSweepResult is one sweep's outcome.
type ReminderSweepResult struct {
	Handled int // reminders taken off the list (sent, or dropped as stale)
	Sent    int
	// Next is the earliest reminder not yet due (zero: none).
	Next time.Time
}

// SendDueStreakReminders sends the streak reminders due at now (the
// workflow's clock) and clears them. A reminder's notification key is its
// user and day, so a retried or overlapping sweep sends nothing twice.
func (a *Activities) SendDueStreakReminders(ctx context.Context, now time.Time) (ReminderSweepResult, error) {
	if a.Checkin == nil || a.Notifications == nil {
		return ReminderSweepResult{}, errMissingDependency
	}
	due, next, err := a.Checkin.DueReminders(ctx, now, streakReminderBatch)
	if err != nil {
		return ReminderSweepResult{}, err
	}
	res := ReminderSweepResult{Handled: len(due), Next: next}
	// One reminder that cannot be sent does not hold back the others: it
	// stays listed for the next round (until its day is over) and its
	// error is returned once the rest are cleared.
	var failed error
	done := due[:0:0]
	for _, d := range due {
		if d.StillDue(now) {
			if _, _, err := a.Notifications.Create(ctx, d.UserID, "checkin", StreakReminderTitle, StreakReminderMessage(d.Sequence),
				"notify:streak-reminder:"+d.UserID+":"+d.Day); err != nil {
				failed = cmp.Or(failed, fmt.Errorf("streak reminder for %s: %w", d.UserID, err))
				continue
			}
			res.Sent++
		}
		done = append(done, d)
	}
	if err := a.Checkin.ClearReminders(ctx, done); err != nil {
		return res, err
	}
	return res, failed
}

// Trial notification texts.
const (
	TrialReminderTitle   = "Seu teste Premium termina em 2 dias"
	TrialReminderMessage = "Aproveite os recursos Premium e faça upgrade para não perder o acesso."
	TrialExpiredTitle    = "Trial Premium Expirado"
	TrialExpiredMessage  = "Seu período de teste terminou. Faça upgrade para continuar com acesso ilimitado."
)

// SendTrialReminder notifies the user 2 days before the trial ends, once
// (the former Trial clock's reminder).
func (a *Activities) SendTrialReminder(ctx context.Context, userID string) error {
	if a.Subscriptions == nil || a.Notifications == nil {
		return errMissingDependency
	}
	sub, err := a.Subscriptions.Get(ctx, userID)
	if err != nil || sub == nil {
		return err
	}
	// The Entitlement workflow (resumed for this trial too) reminds 3 days
	// and 1 day before; once it has, this older clock stays quiet.
	if sub.Reminded3dAt != nil || sub.Reminded1dAt != nil {
		return nil
	}
	v, err := a.Subscriptions.View(ctx, userID)
	if err != nil {
		return err
	}
	if !v.TrialActive || v.IsPremium {
		return nil
	}
	if _, _, err := a.Notifications.Create(ctx, userID, "other", TrialReminderTitle, TrialReminderMessage, "notify:trial-reminder:"+userID); err != nil {
		return err
	}
	return a.Subscriptions.MarkReminded(ctx, userID)
}

// ExpireTrial ends the trial unless the user is premium; true when it expired.
func (a *Activities) ExpireTrial(ctx context.Context, userID string) (bool, error) {
	if a.Subscriptions == nil || a.Notifications == nil {
		return false, errMissingDependency
	}
	expired, err := a.Subscriptions.ExpireTrial(ctx, userID)
	if err != nil {
		return false, err
	}
	v, err := a.Subscriptions.View(ctx, userID)
	if err != nil {
		return false, err
	}
	if !v.TrialExpired {
		return false, nil
	}
	// Notify also on a retry after the expiry committed but before the
	// notification did: the key keeps it to one.
	_, _, err = a.Notifications.Create(ctx, userID, "other", TrialExpiredTitle, TrialExpiredMessage, "notify:trial-expired:"+userID)
	return expired || v.TrialExpired, err
}
