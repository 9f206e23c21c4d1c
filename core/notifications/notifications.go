// Package notifications is the one service every producer (check-in
// streaks, trials, plugins, the editorial workflow, courses, events,
// community) tells a member something through. Send applies the member's
// preferences, stores the in-app notification (folding it into an unread one
// with the same group key), announces it on the live event stream in the
// same transaction and enqueues its Web Push (core/push), held until the end
// of the member's quiet hours.
package notifications

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/push"
)

// Live events on the member's stream (core/events).
const (
	// EventCreated carries the notification as GET /api/notifications
	// lists it; it is also sent when a notice folds into an unread
	// notification (same id, new text and group_count).
	EventCreated = "notification.created"
	// EventUpdated carries {"id","is_read"} or {"all_read":true}.
	EventUpdated = "notification.updated"
	// EventDeleted carries {"id"} or {"all":true}.
	EventDeleted = "notification.deleted"
)

// RelatedUser is who acted, as the dropdown shows them.
type RelatedUser struct {
	ID        string `json:"id"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	AvatarURL string `json:"avatar_url"`
}

// Notification is one in-app message.
type Notification struct {
	ID        string    `json:"id"`
	UserID    string    `json:"user_id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	Message   string    `json:"message"`
	IsRead    bool      `json:"is_read"`
	CreatedAt time.Time `json:"created_at"`

	RelatedUserID    *string           `json:"related_user_id"`
	RelatedPostID    *string           `json:"related_post_id"`
	RelatedCommentID *string           `json:"related_comment_id"`
	Link             string            `json:"link"`
	Data             map[string]string `json:"data"`
	// GroupCount is how many notices folded into this one (1: none).
	GroupCount int `json:"group_count"`
	// RelatedUser is the enriched related_user_id (null when none).
	RelatedUser *RelatedUser `json:"related_user"`
}

// Pusher is the part of core/push the service enqueues pushes with.
type Pusher interface {
	Configured() bool
	Enqueue(ctx context.Context, tx pgx.Tx, m push.Message, targets []push.Target, supersede bool) (string, error)
	CreateMessage(ctx context.Context, tx pgx.Tx, m push.Message) (string, error)
	AddDeliveries(ctx context.Context, tx pgx.Tx, messageID string, targets []push.Target, supersede bool) (int, error)
	Dispatch(ctx context.Context, messageID string)
	Withdraw(ctx context.Context, tx pgx.Tx, userID string, notificationIDs []string) (int, error)
}

// withdrawPushes stops the pushes of notifications the member has just read
// or deleted (nil ids: all of theirs), in the same transaction.
func (s *Service) withdrawPushes(ctx context.Context, tx pgx.Tx, userID string, ids []string) error {
	if s.opts.Push == nil {
		return nil
	}
	_, err := s.opts.Push.Withdraw(ctx, tx, userID, ids)
	return err
}

// ProfileReader is the part of profiles.Service the enrichment uses.
type ProfileReader interface {
	Public(ctx context.Context, userID string) (profiles.PublicProfile, error)
	PublicMany(ctx context.Context, userIDs []string) (map[string]profiles.PublicProfile, error)
}

// CommentPostFunc returns the post a comment belongs to ("" when unknown).
type CommentPostFunc func(ctx context.Context, commentID string) (postID string, err error)

// Options are the service's dependencies; every one may be nil.
type Options struct {
	// Push enqueues Web Push; nil: in-app only.
	Push Pusher
	// Profiles enriches related users and names the actor of a group; nil:
	// related_user is null and groups say "Alguém".
	Profiles ProfileReader
	// CommentPost finds the post of a liked comment stored without a post
	// id. Comments do not exist yet (community issue): nil until they do,
	// and then such likes keep a null related_post_id.
	CommentPost CommentPostFunc
	// Now is the clock quiet hours are judged by (time.Now).
	Now func() time.Time
	Log *slog.Logger
}

// Service is the notifications service.
type Service struct {
	pool *pgxpool.Pool
	opts Options
	log  *slog.Logger
}

var _ Sender = (*Service)(nil)

// New returns an in-app-only service on pool (no push, no enrichment).
func New(pool *pgxpool.Pool) *Service { return NewService(pool, Options{}) }

