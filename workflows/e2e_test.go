package workflows_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// workerEnv makes the test binary act as a standalone worker process, so a
// test can kill -9 it in the middle of a workflow.
const workerEnv = "VETCLUBE_E2E_WORKER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(relayEnv); mode != "" {
		if err := runCrashingRelay(mode); err != nil {
			fmt.Fprintln(os.Stderr, "relay process:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(workerEnv) == "1" {
		if err := runWorkerProcess(); err != nil {
			fmt.Fprintln(os.Stderr, "worker process:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runWorkerProcess() error {
	ctx := context.Background()
	pool, err := postgres.Open(ctx, os.Getenv("E2E_DATABASE_URL"))
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := workflows.Dial(ctx, os.Getenv("E2E_TEMPORAL_ADDRESS"), "default", log)
	if err != nil {
		return err
	}
	engine := workflows.Engine{Client: c}
	acts := &workflows.Activities{
		Pool:          pool,
		Checkin:       checkin.New(pool, checkin.Options{Workflows: engine}),
		Notifications: notifications.New(pool),
		Subscriptions: subscriptions.New(pool, subscriptions.Options{Workflows: engine}),
	}
	w := workflows.NewWorker(c, acts)
	if err := w.Start(); err != nil {
		return err
	}
	// With VAPID keys, the process also sends Web Push (the kill -9 fan-out test).
	if pub := os.Getenv("E2E_VAPID_PUBLIC"); pub != "" {
		pushSvc := push.New(pool, push.Options{Keys: &push.Keys{Public: pub, Private: os.Getenv("E2E_VAPID_PRIVATE")},
			AllowLocalServices: true, Concurrency: 8, BaseBackoff: 300 * time.Millisecond, ClaimTTL: 3 * time.Second,
			Starter: engine})
		pw := workflows.NewPushWorker(c, &workflows.PushActivities{Push: pushSvc, BatchSize: 100})
		if err := pw.Start(); err != nil {
			return err
		}
	}
	fmt.Println("worker ready")
	select {}
}

// devServer starts bin/temporal-dev (building it when missing) on a fresh
// SQLite file, or on dbPath when given.
func devServer(t *testing.T, dbPath string) *workflows.DevServer {
	t.Helper()
	bin := devServerBinary(t)
	if dbPath == "" {
		dbPath = filepath.Join(t.TempDir(), "temporal.sqlite")
	}
	s, err := workflows.StartDevServer(context.Background(), bin, dbPath, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	return s
}

// devServerBinary is bin/temporal-dev's absolute path, built when missing.
func devServerBinary(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../bin/temporal-dev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Log("building bin/temporal-dev (make build-temporal)")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = "devserver"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build temporal-dev: %v\n%s", err, out)
		}
	}
	return bin
}

func startWorkerProcess(t *testing.T, dbURL, temporalAddr string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1", "E2E_DATABASE_URL="+dbURL, "E2E_TEMPORAL_ADDRESS="+temporalAddr)
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "worker ready" {
				close(ready)
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("worker process not ready")
	}
	return cmd
}

// historyHas reports whether workflow id's current run has an event of
// type typ in its history.
func historyHas(t *testing.T, c client.Client, id string, typ enumspb.EventType) bool {
	t.Helper()
	return historyCount(t, c, id, typ) > 0
}

// historyCount is how many events of type typ workflow id's current run has.
func historyCount(t *testing.T, c client.Client, id string, typ enumspb.EventType) int {
	t.Helper()
	n := 0
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatalf("history of %s: %v", id, err)
		}
		if e.GetEventType() == typ {
			n++
		}
	}
	return n
}

