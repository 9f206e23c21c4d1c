package workflows_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// relayEnv makes the test binary a check-in outbox relay that dies by
// SIGKILL in the middle of its first delivery: "before" the start reaches
// Temporal, or "after" Temporal accepted it and before the row's deletion
// commits.
const relayEnv = "VETCLUBE_E2E_CRASHING_RELAY"

// relayLease is the crashing relays' lease: their rows are claimable again
// that long after the crash.
const relayLease = 500 * time.Millisecond

// crashing wraps the engine and kills the process around its first start.
type crashing struct {
	workflows.Engine
	after bool
}

func (c crashing) StartStreakBonus(ctx context.Context, tx points.Querier, userID string, d checkin.Date) error {
	if !c.after {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	err := c.Engine.StartStreakBonus(ctx, tx, userID, d)
	if err == nil && c.after {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	return err
}

func runCrashingRelay(mode string) error {
	ctx := context.Background()
	pool, err := postgres.Open(ctx, os.Getenv("E2E_DATABASE_URL"))
	if err != nil {
		return err
	}
	c, err := workflows.Dial(ctx, os.Getenv("E2E_TEMPORAL_ADDRESS"), "default", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	relay := checkin.NewRelay(pool, crashing{Engine: workflows.Engine{Client: c}, after: mode == "after"}, checkin.RelayOptions{Lease: relayLease})
	_, err = relay.Drain(ctx)
	return err
}

// runRelayProcess runs the crashing relay and waits for its death.
func runRelayProcess(t *testing.T, dbURL, temporalAddr, mode string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), relayEnv+"="+mode, "E2E_DATABASE_URL="+dbURL, "E2E_TEMPORAL_ADDRESS="+temporalAddr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("relay process (%s) did not die by SIGKILL: %v", mode, err)
	}
}

// A completed streak's bonus goes through the check-in outbox: a relay
// killed before the start and one killed after Temporal accepted it but
// before the row's deletion both leave the row, claimable again when its
// lease ends; a restarted relay delivers it, and the member is credited
// exactly once (the workflow id refuses the second start).
func TestE2EOutboxSurvivesRelayCrashes(t *testing.T) {
	dev := devServer(t, "")
	dbURL := pgtest.NewURL(t)
	ctx := context.Background()
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	c, err := workflows.Dial(ctx, dev.Addr, "default", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	engine := workflows.Engine{Client: c}
	svc := checkin.New(pool, checkin.Options{Workflows: engine})
	w := workflows.NewWorker(c, &workflows.Activities{
		Pool:          pool,
		Checkin:       svc,
		Notifications: notifications.New(pool),
		Subscriptions: subscriptions.New(pool, subscriptions.Options{Workflows: engine}),
	})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	user := newUser(t, pool)
	// Six consecutive days already done, the last one yesterday (local).
	if _, err := pool.Exec(ctx, `INSERT INTO user_daily_checkin (user_id, last_checkin, sequence_count, total_checkins, total_checkin_points)
		VALUES ($1, (now() AT TIME ZONE 'America/Sao_Paulo')::date - 1, 6, 6, 30)`, user); err != nil {
		t.Fatal(err)
	}
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || !res.CompletedStreak {
		t.Fatalf("7th check-in: %+v %v", res, err)
	}
	d, _ := checkin.ParseDate(res.Today)
	id := workflows.StreakBonusID(user, d.String())
	pending := func() int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM checkin_outbox WHERE user_id = $1 AND kind = 'streak_bonus'`, user).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	started := func() bool {
		_, err := c.DescribeWorkflowExecution(ctx, id, "")
		return err == nil
	}
	if pending() != 1 || started() {
		t.Fatalf("after the commit: %d outbox rows, workflow started %v", pending(), started())
	}

	runRelayProcess(t, dbURL, dev.Addr, "before")
	if pending() != 1 || started() {
		t.Fatalf("after a crash before the start: %d outbox rows, workflow started %v", pending(), started())
	}
	time.Sleep(relayLease + 100*time.Millisecond)
	runRelayProcess(t, dbURL, dev.Addr, "after")
	if pending() != 1 || !started() {
		t.Fatalf("after a crash after the start: %d outbox rows, workflow started %v", pending(), started())
	}

	relay := checkin.NewRelay(pool, engine, checkin.RelayOptions{})
	if n, err := relay.Drain(ctx); err != nil || n != 0 {
		t.Fatalf("a relay delivered %d rows (%v) still leased by the dead one", n, err)
	}
	time.Sleep(relayLease + 100*time.Millisecond)
	if n, err := relay.Drain(ctx); err != nil || n != 1 {
		t.Fatalf("restarted relay delivered %d (%v)", n, err)
	}
	if pending() != 0 {
		t.Fatal("the delivered row is still in the outbox")
	}
	ledger := points.New(pool)
	eventually(t, 30*time.Second, "the bonus credit", func() bool {
		b, err := ledger.Balance(ctx, user)
		return err == nil && b.TotalPoints == 105
	})
	if err := c.GetWorkflow(ctx, id, "").Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var credits int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM points_ledger WHERE user_id = $1 AND kind = $2`,
		user, points.KindCheckinBonus).Scan(&credits); err != nil || credits != 1 {
		t.Fatalf("%d bonus credits (%v), want 1", credits, err)
	}
	if n := historyCount(t, c, id, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED); n != 1 {
		t.Fatalf("workflow %s started %d times", id, n)
	}
}
