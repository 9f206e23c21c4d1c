package checkin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The check-in outbox: the durable work a check-in triggers (the bonus of a
// completed streak) is written as a row of checkin_outbox inside the
// check-in's own transaction, so the request never waits for the workflow
// engine and a committed check-in never loses its work. A Relay delivers
// the rows after the commit.
//
// Delivery is at least once from the table's point of view (a relay may die
// after the engine accepted a start and before it deleted the row) and
// exactly once from the engine's: every start carries a workflow id that
// the engine deduplicates (one bonus workflow per user and streak date).

// OutboxChannel is the NOTIFY channel a committed check-in signals its
// outbox rows on; relays LISTEN on it and also poll.
const OutboxChannel = "checkin_outbox"

// Outbox row kinds. OutboxReminder rows were written while each streak ran
// a reminder loop of its own; the reminder sweep (reminders.go) replaced
// them, and rows left from before are acknowledged without work.
const (
	OutboxReminder = "streak_reminder"
	OutboxBonus    = "streak_bonus"
)

// queueBonus adds the outbox row of a completed streak's bonus to the
// check-in's batch: no extra round trip.
func queueBonus(b *pgx.Batch, userID string, streakDate Date) {
	b.Queue(`INSERT INTO checkin_outbox (kind, user_id, streak_date) VALUES ($1, $2, $3)`, OutboxBonus, userID, streakDate.String())
}

// wakeRelaysSQL wakes the relays. It is sent after the check-in's COMMIT
// (a NOTIFY inside would serialise concurrent commits, see
// events.ReserveIDSQL); a wake lost to a crash in between waits for the
// relays' poll.
const wakeRelaysSQL = `SELECT pg_notify('` + OutboxChannel + `', '')`

// RelayOptions tunes a Relay; zero values take the defaults.
type RelayOptions struct {
	// Batch is how many rows one claim takes (default 50).
	Batch int
	// Poll is how often the relay looks for due rows without a
	// notification: rows retried after a failure, notifications lost while
	// no LISTEN was active (default 5s).
	Poll time.Duration
	// StartTimeout bounds one start call (default 10s).
	StartTimeout time.Duration
	// Lease is how long a claimed row waits before another claim may take
	// it again, when its relay died before acknowledging it (default 1
	// minute; longer than Batch × StartTimeout is not needed: a relay
	// stops at the first failed start).
	Lease time.Duration
	// Backoff is the wait before the nth retry of a failed row (default
	// 2^n seconds, at most 5 minutes).
	Backoff func(attempts int) time.Duration
	Log     *slog.Logger
}

// Relay delivers checkin_outbox rows to the workflow engine. Any number of
// relays may run at once (one per instance): a claim takes its rows with
// FOR UPDATE SKIP LOCKED and leases them, so two relays never deliver the
// same row concurrently, and a relay that dies releases its rows when their
// lease ends.
type Relay struct {
	pool *pgxpool.Pool
	wf   Workflows
	o    RelayOptions
}

// NewRelay returns a relay that starts rows' work through wf.
func NewRelay(pool *pgxpool.Pool, wf Workflows, o RelayOptions) *Relay {
	if o.Batch <= 0 {
		o.Batch = 50
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 10 * time.Second
	}
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Backoff == nil {
		o.Backoff = func(n int) time.Duration {
			return min(time.Duration(1<<min(n, 9))*time.Second, 5*time.Minute)
		}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Relay{pool: pool, wf: wf, o: o}
}

// DeliverOnce claims up to Batch due rows and starts each one's work. The
// claim is one statement (FOR UPDATE SKIP LOCKED inside it) that moves the
// rows' next_attempt_at a Lease ahead, so no connection or lock is held
// while the engine is called; a relay that dies mid-delivery leaves its rows
// to be claimed again when the lease runs out. A delivered row is deleted, a
// failed one is put off by Backoff with its error kept. It returns how many
// rows it delivered.
func (r *Relay) DeliverOnce(ctx context.Context) (delivered int, err error) {
	rows, err := r.pool.Query(ctx, `UPDATE checkin_outbox o SET next_attempt_at = now() + make_interval(secs => $2)
		FROM (SELECT id FROM checkin_outbox WHERE next_attempt_at <= now() ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) due
		WHERE o.id = due.id
		RETURNING o.id, o.kind, o.user_id::text, coalesce(o.streak_date::text, ''), o.attempts`, r.o.Batch, r.o.Lease.Seconds())
	if err != nil {
		return 0, fmt.Errorf("claim check-in outbox: %w", err)
	}
	type item struct {
		id         int64
		kind, user string
		date       string
		attempts   int
	}
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (item, error) {
		var it item
		err := row.Scan(&it.id, &it.kind, &it.user, &it.date, &it.attempts)
		return it, err
	})
	if err != nil {
		return 0, fmt.Errorf("claim check-in outbox: %w", err)
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(a.id, b.id) })
	var done []int64
	var failed *item
	var failure error
	for i := range items {
		it := &items[i]
		if err := r.start(ctx, it.kind, it.user, it.date); err != nil {
			if ctx.Err() != nil {
				// Stopping: the lease hands the rows to the next claim.
				break
			}
			r.o.Log.WarnContext(ctx, "check-in outbox delivery failed; retrying later",
				"id", it.id, "kind", it.kind, "user_id", it.user, "attempts", it.attempts+1, "err", err)
			// The engine is likely unreachable: the rest of the claim is
			// released for the next attempt rather than timing out in turn.
			failed, failure = it, err
			break
		}
		done = append(done, it.id)
	}
	ack := context.WithoutCancel(ctx)
	b := &pgx.Batch{}
	if len(done) > 0 {
		b.Queue(`DELETE FROM checkin_outbox WHERE id = ANY($1)`, done)
	}
	if failed != nil {
		b.Queue(`UPDATE checkin_outbox SET attempts = attempts + 1, last_error = $2,
			next_attempt_at = now() + make_interval(secs => $3) WHERE id = $1`,
			failed.id, truncate(failure.Error(), 500), r.o.Backoff(failed.attempts+1).Seconds())
		var rest []int64
		for _, it := range items {
			if it.id > failed.id {
				rest = append(rest, it.id)
			}
		}
		if len(rest) > 0 {
			b.Queue(`UPDATE checkin_outbox SET next_attempt_at = now() WHERE id = ANY($1)`, rest)
		}
	}
	if b.Len() > 0 {
		if err := r.pool.SendBatch(ack, b).Close(); err != nil {
			return 0, fmt.Errorf("acknowledge check-in outbox: %w", err)
		}
	}
	return len(done), ctx.Err()
}

