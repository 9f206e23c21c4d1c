package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/workflows"
)

var t0 = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func TestTrialRemindsTwoDaysBeforeAndExpires(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(t0)
	var a *workflows.Activities
	env.RegisterActivity(a)
	var remindedAt, expiredAt time.Time
	env.OnActivity(a.SendTrialReminder, mock.Anything, "u1").Return(func(context.Context, string) error {
		remindedAt = env.Now()
		return nil
	}).Once()
	env.OnActivity(a.ExpireTrial, mock.Anything, "u1").Return(func(context.Context, string) (bool, error) {
		expiredAt = env.Now()
		return true, nil
	}).Once()

	env.ExecuteWorkflow(workflows.Trial, workflows.TrialInput{UserID: "u1", EndsAt: t0.Add(7 * 24 * time.Hour)})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var outcome workflows.TrialOutcome
	if err := env.GetWorkflowResult(&outcome); err != nil || outcome != workflows.TrialExpired {
		t.Fatalf("outcome %q err %v", outcome, err)
	}
	if want := t0.Add(5 * 24 * time.Hour); !remindedAt.Equal(want) {
		t.Errorf("reminded at %s, want %s", remindedAt, want)
	}
	if want := t0.Add(7 * 24 * time.Hour); !expiredAt.Equal(want) {
		t.Errorf("expired at %s, want %s", expiredAt, want)
	}
	env.AssertExpectations(t)
}

func TestPremiumSignalStopsExpiry(t *testing.T) {
	for _, tt := range []struct {
		name       string
		signalAt   time.Duration
		wantRemind bool
	}{
		{"after the reminder", 6 * 24 * time.Hour, true},
		{"before the reminder", 24 * time.Hour, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.SetStartTime(t0)
			var a *workflows.Activities
			env.RegisterActivity(a)
			reminded, expired := 0, 0
			env.OnActivity(a.SendTrialReminder, mock.Anything, "u1").Return(func(context.Context, string) error { reminded++; return nil })
			env.OnActivity(a.ExpireTrial, mock.Anything, "u1").Return(func(context.Context, string) (bool, error) { expired++; return true, nil })
			env.RegisterDelayedCallback(func() { env.SignalWorkflow(workflows.SignalPremium, nil) }, tt.signalAt)

			env.ExecuteWorkflow(workflows.Trial, workflows.TrialInput{UserID: "u1", EndsAt: t0.Add(7 * 24 * time.Hour)})
			var outcome workflows.TrialOutcome
			if err := env.GetWorkflowResult(&outcome); err != nil || outcome != workflows.TrialBecamePremium {
				t.Fatalf("outcome %q err %v", outcome, err)
			}
			if expired != 0 {
				t.Errorf("trial expired %d times after the premium signal", expired)
			}
			if (reminded == 1) != tt.wantRemind || reminded > 1 {
				t.Errorf("reminded %d times, want reminder=%v", reminded, tt.wantRemind)
			}
		})
	}
}

func TestStreakReminderWaitsForEightPMAndContinuesAsNew(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(t0)
	var a *workflows.Activities
	env.RegisterActivity(a)
	var sentAt []time.Time
	env.OnActivity(a.PlanStreakReminder, mock.Anything, "u1").Return(func(context.Context, string) (workflows.ReminderPlan, error) {
		// 20:00 in São Paulo is 23:00 UTC.
		now := env.Now().UTC()
		at := time.Date(now.Year(), now.Month(), now.Day(), 23, 0, 0, 0, time.UTC)
		if !now.Before(at) {
			at = at.Add(24 * time.Hour)
		}
		return workflows.ReminderPlan{Active: true, At: at, Day: at.Format(time.DateOnly)}, nil
	})
	env.OnActivity(a.SendStreakReminder, mock.Anything, "u1", mock.Anything).Return(func(context.Context, string, string) error {
		sentAt = append(sentAt, env.Now())
		return nil
	})
	env.ExecuteWorkflow(workflows.StreakReminder, workflows.StreakReminderInput{UserID: "u1"})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	if len(sentAt) != 30 {
		t.Fatalf("sent %d reminders before continuing as new, want 30", len(sentAt))
	}
	for i, at := range sentAt {
		if want := time.Date(2026, 3, 10+i, 23, 0, 0, 0, time.UTC); !at.Equal(want) {
			t.Fatalf("reminder %d at %s, want %s", i, at, want)
		}
	}
}

func TestStreakReminderEndsWhenNoStreakRuns(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var a *workflows.Activities
	env.RegisterActivity(a)
	env.OnActivity(a.PlanStreakReminder, mock.Anything, "u1").Return(workflows.ReminderPlan{}, nil).Once()
	env.ExecuteWorkflow(workflows.StreakReminder, workflows.StreakReminderInput{UserID: "u1"})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
}