// NewService returns the service with its dependencies.
func NewService(pool *pgxpool.Pool, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, opts: o, log: o.Log}
}

// notificationColumns are read back into a Notification by scanNotification.
const notificationColumns = `id, user_id, type, title, message, is_read, created_at,
	related_user_id, related_post_id, related_comment_id, link, data, group_count`

func scanNotification(row pgx.Row, n *Notification, extra ...any) error {
	return row.Scan(append([]any{&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt,
		&n.RelatedUserID, &n.RelatedPostID, &n.RelatedCommentID, &n.Link, &n.Data, &n.GroupCount}, extra...)...)
}

// Create is the producers' original entry point: a titled message of kind
// for userID, once per idempotencyKey, through Send. created is false when
// the key had been used or the member turned the kind off.
func (s *Service) Create(ctx context.Context, userID, kind, title, message, idempotencyKey string) (Notification, bool, error) {
	return s.send(ctx, Notice{UserID: userID, Type: kind, Title: title, Message: message, IdempotencyKey: idempotencyKey})
}

// List returns userID's newest notifications first, enriched.
func (s *Service) List(ctx context.Context, userID string, limit int) ([]Notification, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+notificationColumns+`
		FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("list notifications: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Notification, error) {
		var n Notification
		err := scanNotification(row, &n)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("list notifications: %w", err)
	}
	s.enrich(ctx, list)
	return list, nil
}

// enrich fills related_user (every related user of the page in one query)
// and, for a like on a comment stored without a post, related_post_id. A
// failed lookup leaves the field empty: the list is still worth showing.
func (s *Service) enrich(ctx context.Context, list []Notification) {
	users := s.relatedUsers(ctx, list)
	for i := range list {
		n := &list[i]
		if n.RelatedUserID != nil {
			n.RelatedUser = users[*n.RelatedUserID]
		}
		if n.Type == "like" && n.RelatedPostID == nil && n.RelatedCommentID != nil && s.opts.CommentPost != nil {
			post, err := s.opts.CommentPost(ctx, *n.RelatedCommentID)
			if err != nil {
				s.log.Warn("post of liked comment", "comment_id", *n.RelatedCommentID, "err", err)
			} else if post != "" {
				n.RelatedPostID = &post
			}
		}
	}
}

func (s *Service) relatedUsers(ctx context.Context, list []Notification) map[string]*RelatedUser {
	if s.opts.Profiles == nil {
		return nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, n := range list {
		if n.RelatedUserID != nil && *n.RelatedUserID != "" && !seen[*n.RelatedUserID] {
			seen[*n.RelatedUserID] = true
			ids = append(ids, *n.RelatedUserID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	found, err := s.opts.Profiles.PublicMany(ctx, ids)
	if err != nil {
		s.log.Warn("related users of notifications", "count", len(ids), "err", err)
		return nil
	}
	users := make(map[string]*RelatedUser, len(found))
	for id, p := range found {
		users[id] = &RelatedUser{ID: p.ID, FirstName: p.FirstName, LastName: p.LastName, AvatarURL: p.AvatarURL}
	}
	return users
}

func (s *Service) relatedUser(ctx context.Context, id string) *RelatedUser {
	if s.opts.Profiles == nil || id == "" {
		return nil
	}
	p, err := s.opts.Profiles.Public(ctx, id)
	if err != nil {
		if core.ErrorCode(err) != core.ENOTFOUND {
			s.log.Warn("related user of notification", "user_id", id, "err", err)
		}
		return nil
	}
	return &RelatedUser{ID: p.ID, FirstName: p.FirstName, LastName: p.LastName, AvatarURL: p.AvatarURL}
}

// UnreadCount is how many of userID's notifications are unread.
func (s *Service) UnreadCount(ctx context.Context, userID string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND NOT is_read`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return n, nil
}

func errNotFound() error { return core.Errorf(core.ENOTFOUND, "Notificação não encontrada.") }

// validID keeps a malformed id from reaching PostgreSQL as a uuid cast error.
func validID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}

