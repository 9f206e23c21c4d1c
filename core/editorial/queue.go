package editorial

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/postgres"
)

// ChangeRequest is the open request for changes on an item: the comment the
// reviewer gave with 'Solicitar alterações', shown at the top of the item
// until the item leaves alteracoes_solicitadas.
type ChangeRequest struct {
	Reason string    `json:"reason"`
	ByID   string    `json:"by_id,omitempty"`
	ByName string    `json:"by_name"`
	At     time.Time `json:"at"`
}

// personName is a user's display name for the backoffice: first and last
// name, else the e-mail address, else "Sistema" (no actor).
const personName = `coalesce(nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''), u.email, 'Sistema')`

// OpenChangeRequest is item id's open request for changes, nil when the
// item is not waiting for changes.
func (r *Reviews) OpenChangeRequest(ctx context.Context, id string) (*ChangeRequest, error) {
	var c ChangeRequest
	err := r.pool.QueryRow(ctx, `SELECT e.reason, coalesce(e.actor_id::text, ''), `+personName+`, e.created_at
		FROM content_items i
		JOIN LATERAL (SELECT * FROM editorial_events e WHERE e.item_id = i.id AND e.action = 'request_changes' ORDER BY e.id DESC LIMIT 1) e ON true
		LEFT JOIN users u ON u.id = e.actor_id
		LEFT JOIN profiles p ON p.user_id = e.actor_id
		WHERE i.id = $1 AND i.status = 'alteracoes_solicitadas'`, id).Scan(&c.Reason, &c.ByID, &c.ByName, &c.At)
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open change request: %w", err)
	}
	return &c, nil
}

// QueueItem is one item on a work queue.
type QueueItem struct {
	ID          string         `json:"id"`
	Type        string         `json:"type"`
	Title       string         `json:"title"`
	Status      content.Status `json:"status"`
	StatusLabel string         `json:"status_label"`
	UpdatedAt   time.Time      `json:"updated_at"`
	PublishAt   *time.Time     `json:"publish_at,omitempty"`
	// Reason is the open request's comment (changes requested only).
	Reason string `json:"reason,omitempty"`
}

// Queue is one person's work on their dashboard.
type Queue struct {
	// AwaitingMyReview: em_revisao items assigned to the caller, or to
	// nobody yet (reviewers only), oldest first.
	AwaitingMyReview []QueueItem `json:"awaiting_my_review"`
	// ChangesRequested: items the caller wrote or has shared with them that
	// a reviewer sent back, oldest first, with the reviewer's comment.
	ChangesRequested []QueueItem `json:"changes_requested"`
	// Scheduled: agendado items by publication moment (a reviewer sees all,
	// an editor their own and shared ones).
	Scheduled []QueueItem `json:"scheduled"`
}

// QueueLimit bounds each list of a queue.
const QueueLimit = 20

// Queue answers userID's work queues; reviewer says whether they hold a
// reviewing role (revisor or super admin).
func (r *Reviews) Queue(ctx context.Context, userID string, reviewer bool) (Queue, error) {
	q := Queue{AwaitingMyReview: []QueueItem{}, ChangesRequested: []QueueItem{}, Scheduled: []QueueItem{}}
	mine := `(i.author_id = $1::uuid OR EXISTS (SELECT 1 FROM content_item_editors s WHERE s.item_id = i.id AND s.user_id = $1::uuid))`
	list := func(dst *[]QueueItem, where, order string) error {
		rows, err := r.pool.Query(ctx, `SELECT i.id::text, i.type, i.title, i.status, i.updated_at, i.publish_at,
				CASE WHEN i.status = 'alteracoes_solicitadas' THEN coalesce((SELECT e.reason FROM editorial_events e
					WHERE e.item_id = i.id AND e.action = 'request_changes' ORDER BY e.id DESC LIMIT 1), '') ELSE '' END
			FROM content_items i WHERE `+where+` ORDER BY `+order+fmt.Sprintf(` LIMIT %d`, QueueLimit), userID)
		if err != nil {
			return fmt.Errorf("work queue: %w", err)
		}
		items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (QueueItem, error) {
			var it QueueItem
			err := row.Scan(&it.ID, &it.Type, &it.Title, &it.Status, &it.UpdatedAt, &it.PublishAt, &it.Reason)
			it.StatusLabel = it.Status.Label()
			return it, err
		})
		if err != nil {
			return fmt.Errorf("work queue: %w", err)
		}
		*dst = append(*dst, items...)
		return nil
	}
	if reviewer {
		if err := list(&q.AwaitingMyReview, `i.status = 'em_revisao' AND $1::uuid IS NOT NULL AND coalesce(
				(SELECT a.reviewer_id = $1::uuid FROM editorial_assignments a WHERE a.item_id = i.id), true)`,
			`i.updated_at, i.id`); err != nil {
			return q, err
		}
	}
	if err := list(&q.ChangesRequested, `i.status = 'alteracoes_solicitadas' AND `+mine, `i.updated_at, i.id`); err != nil {
		return q, err
	}
	scheduled := `i.status = 'agendado'`
	if !reviewer {
		scheduled += ` AND ` + mine
	} else {
		scheduled += ` AND $1::uuid IS NOT NULL`
	}
	if err := list(&q.Scheduled, scheduled, `i.publish_at NULLS LAST, i.id`); err != nil {
		return q, err
	}
	return q, nil
}
