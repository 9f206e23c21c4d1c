// Package events is the per-user live stream: a feature publishes an event in
// the same transaction as the change it describes, PostgreSQL NOTIFY wakes
// every server instance on commit, and each instance forwards it to that
// user's open server-sent-events connections. Events are stored so that a
// reconnecting browser resumes after its Last-Event-ID without losing any.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Channel is the PostgreSQL NOTIFY channel every instance listens on.
const Channel = "user_events"

// Event is one message on a user's stream.
type Event struct {
	ID        int64           `json:"id"`
	UserID    string          `json:"user_id"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// Execer is a transaction or pool: publishing must share the caller's
// transaction so that the event exists exactly when the change commits.
type Execer interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// maxInlinePayload keeps NOTIFY payloads under PostgreSQL's 8,000-byte limit;
// larger events are announced by id and read back by the listener.
const maxInlinePayload = 7000

// Publish stores an event for userID and notifies every instance when the
// surrounding transaction commits.
func Publish(ctx context.Context, tx Execer, userID, eventType string, data any) (int64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, fmt.Errorf("encode %s event: %w", eventType, err)
	}
	var id int64
	err = tx.QueryRow(ctx, `
		WITH e AS (
			INSERT INTO user_events (user_id, type, data) VALUES ($1, $2, $3)
			RETURNING id, user_id, type, data, created_at
		)
		SELECT e.id, pg_notify($4, CASE WHEN length(e.data::text) < $5
				THEN json_build_object('id', e.id, 'user_id', e.user_id, 'type', e.type, 'data', e.data, 'created_at', e.created_at)::text
				ELSE e.id::text || ':' || e.user_id::text END)::text
		FROM e`, userID, eventType, raw, Channel, maxInlinePayload).Scan(&id, new(string))
	if err != nil {
		return 0, fmt.Errorf("publish %s event: %w", eventType, err)
	}
	return id, nil
}

// parseNotification decodes a NOTIFY payload: either the whole event as JSON
// or "id:user_id" for an event too large to inline.
func parseNotification(payload string) (ev Event, complete bool, err error) {
	if strings.HasPrefix(payload, "{") {
		if err := json.Unmarshal([]byte(payload), &ev); err != nil {
			return ev, false, fmt.Errorf("decode event notification: %w", err)
		}
		return ev, true, nil
	}
	idText, userID, ok := strings.Cut(payload, ":")
	if !ok {
		return ev, false, fmt.Errorf("malformed event notification %q", payload)
	}
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return ev, false, fmt.Errorf("malformed event notification %q: %w", payload, err)
	}
	return Event{ID: id, UserID: userID}, false, nil
}
