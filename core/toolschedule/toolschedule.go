// Package toolschedule keeps the notifications tools (plugins) schedule for
// their members at a future moment (host.ScheduleNotification: the morning
// a vaccine's next dose is due) and delivers each once when due.
//
// The database is the truth: one row per plugin, member and key. Scheduling
// a key again moves its moment, replaces its text and bumps its version;
// cancelling deletes it while pending. Delivery is a sweep (DeliverDue) that
// claims due rows with FOR UPDATE SKIP LOCKED, so any number of instances
// may sweep at once and each row is claimed by one; it sends through the
// notifications service (the member's preferences, quiet hours and push
// apply there) with an idempotency key per row and version, so a sweep
// that dies between sending and marking the row never notifies twice.
// workflows.ToolNotificationSweep runs the sweep every minute on one
// Temporal workflow; without Temporal the app runs it on a ticker.
package toolschedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
)

// MaxPendingPerTool is how many pending notifications one member may have
// in one tool: a tool that schedules more is refused (ResourceExhausted).
const MaxPendingPerTool = 1000

// NotificationType is the notifications' type of a delivered row (the
// tools' type, always on in the member's preferences).
const NotificationType = "plugin"

// ErrTooMany is returned by Schedule past MaxPendingPerTool.
var ErrTooMany = errors.New("toolschedule: too many pending notifications for this member in this tool")

// Options configure a Service.
type Options struct {
	// Sender delivers due notifications (notifications.Service).
	Sender notifications.Sender
	// Now is the clock "due" is judged by (time.Now).
	Now func() time.Time
	Log *slog.Logger
}

// Service stores and delivers scheduled notifications.
type Service struct {
	pool *pgxpool.Pool
	opts Options
}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, opts: o}
}

// Notification is one scheduled notification.
type Notification struct {
	ID          string     `json:"id"`
	PluginID    string     `json:"plugin_id"`
	Key         string     `json:"key"`
	DueAt       time.Time  `json:"due_at"`
	Title       string     `json:"title"`
	Body        string     `json:"body"`
	Link        string     `json:"link"`
	DeliveredAt *time.Time `json:"delivered_at"`
}

// Schedule stores (or, for a key already scheduled, replaces) the
// notification key of pluginID for userID at at. The caller (the host
// API) has checked the parts. replaced is true when a pending notification
// of that key was moved.
func (s *Service) Schedule(ctx context.Context, pluginID, userID, key string, at time.Time, title, body, link string) (id string, replaced bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// One member's schedules of one tool are serialised, so the cap
		// holds under concurrent calls.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('tool_scheduled_notifications:' || $1 || ':' || $2, 0))`,
			pluginID, userID); err != nil {
			return err
		}
		var pending int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM tool_scheduled_notifications
			WHERE plugin_id = $1 AND user_id = $2 AND delivered_at IS NULL AND key <> $3`, pluginID, userID, key).Scan(&pending); err != nil {
			return err
		}
		if pending >= MaxPendingPerTool {
			return ErrTooMany
		}
		err := tx.QueryRow(ctx, `SELECT delivered_at IS NULL FROM tool_scheduled_notifications
			WHERE plugin_id = $1 AND user_id = $2 AND key = $3`, pluginID, userID, key).Scan(&replaced)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO tool_scheduled_notifications AS t (plugin_id, user_id, key, due_at, title, body, link)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (plugin_id, user_id, key) DO UPDATE SET
				due_at = EXCLUDED.due_at, title = EXCLUDED.title, body = EXCLUDED.body, link = EXCLUDED.link,
				version = t.version + 1, delivered_at = NULL, claimed_until = NULL, updated_at = now()
			RETURNING id::text`,
			pluginID, userID, key, at.UTC(), title, body, link).Scan(&id)
	})
	if err != nil {
		return "", false, fmt.Errorf("schedule tool notification: %w", err)
	}
	return id, replaced, nil
}

// Cancel deletes userID's pending notification key of pluginID, or with
// prefix every pending one whose key starts with key ("" for all). What
// was already delivered stays.
func (s *Service) Cancel(ctx context.Context, pluginID, userID, key string, prefix bool) (int64, error) {
	var tag interface{ RowsAffected() int64 }
	var err error
	if prefix {
		tag, err = s.pool.Exec(ctx, `DELETE FROM tool_scheduled_notifications
			WHERE plugin_id = $1 AND user_id = $2 AND delivered_at IS NULL AND left(key, char_length($3)) = $3`, pluginID, userID, key)
	} else {
		tag, err = s.pool.Exec(ctx, `DELETE FROM tool_scheduled_notifications
			WHERE plugin_id = $1 AND user_id = $2 AND delivered_at IS NULL AND key = $3`, pluginID, userID, key)
	}
	if err != nil {
		return 0, fmt.Errorf("cancel tool notification: %w", err)
	}
	return tag.RowsAffected(), nil
}

