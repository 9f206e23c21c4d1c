package challenges

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// SyncPending passes every queued challenge change to the timers. A change
// stays queued until it went through (Temporal unreachable: tried again on
// the next round). It returns how many went through.
func (s *Service) SyncPending(ctx context.Context) (int, error) {
	if s.timers == nil {
		return 0, nil
	}
	type queued struct {
		id, at     string
		published  bool
		start, end time.Time
	}
	rows, err := s.pool.Query(ctx, `SELECT q.item_id::text, q.queued_at::text, coalesce(l.published, false),
			coalesce(l.starts_at, 'epoch'), coalesce(l.ends_at, 'epoch')
		FROM challenge_sync_queue q LEFT JOIN challenge_listings l ON l.item_id = q.item_id ORDER BY q.queued_at LIMIT 100`)
	if err != nil {
		return 0, fmt.Errorf("read challenge sync queue: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (queued, error) {
		var q queued
		err := r.Scan(&q.id, &q.at, &q.published, &q.start, &q.end)
		return q, err
	})
	if err != nil {
		return 0, fmt.Errorf("read challenge sync queue: %w", err)
	}
	done := 0
	for _, q := range list {
		// An unpublished challenge keeps its timer: each firing re-reads
		// the listing and does nothing for one that is offline.
		if q.published {
			if err := s.timers.Schedule(ctx, q.id, q.start, q.end); err != nil {
				s.log.Warn("challenges: period change not passed on; retrying", "item", q.id, "err", err)
				continue
			}
		}
		if _, err := s.pool.Exec(ctx, `DELETE FROM challenge_sync_queue WHERE item_id = $1 AND queued_at = $2::timestamptz`, q.id, q.at); err != nil {
			return done, fmt.Errorf("dequeue challenge change: %w", err)
		}
		done++
	}
	return done, nil
}

// KeepSynced runs SyncPending every interval until ctx ends.
func (s *Service) KeepSynced(ctx context.Context, every time.Duration) {
	for {
		if _, err := s.SyncPending(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("challenges: sync", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