// MarkRead marks userID's notification id read. Another member's id is not
// found. Marking read also closes its group: the next like starts a new one.
func (s *Service) MarkRead(ctx context.Context, userID, id string) error {
	if !validID(id) {
		return errNotFound()
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var changed bool
		err := tx.QueryRow(ctx, `WITH old AS (SELECT is_read FROM notifications WHERE id = $1 AND user_id = $2 FOR UPDATE)
			UPDATE notifications n SET is_read = true FROM old WHERE n.id = $1 RETURNING NOT old.is_read`, id, userID).Scan(&changed)
		if postgres.IsNoRows(err) {
			return errNotFound()
		}
		if err != nil {
			return fmt.Errorf("mark notification read: %w", err)
		}
		if !changed {
			return nil
		}
		if err := s.withdrawPushes(ctx, tx, userID, []string{id}); err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, userID, EventUpdated, map[string]any{"id": id, "is_read": true})
		return err
	})
}

// MarkAllRead marks every unread notification of userID read.
func (s *Service) MarkAllRead(ctx context.Context, userID string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE notifications SET is_read = true WHERE user_id = $1 AND NOT is_read`, userID)
		if err != nil {
			return fmt.Errorf("mark all notifications read: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		if err := s.withdrawPushes(ctx, tx, userID, nil); err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, userID, EventUpdated, map[string]any{"all_read": true})
		return err
	})
}

// Delete removes userID's notification id.
func (s *Service) Delete(ctx context.Context, userID, id string) error {
	if !validID(id) {
		return errNotFound()
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Before the delete, which would unlink the deliveries from it.
		if err := s.withdrawPushes(ctx, tx, userID, []string{id}); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM notifications WHERE id = $1 AND user_id = $2`, id, userID)
		if err != nil {
			return fmt.Errorf("delete notification: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return errNotFound()
		}
		_, err = events.Publish(ctx, tx, userID, EventDeleted, map[string]any{"id": id})
		return err
	})
}

// DeleteAll removes every notification of userID ('Limpar todas').
func (s *Service) DeleteAll(ctx context.Context, userID string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.withdrawPushes(ctx, tx, userID, nil); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM notifications WHERE user_id = $1`, userID)
		if err != nil {
			return fmt.Errorf("clear notifications: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		_, err = events.Publish(ctx, tx, userID, EventDeleted, map[string]any{"all": true})
		return err
	})
}

var errBadNotice = errors.New("notice needs a user, a type and a title")

// Withdraw deletes the notice sent with idempotencyKey, if its member still
// has it: a connection request cancelled or refused must not stay in the
// dropdown with buttons that can only fail. Unknown keys are no error.
func (s *Service) Withdraw(ctx context.Context, idempotencyKey string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var id, userID string
		err := tx.QueryRow(ctx, `SELECT id::text, user_id::text FROM notifications WHERE idempotency_key = $1 FOR UPDATE`,
			idempotencyKey).Scan(&id, &userID)
		if postgres.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("withdraw notification: %w", err)
		}
		if err := s.withdrawPushes(ctx, tx, userID, []string{id}); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM notifications WHERE id = $1`, id); err != nil {
			return fmt.Errorf("withdraw notification: %w", err)
		}
		_, err = events.Publish(ctx, tx, userID, EventDeleted, map[string]any{"id": id})
		return err
	})
}

// Settle marks the notice sent with idempotencyKey read and removes the data
// keys that made it actionable (an answered request keeps its text but loses
// Aceitar / Recusar). The member's open dropdown gets the new version.
func (s *Service) Settle(ctx context.Context, idempotencyKey string, dropData ...string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var n Notification
		err := scanNotification(tx.QueryRow(ctx, `UPDATE notifications SET is_read = true, data = data - $2::text[]
			WHERE idempotency_key = $1 RETURNING `+notificationColumns, idempotencyKey, dropData), &n)
		if postgres.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("settle notification: %w", err)
		}
		if err := s.withdrawPushes(ctx, tx, n.UserID, []string{n.ID}); err != nil {
			return err
		}
		n.RelatedUser = nil
		if n.RelatedUserID != nil {
			n.RelatedUser = s.relatedUser(ctx, *n.RelatedUserID)
		}
		_, err = events.Publish(ctx, tx, n.UserID, EventCreated, n)
		return err
	})
}
