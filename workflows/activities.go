package workflows

import (
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

// reminderHour is the local hour of the streak reminder.
const reminderHour = 20

// PlanStreakReminder decides when to remind next: today at 20:00 local time
// if the user has a running streak and has not checked in yet, otherwise
// tomorrow at 20:00; inactive when there is no running streak.
func (a *Activities) PlanStreakReminder(ctx context.Context, userID string) (ReminderPlan, error) {
	if a.Checkin == nil {
		return ReminderPlan{}, errMissingDependency
	}
	st, err := a.Checkin.Get(ctx, userID)
	if err != nil {
		return ReminderPlan{}, err
	}
	if st.SequenceCount == 0 || st.Broken {
		return ReminderPlan{}, nil
	}
	loc, err := time.LoadLocation(st.TimeZone)
	if err != nil {
		return ReminderPlan{}, temporal.NewNonRetryableApplicationError("unknown time zone", "BadInput", err)
	}
	now := a.now().In(loc)
	at := time.Date(now.Year(), now.Month(), now.Day(), reminderHour, 0, 0, 0, loc)
	if st.CheckedInToday || !now.Before(at) {
		at = time.Date(now.Year(), now.Month(), now.Day()+1, reminderHour, 0, 0, 0, loc)
	}
	return ReminderPlan{Active: true, At: at, Day: at.Format(time.DateOnly)}, nil
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
