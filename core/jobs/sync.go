package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// SyncPending hands every queued job change on: a published job's closing
// moment to the publication timer (Closer), and the saved-search alerts. A
// change stays queued until both went through, so one that fails (Temporal
// unreachable) is tried again on the next round. It returns how many went
// through.
func (s *Service) SyncPending(ctx context.Context) (int, error) {
	type queued struct {
		id string
		at time.Time
	}
	rows, err := s.pool.Query(ctx, `SELECT item_id::text, queued_at FROM job_sync_queue ORDER BY queued_at LIMIT 100`)
	if err != nil {
		return 0, fmt.Errorf("read job sync queue: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (queued, error) {
		var q queued
		err := r.Scan(&q.id, &q.at)
		return q, err
	})
	if err != nil {
		return 0, fmt.Errorf("read job sync queue: %w", err)
	}
	done := 0
	for _, q := range list {
		if err := s.sync(ctx, q.id); err != nil {
			s.log.Warn("jobs: change not handed on; retrying", "item", q.id, "err", err)
			continue
		}
		// Only the change read: one queued again meanwhile stays.
		if _, err := s.pool.Exec(ctx, `DELETE FROM job_sync_queue WHERE item_id = $1 AND queued_at = $2`, q.id, q.at); err != nil {
			return done, fmt.Errorf("dequeue job change: %w", err)
		}
		done++
	}
	return done, nil
}

func (s *Service) sync(ctx context.Context, itemID string) error {
	var published bool
	var closesAt time.Time
	err := s.pool.QueryRow(ctx, `SELECT published, closes_at FROM job_listings WHERE item_id = $1`, itemID).Scan(&published, &closesAt)
	if err == pgx.ErrNoRows {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read job: %w", err)
	}
	if !published {
		return nil
	}
	if s.closer != nil {
		if err := s.closer(ctx, itemID, closesAt); err != nil {
			return fmt.Errorf("schedule closing: %w", err)
		}
	}
	if _, err := s.alert(ctx, itemID); err != nil {
		return err
	}
	return nil
}

// KeepSynced runs SyncPending every interval until ctx ends.
func (s *Service) KeepSynced(ctx context.Context, every time.Duration) {
	for {
		if _, err := s.SyncPending(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("jobs: sync", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
