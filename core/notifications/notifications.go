// Package notifications stores in-app notifications
// and announces each new one on the user's live event stream.
package notifications

import (
	"context"
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

// List returns userID's newest notifications first.
func (s *Store) List(ctx context.Context, userID string, limit int) ([]Notification, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, user_id, type, title, message, is_read, created_at
		FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("list notifications: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Notification, error) {
		var n Notification
		err := row.Scan(&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt)
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
