package eventos

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// schedule is what the timers need to know about one event.
type schedule struct {
	published, active bool
	startsAt, endsAt  time.Time
	cancelledAt       *time.Time
}

// SyncPending passes every queued event change to the timers (reminders,
// cancellation, the automatic unpublish), and offers seats a larger capacity freed. A
// change stays queued until it went through, so one that fails (Temporal
// unreachable) is tried again on the next round. It returns how many
// changes went through.
func (s *Service) SyncPending(ctx context.Context) (int, error) {
	type queued struct {
		id string
		at time.Time
	}
	rows, err := s.pool.Query(ctx, `SELECT item_id::text, queued_at FROM event_sync_queue ORDER BY queued_at LIMIT 100`)
	if err != nil {
		return 0, fmt.Errorf("read event sync queue: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (queued, error) {
		var q queued
		err := r.Scan(&q.id, &q.at)
		return q, err
	})
	if err != nil {
		return 0, fmt.Errorf("read event sync queue: %w", err)
	}
	done := 0
	for _, q := range list {
		if err := s.sync(ctx, q.id); err != nil {
			s.log.Warn("events: schedule change not passed on; retrying", "item", q.id, "err", err)
			continue
		}
		// Only the change read: one queued again meanwhile stays.
		if _, err := s.pool.Exec(ctx, `DELETE FROM event_sync_queue WHERE item_id = $1 AND queued_at = $2`, q.id, q.at); err != nil {
			return done, fmt.Errorf("dequeue event change: %w", err)
		}
		done++
	}
	return done, nil
}

func (s *Service) sync(ctx context.Context, itemID string) error {
	var sc schedule
	err := s.pool.QueryRow(ctx, `SELECT published, is_active, starts_at, ends_at, cancelled_at FROM event_listings WHERE item_id = $1`,
		itemID).Scan(&sc.published, &sc.active, &sc.startsAt, &sc.endsAt, &sc.cancelledAt)
	if err != nil {
		return fmt.Errorf("read event schedule: %w", err)
	}
	// A cancelled event's held seats are released before the cancellation
	// is announced, so nobody is told of a seat, or claims one, that leads
	// nowhere; the timers need not be there for that.
	if !sc.active && sc.cancelledAt != nil {
		if _, err := s.signups.ReleaseOffers(ctx, itemID); err != nil {
			return err
		}
	}
	if s.timers != nil {
		switch {
		case sc.active && sc.published && sc.endsAt.Add(AutoUnpublishAfter).After(s.now()):
			if err := s.timers.Schedule(ctx, itemID, sc.startsAt, sc.endsAt); err != nil {
				return err
			}
		case !sc.active && sc.cancelledAt != nil:
			if err := s.timers.Cancel(ctx, itemID, *sc.cancelledAt); err != nil {
				return err
			}
		}
	}
	if sc.published && sc.active {
		offers, err := s.signups.Rebalance(ctx, itemID)
		if err != nil {
			return err
		}
		s.startOffers(ctx, offers)
	}
	return nil
}

// ResumeOffers starts a timer for every pending offer (one whose start was
// lost to a crash between the commit and the call); starting is idempotent.
func (s *Service) ResumeOffers(ctx context.Context) (int, error) {
	offers, err := s.signups.PendingOffers(ctx)
	if err != nil {
		return 0, err
	}
	s.startOffers(ctx, offers)
	return len(offers), nil
}

// KeepSynced runs SyncPending every interval until ctx ends, and
// ResumeOffers at start and every resumeEvery.
func (s *Service) KeepSynced(ctx context.Context, every, resumeEvery time.Duration) {
	lastResume := time.Time{}
	for {
		if _, err := s.SyncPending(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("events: sync", "err", err)
		}
		if s.timers != nil && time.Since(lastResume) >= resumeEvery {
			lastResume = time.Now()
			if _, err := s.ResumeOffers(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("events: resume offers", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
