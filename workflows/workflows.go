// Package workflows holds VetClube's Temporal workflows and activities: the
// 7-day streak bonus, the daily streak reminder and the trial clock. Workflow
// code only decides; every side effect is an idempotent activity (each
// carries an idempotency key into the ledger or the notifications table), so
// retries and worker restarts never pay or notify twice.
package workflows

import (
	"cmp"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the queue VetClube's worker polls.
const TaskQueue = "vetclube"

// SignalPremium tells a trial clock that the user became premium.
const SignalPremium = "premium"

// Workflow ids: one bonus per user and completed streak, one trial clock per
// user (and, retired, one reminder loop per user).
func StreakBonusID(userID, streakDate string) string {
	return "checkin-bonus/" + userID + "/" + streakDate
}
func StreakReminderID(userID string) string { return "streak-reminder/" + userID }
func TrialID(userID string) string          { return "trial/" + userID }

// StreakBonusInput names one completed streak.
type StreakBonusInput struct {
	UserID     string
	StreakDate string // local date of the 7th check-in, YYYY-MM-DD
}

// StreakBonus credits +100 VetCoins for a completed streak and notifies the user.
func StreakBonus(ctx workflow.Context, in StreakBonusInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
			// The check-in may have rolled back after starting this workflow;
			// then the credit activity never finds it and the workflow gives up.
			MaximumAttempts: 25,
		},
	})
	var a *Activities
	var credited bool
	if err := workflow.ExecuteActivity(ctx, a.CreditStreakBonus, in).Get(ctx, &credited); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, a.NotifyStreakBonus, in).Get(ctx, nil)
}

// StreakReminderInput is the reminder loop's state across continue-as-new.
type StreakReminderInput struct {
	UserID string
	// Rounds counts reminders planned in this run.
	Rounds int
}

// reminderRoundsPerRun bounds the history: after this many days the workflow
// continues as new with an empty history.
const reminderRoundsPerRun = 30

// ReminderPlan is when (and whether) to remind next.
type ReminderPlan struct {
	Active bool      // a streak is running
	At     time.Time // the next 20:00 local time the user has not checked in by
	Day    string    // that local day
}

// StreakReminderSweepID is the one reminder sweep of the deployment.
const StreakReminderSweepID = "streak-reminder-sweep"

// ReminderSweepInput configures the reminder sweep.
type ReminderSweepInput struct {
	// Every is the longest wait between sweeps (default five minutes); the
	// sweep also wakes at the next pending reminder's moment.
	Every time.Duration
	// Rounds before continuing as new (default 240).
	Rounds int
}

// StreakReminderSweep sends "Não perca sua sequência de N dias!" at 20:00
// local time to members whose streak runs and who have not checked in that
// day, for the whole deployment: each round sends what is due, then sleeps
// until the next pending moment or Every, whichever comes first. It never
// ends (continues as new). One workflow instead of one per running streak:
// a check-in only stores its reminder's moment.
func StreakReminderSweep(ctx workflow.Context, in ReminderSweepInput) error {
	var a *Activities
	err := sweepRounds(ctx, cmp.Or(in.Every, 5*time.Minute), cmp.Or(in.Rounds, 240), "send streak reminders",
		func(actx workflow.Context) (bool, time.Time, error) {
			var res ReminderSweepResult
			err := workflow.ExecuteActivity(actx, a.SendDueStreakReminders, workflow.Now(ctx)).Get(actx, &res)
			return res.Handled == streakReminderBatch, res.Next, err
		})
	if err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, StreakReminderSweep, in)
}

// StreakReminder is the retired per-user reminder loop, still registered so
// loops started before StreakReminderSweep finish: its plan activity now
// answers inactive, so each ends after its pending reminder (sent with the
// sweep's notification key, hence never twice).
func StreakReminder(ctx workflow.Context, in StreakReminderInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	var a *Activities
	for ; in.Rounds < reminderRoundsPerRun; in.Rounds++ {
		var plan ReminderPlan
		if err := workflow.ExecuteActivity(ctx, a.PlanStreakReminder, in.UserID).Get(ctx, &plan); err != nil {
			return err
		}
		if !plan.Active {
			return nil
		}
		if wait := plan.At.Sub(workflow.Now(ctx)); wait > 0 {
			if err := workflow.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		if err := workflow.ExecuteActivity(ctx, a.SendStreakReminder, in.UserID, plan.Day).Get(ctx, nil); err != nil {
			return err
		}
	}
	return workflow.NewContinueAsNewError(ctx, StreakReminder, StreakReminderInput{UserID: in.UserID})
}

// TrialInput is one user's trial.
type TrialInput struct {
	UserID string
	EndsAt time.Time
}

// trialReminderLead is how long before the end the reminder goes out.
const trialReminderLead = 48 * time.Hour

// TrialOutcome is how a trial clock ended.
type TrialOutcome string

const (
	TrialBecamePremium TrialOutcome = "premium"
	TrialExpired       TrialOutcome = "expired"
)

// Trial runs a trial's clock: a reminder 2 days before the end, and expiry
// at the end unless the premium signal arrived first.
func Trial(ctx workflow.Context, in TrialInput) (TrialOutcome, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	premium := false
	signals := workflow.GetSignalChannel(ctx, SignalPremium)
	workflow.Go(ctx, func(ctx workflow.Context) {
		signals.Receive(ctx, nil)
		premium = true
	})
	var a *Activities

	if wait := in.EndsAt.Add(-trialReminderLead).Sub(workflow.Now(ctx)); wait > 0 {
		if _, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return premium }); err != nil {
			return "", err
		}
		if premium {
			return TrialBecamePremium, nil
		}
		if err := workflow.ExecuteActivity(ctx, a.SendTrialReminder, in.UserID).Get(ctx, nil); err != nil {
			return "", err
		}
	}
	if wait := in.EndsAt.Sub(workflow.Now(ctx)); wait > 0 {
		if _, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return premium }); err != nil {
			return "", err
		}
	}
	if premium {
		return TrialBecamePremium, nil
	}
	var expired bool
	if err := workflow.ExecuteActivity(ctx, a.ExpireTrial, in.UserID).Get(ctx, &expired); err != nil {
		return "", err
	}
	if !expired {
		// The user became premium through another path (the database says so).
		return TrialBecamePremium, nil
	}
	return TrialExpired, nil
}

var errMissingDependency = errors.New("workflows: activity dependency not configured")