// Pending lists userID's pending notifications of pluginID, soonest first.
func (s *Service) Pending(ctx context.Context, pluginID, userID string) ([]Notification, error) {
	return s.list(ctx, `WHERE plugin_id = $1 AND user_id = $2 AND delivered_at IS NULL ORDER BY due_at, key`, pluginID, userID)
}

func (s *Service) list(ctx context.Context, where string, args ...any) ([]Notification, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text, plugin_id, key, due_at, title, body, link, delivered_at
		FROM tool_scheduled_notifications `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("list tool notifications: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notification, error) {
		var n Notification
		err := r.Scan(&n.ID, &n.PluginID, &n.Key, &n.DueAt, &n.Title, &n.Body, &n.Link, &n.DeliveredAt)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("list tool notifications: %w", err)
	}
	return out, nil
}

// DeliveryKey is the notifications' idempotency key of one version of a
// scheduled row: a moved notification is a new delivery, a retried sweep
// of the same version is not.
func DeliveryKey(id string, version int) string {
	return fmt.Sprintf("tool-scheduled:%s:%d", id, version)
}

// claimLease is how long a sweep keeps a claimed row before another may
// take it over.
const claimLease = 2 * time.Minute

// DeliverDue delivers up to limit notifications due at or before now, one
// at a time: the row is claimed (FOR UPDATE SKIP LOCKED and a lease, so
// concurrent sweeps share the work), sent with its delivery key, and
// marked delivered. It returns how many it delivered, and the earliest
// moment still pending after them (zero when none).
func (s *Service) DeliverDue(ctx context.Context, now time.Time, limit int) (delivered int, next time.Time, err error) {
	if s.opts.Sender == nil {
		return 0, time.Time{}, core.Errorf(core.EINTERNAL, "toolschedule: no notification sender")
	}
	for delivered < limit {
		// Claim one due row: SKIP LOCKED keeps concurrent sweeps apart, the
		// lease keeps the row theirs while they send without holding a
		// transaction (the notifications service uses connections of its
		// own).
		var id, pluginID, userID, title, body, link string
		var version int
		err := s.pool.QueryRow(ctx, `UPDATE tool_scheduled_notifications t
			SET claimed_until = clock_timestamp() + $2 * interval '1 second'
			WHERE id = (SELECT id FROM tool_scheduled_notifications
				WHERE delivered_at IS NULL AND due_at <= $1
				  AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
				ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING id::text, plugin_id, user_id::text, title, body, link, version`,
			now, int(claimLease/time.Second)).Scan(&id, &pluginID, &userID, &title, &body, &link, &version)
		if errors.Is(err, pgx.ErrNoRows) {
			break
		}
		if err != nil {
			return delivered, time.Time{}, fmt.Errorf("deliver tool notifications: claim: %w", err)
		}
		if _, err := s.opts.Sender.Send(ctx, notifications.Notice{
			UserID: userID, Type: NotificationType, Title: title, Message: body, Link: link,
			Data:           map[string]string{"tool": pluginID},
			IdempotencyKey: DeliveryKey(id, version),
		}); err != nil {
			// The lease runs out and a later sweep tries again (same key).
			return delivered, time.Time{}, fmt.Errorf("deliver tool notifications: send: %w", err)
		}
		// A row moved meanwhile (a new version) stays pending for its new
		// moment.
		if _, err := s.pool.Exec(ctx, `UPDATE tool_scheduled_notifications
			SET delivered_at = $3, claimed_until = NULL WHERE id = $1 AND version = $2`, id, version, now); err != nil {
			return delivered, time.Time{}, fmt.Errorf("deliver tool notifications: mark: %w", err)
		}
		delivered++
	}
	var nextAt *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT min(due_at) FROM tool_scheduled_notifications WHERE delivered_at IS NULL`).Scan(&nextAt); err != nil {
		return delivered, time.Time{}, fmt.Errorf("deliver tool notifications: %w", err)
	}
	if nextAt != nil {
		next = *nextAt
	}
	return delivered, next, nil
}

// ExportUserData returns every scheduled notification of userID (pending
// and delivered), for the member's data export.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	return s.list(ctx, `WHERE user_id = $1 ORDER BY due_at, plugin_id, key`, userID)
}

// EraseUser deletes every scheduled notification of userID.
func (s *Service) EraseUser(ctx context.Context, userID string) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM tool_scheduled_notifications WHERE user_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("erase tool notifications: %w", err)
	}
	return tag.RowsAffected(), nil
}