// The reminder sweep runs its real activity against PostgreSQL: each
// member is reminded once, at 20:00 local time on the day after a check-in
// they have not followed, with the streak's length; a reminder whose day is
// over is dropped; a check-in the next day moves the reminder a day on.
func TestStreakReminderSweepRemindsOnTimeOnce(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var now atomic.Pointer[time.Time]
	checkInAt := func(user string, at time.Time) {
		t.Helper()
		now.Store(&at)
		if _, err := svc(pool, &now).CheckIn(ctx, user, ""); err != nil {
			t.Fatal(err)
		}
	}
	late, moved, stale := newUser(t, pool), newUser(t, pool), newUser(t, pool)
	checkInAt(late, t0)                     // reminded March 11, 20:00 in São Paulo (23:00 UTC)
	checkInAt(moved, t0)                    // checks in again on March 11 ...
	checkInAt(moved, t0.Add(27*time.Hour))  // ... so is reminded on March 12
	checkInAt(stale, t0.Add(-48*time.Hour)) // due March 9: its day is over before the sweep runs
	acts := &workflows.Activities{Checkin: svc(pool, &now), Notifications: notifications.New(pool)}

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(t0)
	env.RegisterActivity(acts)
	var sentAt []time.Time
	env.OnActivity(acts.SendDueStreakReminders, mock.Anything, mock.Anything).Return(
		func(ctx context.Context, at time.Time) (workflows.ReminderSweepResult, error) {
			res, err := acts.SendDueStreakReminders(ctx, at)
			for range res.Sent {
				sentAt = append(sentAt, at.UTC())
			}
			return res, err
		})
	env.ExecuteWorkflow(workflows.StreakReminderSweep, workflows.ReminderSweepInput{Every: 6 * time.Hour, Rounds: 12})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("sweep ended with %v, want continue-as-new", err)
	}
	want := []time.Time{time.Date(2026, 3, 11, 23, 0, 0, 0, time.UTC), time.Date(2026, 3, 12, 23, 0, 0, 0, time.UTC)}
	if len(sentAt) != 2 || !sentAt[0].Equal(want[0]) || !sentAt[1].Equal(want[1]) {
		t.Fatalf("reminders sent at %v, want %v", sentAt, want)
	}
	for user, message := range map[string]string{late: "Não perca sua sequência de 1 dia!", moved: "Não perca sua sequência de 2 dias!", stale: ""} {
		list, err := notifications.New(pool).List(ctx, user, 10)
		if err != nil {
			t.Fatal(err)
		}
		if message == "" && len(list) != 0 || message != "" && (len(list) != 1 || list[0].Title != workflows.StreakReminderTitle || list[0].Message != message) {
			t.Fatalf("user %s notifications %+v, want %q", user, list, message)
		}
	}
	// Everything due was cleared: a later sweep finds nothing to send.
	if res, err := acts.SendDueStreakReminders(ctx, time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)); err != nil || res.Handled != 0 {
		t.Fatalf("later sweep %+v %v", res, err)
	}
}

func svc(pool *pgxpool.Pool, now *atomic.Pointer[time.Time]) *checkin.Service {
	return checkin.New(pool, checkin.Options{Workflows: &recordingWorkflows{}, Now: func() time.Time { return *now.Load() }})
}

// recordingWorkflows stands in for Temporal in the check-in service, so the
// test drives the bonus workflow itself.
type recordingWorkflows struct{ streaks []checkin.Date }

func (r *recordingWorkflows) StartStreakBonus(_ context.Context, _ points.Querier, _ string, d checkin.Date) error {
	r.streaks = append(r.streaks, d)
	return nil
}

func newUser(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("w%d@example.com", rand.Int64())).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The bonus workflow runs its real activities against PostgreSQL; the
// credit "crashes" after committing on its first attempt, the workflow is
// retried, and it is then started a second time: +100 is paid exactly once
// and the user is notified once.
func TestStreakBonusPaysOnceAcrossRetries(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var now atomic.Pointer[time.Time]
	clock := func() time.Time { return *now.Load() }
	rec := &recordingWorkflows{}
	svc := checkin.New(pool, checkin.Options{Workflows: rec, Now: clock})
	user := newUser(t, pool)
	for day := range 7 {
		d := t0.Add(time.Duration(day) * 24 * time.Hour)
		now.Store(&d)
		if _, err := svc.CheckIn(ctx, user, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The check-in leaves the bonus start in its outbox; the relay asks the
	// engine for it.
	if _, err := checkin.NewRelay(pool, rec, checkin.RelayOptions{}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rec.streaks) != 1 {
		t.Fatalf("bonus workflow requested %d times, want 1", len(rec.streaks))
	}
	acts := &workflows.Activities{Pool: pool, Checkin: svc, Notifications: notifications.New(pool)}
	in := workflows.StreakBonusInput{UserID: user, StreakDate: rec.streaks[0].String()}

	for run := range 2 {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterActivity(acts)
		attempts := 0
		env.OnActivity(acts.CreditStreakBonus, mock.Anything, in).Return(func(ctx context.Context, in workflows.StreakBonusInput) (bool, error) {
			attempts++
			credited, err := acts.CreditStreakBonus(ctx, in)
			if run == 0 && attempts == 1 && err == nil {
				return false, errors.New("worker lost after the credit committed")
			}
			return credited, err
		})
		env.ExecuteWorkflow(workflows.StreakBonus, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if run == 0 && attempts != 2 {
			t.Fatalf("credit attempts %d, want 2 (one failure, one retry)", attempts)
		}
	}
	var bonuses int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM points_ledger WHERE user_id = $1 AND kind = 'checkin_bonus'`, user).Scan(&bonuses); err != nil {
		t.Fatal(err)
	}
	b, err := points.New(pool).Balance(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if bonuses != 1 || b.TotalPoints != 7*checkin.Points+checkin.BonusPoints {
		t.Fatalf("%d bonus entries, balance %d; want 1 and %d", bonuses, b.TotalPoints, 7*checkin.Points+checkin.BonusPoints)
	}
	list, err := notifications.New(pool).List(ctx, user, 10)
	if err != nil || len(list) != 1 || list[0].Title != workflows.StreakBonusTitle {
		t.Fatalf("notifications %+v err %v, want one bonus notification", list, err)
	}
}
