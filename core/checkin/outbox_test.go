package checkin_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// recorder is a workflow engine that counts starts per workflow id (the
// engine's dedup key), credits bonuses through CreditStreakBonus (what the
// bonus workflow's activity runs) and can fail the next start.
type recorder struct {
	pool *pgxpool.Pool

	mu       sync.Mutex
	failNext bool
	starts   map[string]int
	inTx     bool
	delay    time.Duration
}

func newRecorder(pool *pgxpool.Pool) *recorder {
	return &recorder{pool: pool, starts: map[string]int{}}
}

func (w *recorder) record(id string) error {
	w.mu.Lock()
	fail := w.failNext
	w.failNext = false
	if !fail {
		w.starts[id]++
	}
	delay := w.delay
	w.mu.Unlock()
	time.Sleep(delay)
	if fail {
		return errors.New("workflow engine unavailable")
	}
	return nil
}

func (w *recorder) StartStreakBonus(ctx context.Context, tx points.Querier, userID string, d checkin.Date) error {
	if tx != nil {
		w.mu.Lock()
		w.inTx = true
		w.mu.Unlock()
	}
	if err := w.record("bonus:" + userID + ":" + d.String()); err != nil {
		return err
	}
	_, err := checkin.CreditStreakBonus(ctx, w.pool, userID, d)
	return err
}

func (w *recorder) count(id string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.starts[id]
}

func (w *recorder) total() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, c := range w.starts {
		n += c
	}
	return n
}