func eventually(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The worker process is killed (SIGKILL) while a member's Entitlement
// workflow waits for the trial's end; the end passes with no worker, nothing
// happens; a new worker process picks the workflow up and it completes:
// expired and notified once. Starting it again and signalling it while it
// runs (a second confirmation, a billing notice) is harmless.
func TestE2ETrialCompletesAfterWorkerIsKilled(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewURL(t)
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	dev := devServer(t, "")
	c, err := client.Dial(client.Options{HostPort: dev.Addr, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	worker := startWorkerProcess(t, dbURL, dev.Addr)
	const trial = 3 * time.Second
	subs := subscriptions.New(pool, subscriptions.Options{Workflows: workflows.Engine{Client: c}, TrialDuration: trial})
	user := newUser(t, pool)
	started := time.Now()
	if err := subs.StartTrial(ctx, user); err != nil {
		t.Fatal(err)
	}
	id := workflows.EntitlementID(user)
	// The worker has planned: the end's timer waits on the server.
	eventually(t, 10*time.Second, "the trial's timer to start", func() bool {
		return historyHas(t, c, id, enumspb.EVENT_TYPE_TIMER_STARTED)
	})
	if err := worker.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = worker.Wait()
	// Duplicates: a second start and a wake-up while it runs.
	if err := subs.StartTrial(ctx, user); err != nil {
		t.Fatal(err)
	}
	if err := subs.NotifyEntitlement(ctx, subscriptions.BillingState{UserID: user}); err != nil {
		t.Fatal(err)
	}
	if time.Since(started) >= trial {
		t.Fatalf("setup took over %s: the trial may have ended before the worker was killed", trial)
	}

	// The server fires the timer at the trial's end; with no worker the task
	// that would expire the trial stays pending.
	eventually(t, 30*time.Second, "the trial's timer to fire", func() bool {
		return historyHas(t, c, id, enumspb.EVENT_TYPE_TIMER_FIRED)
	})
	var expiredAt *time.Time
	if err := pool.QueryRow(ctx, `SELECT trial_expired_at FROM subscribers WHERE user_id = $1`, user).Scan(&expiredAt); err != nil {
		t.Fatal(err)
	}
	// One activity so far: the plan made before the kill.
	if n := historyCount(t, c, id, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED); expiredAt != nil || n != 1 {
		t.Fatalf("the trial's end was acted on with no worker running (expired at %v, %d activities)", expiredAt, n)
	}

	startWorkerProcess(t, dbURL, dev.Addr)
	getCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := c.GetWorkflow(getCtx, id, "").Get(getCtx, nil); err != nil {
		t.Fatal(err)
	}
	v, err := subs.View(ctx, user)
	if err != nil || !v.TrialExpired {
		t.Fatalf("view %+v err %v", v, err)
	}
	list, err := notifications.New(pool).List(ctx, user, 10)
	if err != nil || len(list) != 1 || list[0].Title != workflows.TrialExpiredTitle {
		t.Fatalf("notifications %+v err %v", list, err)
	}
}

// The dev server itself is killed with SIGKILL while a trial clock is
// waiting and restarted on the same SQLite file: the workflow survives and
// completes.
func TestE2EWorkflowSurvivesDevServerRestart(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewURL(t)
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	sqlite := filepath.Join(t.TempDir(), "temporal.sqlite")
	dev := devServer(t, sqlite)
	c, err := client.Dial(client.Options{HostPort: dev.Addr, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	subs := subscriptions.New(pool, subscriptions.Options{Workflows: workflows.Engine{Client: c}, TrialDuration: 4 * time.Second})
	user := newUser(t, pool)
	if err := subs.StartTrial(ctx, user); err != nil {
		t.Fatal(err)
	}
	c.Close()
	_ = dev.Kill()

	restarted := time.Now()
	dev2 := devServer(t, sqlite)
	t.Logf("dev server restarted on the same file in %s", time.Since(restarted).Round(time.Millisecond))
	startWorkerProcess(t, dbURL, dev2.Addr)
	c2, err := client.Dial(client.Options{HostPort: dev2.Addr, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	getCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := c2.GetWorkflow(getCtx, workflows.EntitlementID(user), "").Get(getCtx, nil); err != nil {
		t.Fatal(err)
	}
	if v, err := subs.View(ctx, user); err != nil || !v.TrialExpired {
		t.Fatalf("view %+v err %v", v, err)
	}
}

// The whole app on the embedded server: the 7th consecutive check-in over
// HTTP starts the bonus workflow, which credits +100 once and notifies.
func TestE2EStreakBonusThroughTheApp(t *testing.T) {
	dev := devServer(t, "")
	srv := apptest.Start(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	c, user := srv.SignedIn(t, "bonus@example.com")
	ctx := context.Background()
	// Six consecutive days already done, the last one yesterday (local).
	_, err := srv.App.Pool.Exec(ctx, `INSERT INTO user_daily_checkin (user_id, last_checkin, sequence_count, total_checkins, total_checkin_points)
		VALUES ($1, (now() AT TIME ZONE 'America/Sao_Paulo')::date - 1, 6, 6, 30)`, user)
	if err != nil {
		t.Fatal(err)
	}
	res := c.Do("POST", "/api/checkin", nil)
	if res.Status != http.StatusCreated {
		t.Fatalf("check-in: %d %s", res.Status, res.Body)
	}
	var out checkin.Result
	res.JSON(t, &out)
	if !out.CompletedStreak || out.Sequence != 7 || out.SequenceCount != 0 || out.LastBonusAt == nil {
		t.Fatalf("result %+v", out)
	}
	var b points.Balance
	eventually(t, 30*time.Second, "the bonus credit", func() bool {
		c.Do("GET", "/api/points/balance", nil).JSON(t, &b)
		return b.TotalPoints == 105
	})
	var list struct {
		Notifications []notifications.Notification `json:"notifications"`
	}
	eventually(t, 10*time.Second, "the bonus notification", func() bool {
		c.Do("GET", "/api/notifications", nil).JSON(t, &list)
		return len(list.Notifications) == 1 && strings.Contains(list.Notifications[0].Message, "+100")
	})
	// Starting the same streak's workflow again is refused by its id: the
	// engine treats the refusal as done, and Temporal itself reports that
	// this workflow id was taken (so no second run can credit anything).
	d, _ := checkin.ParseDate(out.Today)
	if err := (workflows.Engine{Client: srv.App.Engagement.Temporal}).StartStreakBonus(ctx, nil, user, d); err != nil {
		t.Fatal(err)
	}
	_, err = srv.App.Engagement.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    workflows.StreakBonusID(user, d.String()),
		TaskQueue:             workflows.TaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		// Without it the SDK hands back the earlier run instead of the refusal.
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}, workflows.StreakBonus, workflows.StreakBonusInput{UserID: user, StreakDate: d.String()})
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if !errors.As(err, &already) {
		t.Fatalf("a second run of the streak's workflow was not refused: %v", err)
	}
	c.Do("GET", "/api/points/balance", nil).JSON(t, &b)
	if b.TotalPoints != 105 {
		t.Fatalf("balance %d after a duplicate start, want 105", b.TotalPoints)
	}
}

type quiet struct{}

func (quiet) Debug(string, ...interface{}) {}
func (quiet) Info(string, ...interface{})  {}
func (quiet) Warn(string, ...interface{})  {}
func (quiet) Error(string, ...interface{}) {}

// A trial whose clock never started (the confirmation hook failed) and whose
// end has passed is expired when an app with a worker starts.
func TestE2EMissedTrialIsCaughtUpOnStart(t *testing.T) {
	dev := devServer(t, "")
	dbURL := pgtest.NewURL(t)
	ctx := context.Background()
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	user := newUser(t, pool)
	if _, err := pool.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, trial_ends_at)
		VALUES ($1, 'trial', now() - interval '1 hour')`, user); err != nil {
		t.Fatal(err)
	}
	srv := apptest.StartOn(t, dbURL, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	eventually(t, 30*time.Second, "the missed trial to expire", func() bool {
		var expired bool
		_ = pool.QueryRow(ctx, `SELECT trial_expired_at IS NOT NULL FROM subscribers WHERE user_id = $1`, user).Scan(&expired)
		return expired
	})
	// The notice is sent after the expiry commits, so it may trail it.
	eventually(t, 30*time.Second, "the expiry notice", func() bool {
		list, err := srv.App.Engagement.Notifications.List(ctx, user, 10)
		return err == nil && len(list) > 0
	})
	list, err := srv.App.Engagement.Notifications.List(ctx, user, 10)
	if err != nil || len(list) != 1 || list[0].Title != workflows.TrialExpiredTitle {
		t.Fatalf("notifications %+v err %v", list, err)
	}
}
