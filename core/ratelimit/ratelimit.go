// Package ratelimit counts attempts in fixed time windows kept in
// PostgreSQL, so a limit holds across every server instance sharing the
// database ("per email and time bucket").
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Rule is "at most Max hits per Window".
type Rule struct {
	Max    int
	Window time.Duration
}

// Limiter counts hits per key.
type Limiter struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// New returns a limiter storing its counters through pool; now is the clock
// (time.Now in production, a controllable clock in tests).
func New(pool *pgxpool.Pool, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{pool: pool, now: now}
}

// Allow records one hit for key under rule and reports whether it is within
// the limit. The counter is incremented atomically in one statement, so
// concurrent hits from any instance are all counted.
func (l *Limiter) Allow(ctx context.Context, key string, rule Rule) (bool, error) {
	return l.AllowTx(ctx, l.pool, key, rule)
}

// Querier runs a statement: the pool, or a caller's open transaction.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// AllowTx is Allow on q, typically the transaction of the write being
// limited: the hit commits with the write, and a write that rolls back (a
// refusal included) is not counted. It also takes no second connection
// from the pool while the caller holds one.
func (l *Limiter) AllowTx(ctx context.Context, q Querier, key string, rule Rule) (bool, error) {
	now := l.now()
	start := now.Truncate(rule.Window)
	var hits int
	err := q.QueryRow(ctx, `
		INSERT INTO rate_limit_counters (key, window_start, window_end, hits)
		VALUES ($1, $2, $3, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
		RETURNING hits`, key, start, start.Add(rule.Window)).Scan(&hits)
	if err != nil {
		return false, fmt.Errorf("rate limit %s: %w", key, err)
	}
	return hits <= rule.Max, nil
}

// Prune deletes counters of windows that ended before the clock's now.
func (l *Limiter) Prune(ctx context.Context) error {
	if _, err := l.pool.Exec(ctx, `DELETE FROM rate_limit_counters WHERE window_end <= $1`, l.now()); err != nil {
		return fmt.Errorf("prune rate limits: %w", err)
	}
	return nil
}
