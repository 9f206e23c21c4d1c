package notifications

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/push"
)

// Broadcast is the outcome of SendMany.
type Broadcast struct {
	Stored    int    // in-app notifications created by this call
	Muted     int    // recipients who turned the type off
	Pushes    int    // push deliveries enqueued (one per device)
	MessageID string // the push message ("" when nobody gets a push)
}

// broadcastBatch is how many recipients share one transaction: large enough
// to amortise round trips, small enough that each commit (and so each live
// event) is not held back long by the rest of its batch.
const broadcastBatch = 500

// SendMany sends one notice to many members (a new challenge, a course
// launch): in batches, each one transaction that stores the notifications,
// publishes their live events and enqueues their pushes under one push
// message, which is dispatched once at the end. in.UserID is ignored and
// grouping does not apply. in.IdempotencyKey is required: each recipient's
// row is keyed by it, so a retried call skips whoever already got it and
// pushes nobody twice.
func (s *Service) SendMany(ctx context.Context, in Notice, userIDs []string) (Broadcast, error) {
	var b Broadcast
	if in.IdempotencyKey == "" || in.Type == "" || in.Title == "" {
		return b, fmt.Errorf("send to many: %w (and an idempotency key)", errBadNotice)
	}
	data := in.Data
	if data == nil {
		data = map[string]string{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return b, fmt.Errorf("send to many: %w", err)
	}
	actor := s.relatedUser(ctx, in.RelatedUserID)
	canPush := s.opts.Push != nil && s.opts.Push.Configured()
	now := s.opts.Now()

	for start := 0; start < len(userIDs); start += broadcastBatch {
		batch := userIDs[start:min(start+broadcastBatch, len(userIDs))]
		prefs, err := s.preferencesOf(ctx, batch)
		if err != nil {
			return b, err
		}
		var to, keys []string
		for _, id := range batch {
			if p, ok := prefs[id]; ok && p.Allows(in.Type) {
				to = append(to, id)
				keys = append(keys, in.IdempotencyKey+":"+id)
			} else {
				b.Muted++
			}
		}
		if len(to) == 0 {
			continue
		}
		messageID := b.MessageID
		var stored, pushes int
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `INSERT INTO notifications
				(user_id, type, title, message, related_user_id, related_post_id, related_comment_id, link, data, idempotency_key)
				SELECT r.uid, $3, $4, $5, nullif($6, '')::uuid, nullif($7, '')::uuid, nullif($8, '')::uuid, $9, $10, r.key
				FROM unnest($1::uuid[], $2::text[]) AS r(uid, key)
				ON CONFLICT (idempotency_key) DO NOTHING
				RETURNING `+notificationColumns,
				to, keys, in.Type, in.Title, in.Message, in.RelatedUserID, in.RelatedPostID, in.RelatedCommentID, in.Link, raw)
			if err != nil {
				return err
			}
			list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Notification, error) {
				var n Notification
				err := scanNotification(row, &n)
				return n, err
			})
			if err != nil || len(list) == 0 {
				return err
			}
			stored = len(list)
			if err := publishCreated(ctx, tx, list, actor); err != nil {
				return err
			}
			if !canPush {
				return nil
			}
			var targets []push.Target
			for _, n := range list {
				if p := prefs[n.UserID]; p.PushEnabled {
					targets = append(targets, push.Target{UserID: n.UserID, NotificationID: n.ID, NotBefore: p.ReleaseAt(now)})
				}
			}
			if len(targets) == 0 {
				return nil
			}
			if messageID == "" {
				if messageID, err = s.opts.Push.CreateMessage(ctx, tx, push.Message{
					Kind: in.Type, Title: in.Title, Body: in.Message, URL: in.Link, Tag: "b-" + in.IdempotencyKey,
				}); err != nil {
					return err
				}
			}
			pushes, err = s.opts.Push.AddDeliveries(ctx, tx, messageID, targets, false)
			return err
		})
		if err != nil {
			return b, fmt.Errorf("send to many: %w", err)
		}
		b.Stored += stored
		b.Pushes += pushes
		b.MessageID = messageID
	}
	if b.MessageID != "" {
		s.opts.Push.Dispatch(ctx, b.MessageID)
	}
	return b, nil
}

// publishCreated stores and announces one notification.created event per
// notification in a single statement: events.Publish does one round trip
// per event, which a 500-recipient batch cannot afford. It writes
// user_events the way events.Publish does, through events.InsertCTE and
// events.NotifyExpr, where the row and NOTIFY payload formats are defined.
func publishCreated(ctx context.Context, tx pgx.Tx, list []Notification, actor *RelatedUser) error {
	users := make([]string, len(list))
	payloads := make([]string, len(list))
	for i := range list {
		list[i].RelatedUser = actor
		raw, err := json.Marshal(list[i])
		if err != nil {
			return err
		}
		users[i], payloads[i] = list[i].UserID, string(raw)
	}
	_, err := tx.Exec(ctx, `WITH `+events.InsertCTE("e",
		`SELECT u, $3, d::jsonb FROM unnest($1::uuid[], $2::text[]) AS x(u, d)`)+`
		SELECT count(`+events.NotifyExpr("e")+`) FROM e`, users, payloads, EventCreated)
	if err != nil {
		return fmt.Errorf("publish notification events: %w", err)
	}
	return nil
}
