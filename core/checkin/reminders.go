package checkin

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Streak reminders: a check-in that leaves a streak running stores when its
// reminder falls due (remindAt: ReminderHour the next local day) in the
// same statement that records the day, and one sweep for the whole
// deployment sends what is due and clears it. A check-in the next day moves
// the moment a day on before it falls due, so only members who have not
// checked in by then are reminded; a completed or reset streak clears it.

// ReminderStaleAfter is how long after its moment a reminder is still worth
// sending: 20:00 plus four hours is the end of the local day, after which the
// streak is broken and the reminder is dropped (a sweep that was down for
// hours does not send yesterday's reminders).
const ReminderStaleAfter = 4 * time.Hour

// DueReminder is one streak reminder whose moment has come.
type DueReminder struct {
	UserID string
	// Sequence is the running streak's length in days (0: it ended
	// meanwhile and there is nothing to send).
	Sequence int
	// Day is the local day reminded of, YYYY-MM-DD: the day after the last
	// check-in.
	Day string
	// At is the moment it fell due.
	At time.Time
}

// StillDue reports whether the reminder is still worth sending at now.
func (d DueReminder) StillDue(now time.Time) bool {
	return d.Sequence > 0 && now.Sub(d.At) < ReminderStaleAfter
}

// DueReminders returns up to limit reminders due at now, oldest first, and
// the moment of the earliest one not yet due (zero when none is pending).
func (s *Service) DueReminders(ctx context.Context, now time.Time, limit int) (due []DueReminder, next time.Time, err error) {
	rows, err := s.pool.Query(ctx, `SELECT user_id::text, sequence_count, coalesce((last_checkin + 1)::text, ''), remind_at
		FROM user_daily_checkin WHERE remind_at <= $1 ORDER BY remind_at LIMIT $2`, now, limit)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("due streak reminders: %w", err)
	}
	due, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (DueReminder, error) {
		var d DueReminder
		err := row.Scan(&d.UserID, &d.Sequence, &d.Day, &d.At)
		return d, err
	})
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("due streak reminders: %w", err)
	}
	var at *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT min(remind_at) FROM user_daily_checkin WHERE remind_at > $1`, now).Scan(&at); err != nil {
		return nil, time.Time{}, fmt.Errorf("next streak reminder: %w", err)
	}
	if at != nil {
		next = *at
	}
	return due, next, nil
}

// ClearReminders marks reminders handled. A reminder whose moment moved
// meanwhile (a check-in set the next one) keeps its new moment.
func (s *Service) ClearReminders(ctx context.Context, done []DueReminder) error {
	if len(done) == 0 {
		return nil
	}
	users := make([]string, len(done))
	moments := make([]time.Time, len(done))
	for i, d := range done {
		users[i], moments[i] = d.UserID, d.At
	}
	_, err := s.pool.Exec(ctx, `UPDATE user_daily_checkin u SET remind_at = NULL
		FROM unnest($1::uuid[], $2::timestamptz[]) AS d(user_id, at)
		WHERE u.user_id = d.user_id AND u.remind_at = d.at`, users, moments)
	if err != nil {
		return fmt.Errorf("clear streak reminders: %w", err)
	}
	return nil
}
