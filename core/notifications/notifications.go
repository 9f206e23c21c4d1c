// Package notifications stores in-app notifications
// and announces each new one on the user's live event stream.
package notifications

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/postgres"
)

// EventCreated is the live event sent for every new notification.
const EventCreated = "notification.created"

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
}

// Store reads and writes notifications.
type Store struct{ pool *pgxpool.Pool }

// New returns a store on pool.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Create adds a notification once per idempotencyKey (a retried activity
// notifies once) and returns it with created=false when it already existed.
func (s *Store) Create(ctx context.Context, userID, kind, title, message, idempotencyKey string) (n Notification, created bool, err error) {
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO notifications (user_id, type, title, message, idempotency_key)
			VALUES ($1, $2, $3, $4, nullif($5, ''))
			ON CONFLICT (idempotency_key) DO NOTHING
			RETURNING id, user_id, type, title, message, is_read, created_at`, userID, kind, title, message, idempotencyKey).
			Scan(&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt)
		if postgres.IsNoRows(err) {
			return tx.QueryRow(ctx, `SELECT id, user_id, type, title, message, is_read, created_at
				FROM notifications WHERE idempotency_key = $1`, idempotencyKey).
				Scan(&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt)
		}
		if err != nil {
			return err
		}
		created = true
		_, err = events.Publish(ctx, tx, userID, EventCreated, n)
		return err
	})
	if err != nil {
		return n, false, fmt.Errorf("create notification: %w", err)
	}
	return n, created, nil
}

// notificationColumns are read back into a Notification by scanNotification.
const notificationColumns = `id, user_id, type, title, message, is_read, created_at,
	related_user_id, related_post_id, related_comment_id, link, data`

func scanNotification(row pgx.Row, n *Notification) error {
	return row.Scan(&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt,
		&n.RelatedUserID, &n.RelatedPostID, &n.RelatedCommentID, &n.Link, &n.Data)
}

// Send stores n as an in-app notification, once per n.IdempotencyKey, and
// announces it on the user's live stream in the same transaction.
func (s *Store) Send(ctx context.Context, in Notice) (Notification, error) {
	data := in.Data
	if data == nil {
		data = map[string]string{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Notification{}, fmt.Errorf("send notification: %w", err)
	}
	var n Notification
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := scanNotification(tx.QueryRow(ctx, `INSERT INTO notifications
			(user_id, type, title, message, related_user_id, related_post_id, related_comment_id, link, data, group_key, idempotency_key)
			VALUES ($1, $2, $3, $4, nullif($5, '')::uuid, nullif($6, '')::uuid, nullif($7, '')::uuid, $8, $9, nullif($10, ''), nullif($11, ''))
			ON CONFLICT (idempotency_key) DO NOTHING
			RETURNING `+notificationColumns,
			in.UserID, in.Type, in.Title, in.Message, in.RelatedUserID, in.RelatedPostID, in.RelatedCommentID,
			in.Link, raw, in.GroupKey, in.IdempotencyKey), &n)
		if postgres.IsNoRows(err) {
			return scanNotification(tx.QueryRow(ctx, `SELECT `+notificationColumns+`
				FROM notifications WHERE idempotency_key = $1`, in.IdempotencyKey), &n)
		}
		if err != nil {
			return err
		}
		_, err = events.Publish(ctx, tx, in.UserID, EventCreated, n)
		return err
	})
	if err != nil {
		return Notification{}, fmt.Errorf("send notification: %w", err)
	}
	return n, nil
}

// List returns userID's newest notifications first.
func (s *Store) List(ctx context.Context, userID string, limit int) ([]Notification, error) {
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
	return list, nil
}

// HandleList serves GET /api/notifications: the caller's 50 newest.
func HandleList(log *slog.Logger, s *Store) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		list, err := s.List(r.Context(), core.PrincipalFrom(r.Context()).UserID, 50)
		if err != nil {
			return err
		}
		if list == nil {
			list = []Notification{}
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"notifications": list})
	})
}