func outboxRows(t *testing.T, pool *pgxpool.Pool, userID string) map[string]int {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT kind, count(*) FROM checkin_outbox WHERE user_id = $1 GROUP BY kind`, userID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		out[k] = n
	}
	return out
}

// completeStreak checks users in on seven days in a row (2026-03-01 to
// 2026-03-07, 15:00 UTC), the last of which completes their streak.
func completeStreak(t *testing.T, svc *checkin.Service, c *clock, users ...string) {
	t.Helper()
	for day := 1; day <= 7; day++ {
		c.set(fmt.Sprintf("2026-03-%02dT15:00:00Z", day))
		for _, u := range users {
			if _, err := svc.CheckIn(context.Background(), u, ""); err != nil {
				t.Fatalf("day %d: %v", day, err)
			}
		}
	}
}

// A check-in never calls the workflow engine: a completed streak's bonus is
// an outbox row of its transaction, which the relay delivers after the
// commit; a failed delivery stays and is retried, and a delivered row is
// gone. The days before carry no durable work (their reminders are a
// moment stored on the state, reminders.go).
func TestCheckinWritesOutboxRowsTheRelayDelivers(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := newRecorder(pool)
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	relay := checkin.NewRelay(pool, wf, checkin.RelayOptions{Backoff: func(int) time.Duration { return 0 }})
	ledger := points.New(pool)
	user := newUser(t, pool)

	for day := 1; day <= 6; day++ {
		c.set(fmt.Sprintf("2026-03-%02dT15:00:00Z", day))
		if _, err := svc.CheckIn(ctx, user, ""); err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
	}
	if got := outboxRows(t, pool, user); len(got) != 0 {
		t.Fatalf("the streak's first days wrote outbox rows: %v", got)
	}
	c.set("2026-03-07T15:00:00Z")
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || !res.CompletedStreak || res.BonusPoints != checkin.BonusPoints {
		t.Fatalf("7th check-in: %+v %v", res, err)
	}
	if got := outboxRows(t, pool, user); got[checkin.OutboxBonus] != 1 || len(got) != 1 {
		t.Fatalf("outbox after the 7th check-in: %v", got)
	}
	if wf.total() != 0 {
		t.Fatal("the check-in called the workflow engine on the request path")
	}
	balance := func() int {
		b, err := ledger.Balance(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		return b.TotalPoints
	}
	if got := balance(); got != 7*checkin.Points {
		t.Fatalf("balance %d before delivery", got)
	}

	// The engine is down for the first start: that row stays, with its error.
	wf.failNext = true
	n, err := relay.DeliverOnce(ctx)
	if err != nil || n != 0 {
		t.Fatalf("delivery with the engine down: %d %v", n, err)
	}
	var attempts int
	var lastErr string
	if err := pool.QueryRow(ctx, `SELECT attempts, last_error FROM checkin_outbox WHERE user_id = $1 AND kind = $2`,
		user, checkin.OutboxBonus).Scan(&attempts, &lastErr); err != nil || attempts != 1 || lastErr == "" {
		t.Fatalf("failed row: attempts %d error %q (%v)", attempts, lastErr, err)
	}
	// A reminder row written before the reminder sweep existed is
	// acknowledged without any start.
	if _, err := pool.Exec(ctx, `INSERT INTO checkin_outbox (kind, user_id) VALUES ($1, $2)`, checkin.OutboxReminder, user); err != nil {
		t.Fatal(err)
	}
	n, err = relay.Drain(ctx)
	if err != nil || n != 2 {
		t.Fatalf("delivery: %d %v", n, err)
	}
	if got := outboxRows(t, pool, user); len(got) != 0 {
		t.Fatalf("delivered rows left: %v", got)
	}
	if wf.total() != 1 || wf.count("bonus:"+user+":2026-03-07") != 1 || wf.inTx {
		t.Fatalf("starts %v (in a transaction: %v)", wf.starts, wf.inTx)
	}
	if got := balance(); got != 7*checkin.Points+checkin.BonusPoints {
		t.Fatalf("balance %d after delivery", got)
	}
	if n, err := relay.Drain(ctx); err != nil || n != 0 {
		t.Fatalf("second drain delivered %d (%v)", n, err)
	}
}

// A rolled-back check-in leaves no outbox row: the rows are part of its
// transaction.
func TestRefusedCheckinWritesNoOutboxRow(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := newRecorder(pool)
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	user := newUser(t, pool)
	completeStreak(t, svc, &c, user)
	if _, err := svc.CheckIn(ctx, user, ""); err == nil {
		t.Fatal("second check-in the same day accepted")
	}
	if got := outboxRows(t, pool, user); got[checkin.OutboxBonus] != 1 || len(got) != 1 {
		t.Fatalf("outbox %v, want the completed streak's bonus only", got)
	}
}

// Two relays (two instances) draining one outbox at once start every row's
// work exactly once: claims skip rows another relay holds.
func TestTwoRelaysDeliverEachRowOnce(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := newRecorder(pool)
	wf.delay = time.Millisecond
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	const users = 60
	ids := make([]string, users)
	for i := range ids {
		ids[i] = newUser(t, pool)
	}
	completeStreak(t, svc, &c, ids...)
	var wg sync.WaitGroup
	delivered := make([]int, 2)
	errs := make([]error, 2)
	for i := range 2 {
		r := checkin.NewRelay(pool, wf, checkin.RelayOptions{Batch: 5})
		wg.Add(1)
		go func() {
			defer wg.Done()
			delivered[i], errs[i] = r.Drain(ctx)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if delivered[0]+delivered[1] != users || delivered[0] == 0 || delivered[1] == 0 {
		t.Fatalf("delivered %v, want %d shared by both relays", delivered, users)
	}
	for _, id := range ids {
		if n := wf.count("bonus:" + id + ":2026-03-07"); n != 1 {
			t.Fatalf("user %s bonus started %d times", id, n)
		}
	}
	if n, err := checkin.NewRelay(pool, wf, checkin.RelayOptions{}).Pending(ctx); err != nil || n != 0 {
		t.Fatalf("pending %d %v", n, err)
	}
}

// Run delivers a committed check-in's rows on its notification, well before
// the poll interval.
func TestRelayRunWakesOnCommit(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := newRecorder(pool)
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	relay := checkin.NewRelay(pool, wf, checkin.RelayOptions{Poll: time.Hour})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); relay.Run(runCtx) }()
	defer func() { stop(); <-done }()
	// Let the LISTEN take effect (its first poke drains an empty outbox).
	time.Sleep(300 * time.Millisecond)
	user := newUser(t, pool)
	completeStreak(t, svc, &c, user)
	deadline := time.Now().Add(5 * time.Second)
	for wf.count("bonus:"+user+":2026-03-07") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the relay did not deliver on the commit's notification")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A completed streak with neither a credit nor an outbox row (completed
// before the outbox existed) is started by ResumeStreakBonuses, once.
func TestResumeStartsAStreakBonusWithoutOutboxRow(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := newRecorder(pool)
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	ledger := points.New(pool)
	user := newUser(t, pool)
	completeStreak(t, svc, &c, user)
	if _, err := pool.Exec(ctx, `DELETE FROM checkin_outbox`); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.ResumeStreakBonuses(ctx, ledger); err != nil || n != 1 {
		t.Fatalf("resume: %d %v", n, err)
	}
	if b, err := ledger.Balance(ctx, user); err != nil || b.TotalPoints != 7*checkin.Points+checkin.BonusPoints {
		t.Fatalf("balance %+v %v", b, err)
	}
	if n, err := svc.ResumeStreakBonuses(ctx, ledger); err != nil || n != 0 {
		t.Fatalf("second resume started %d (%v): the bonus is credited", n, err)
	}
}
