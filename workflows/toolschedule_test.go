package workflows_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/toolschedule"
	"github.com/vetclube/vetclube/workflows"
)

// The sweep, in the time-skipping suite with the real activity on
// PostgreSQL: a vaccine reminder scheduled 3 days ahead reaches the
// notifications table once, on its moment (within the sweep's period); one
// moved while the sweep sleeps arrives at its new moment only; a cancelled
// one never arrives.
func TestToolNotificationSweepDeliversOnTimeOnce(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	start := time.Date(2026, 3, 10, 13, 0, 0, 0, time.UTC)
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	svc := toolschedule.New(pool, toolschedule.Options{Sender: notifications.New(pool)})
	env.RegisterActivity(&workflows.ToolScheduleActivities{Schedule: svc})

	var ana string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('ana@example.com') RETURNING id::text`).Scan(&ana); err != nil {
		t.Fatal(err)
	}
	day3 := time.Date(2026, 3, 13, 11, 0, 0, 0, time.UTC) // 08:00 in São Paulo
	sched := func(key string, at time.Time, title string) {
		t.Helper()
		if _, _, err := svc.Schedule(ctx, "prontuario-vet", ana, key, at, title, "Próxima dose", "/ferramentas/prontuario-vet"); err != nil {
			t.Fatal(err)
		}
	}
	sched("vacina:rex:dia", day3, "Vacina de Rex hoje")
	sched("vacina:mia:dia", day3, "Vacina de Mia hoje")
	sched("vacina:bob:dia", day3, "Vacina de Bob hoje")

	count := func(title string) int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND title = $2`, ana, title).Scan(&n); err != nil {
			t.Error(err)
		}
		return n
	}
	var beforeDue, atDue, mia2 int
	// Day 1: Mia's dose moves to day 4; Bob's record is deleted.
	env.RegisterDelayedCallback(func() {
		sched("vacina:mia:dia", day3.Add(24*time.Hour), "Vacina de Mia hoje")
		if n, err := svc.Cancel(ctx, "prontuario-vet", ana, "vacina:bob:", true); err != nil || n != 1 {
			t.Errorf("cancel: %d %v", n, err)
		}
	}, 24*time.Hour)
	env.RegisterDelayedCallback(func() { beforeDue = count("Vacina de Rex hoje") }, day3.Sub(start)-time.Minute)
	env.RegisterDelayedCallback(func() { atDue = count("Vacina de Rex hoje") }, day3.Sub(start)+2*time.Minute)
	env.RegisterDelayedCallback(func() { mia2 = count("Vacina de Mia hoje") }, day3.Sub(start)+2*time.Hour)

	// Five days of rounds of at most an hour each, then continue-as-new.
	env.ExecuteWorkflow(workflows.ToolNotificationSweep, workflows.ToolSweepInput{Every: time.Hour, Rounds: 140})
	if !env.IsWorkflowCompleted() {
		t.Fatal("the sweep did not reach its continue-as-new")
	}
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	if beforeDue != 0 || atDue != 1 {
		t.Fatalf("Rex's reminder: %d a minute before its moment, %d two minutes after (want 0 and 1)", beforeDue, atDue)
	}
	if mia2 != 0 {
		t.Fatal("Mia's moved reminder arrived at its old moment")
	}
	if n := count("Vacina de Rex hoje"); n != 1 {
		t.Fatalf("Rex's reminder arrived %d times", n)
	}
	if n := count("Vacina de Mia hoje"); n != 1 {
		t.Fatalf("Mia's reminder arrived %d times at its new moment", n)
	}
	if n := count("Vacina de Bob hoje"); n != 0 {
		t.Fatal("a cancelled reminder arrived")
	}
	var deliveredAt time.Time
	if err := pool.QueryRow(ctx, `SELECT delivered_at FROM tool_scheduled_notifications WHERE key = 'vacina:rex:dia'`).Scan(&deliveredAt); err != nil {
		t.Fatal(err)
	}
	if deliveredAt.Before(day3) || deliveredAt.After(day3.Add(time.Minute)) {
		t.Fatalf("delivered at %v, due %v", deliveredAt, day3)
	}
}