func (r *Relay) start(ctx context.Context, kind, userID, date string) error {
	ctx, cancel := context.WithTimeout(ctx, r.o.StartTimeout)
	defer cancel()
	switch kind {
	case OutboxReminder:
		return nil
	case OutboxBonus:
		d, err := ParseDate(date)
		if err != nil {
			return err
		}
		return r.wf.StartStreakBonus(ctx, nil, userID, d)
	default:
		return fmt.Errorf("unknown check-in outbox kind %q", kind)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Drain delivers until no due row is left (or an error).
func (r *Relay) Drain(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := r.DeliverOnce(ctx)
		total += n
		if err != nil || n < r.o.Batch {
			return total, err
		}
	}
}

// Run delivers until ctx ends: at start, on every notification of a
// committed check-in and every Poll interval.
func (r *Relay) Run(ctx context.Context) {
	wake := make(chan struct{}, 1)
	go r.listen(ctx, wake)
	tick := time.NewTicker(r.o.Poll)
	defer tick.Stop()
	for {
		if _, err := r.Drain(ctx); err != nil && ctx.Err() == nil {
			r.o.Log.Warn("check-in outbox relay", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
	}
}

// listen holds one connection with LISTEN OutboxChannel and pokes wake on
// each notification; lost, it reconnects (polling covers the gap).
func (r *Relay) listen(ctx context.Context, wake chan<- struct{}) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := r.listenOnce(ctx, wake)
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return
		}
		r.o.Log.Warn("check-in outbox listener lost; polling until it reconnects", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (r *Relay) listenOnce(ctx context.Context, wake chan<- struct{}) error {
	pooled, err := r.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection leaves the pool for good: its session holds the LISTEN.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+OutboxChannel); err != nil {
		return err
	}
	// Rows committed before the LISTEN took effect are found by this poke.
	poke(wake)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		poke(wake)
	}
}

func poke(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// Pending is the number of outbox rows not delivered yet.
func (r *Relay) Pending(ctx context.Context) (int, error) {
	var n int
	err := r.pool.QueryRow(ctx, `SELECT count(*) FROM checkin_outbox`).Scan(&n)
	return n, err
}
