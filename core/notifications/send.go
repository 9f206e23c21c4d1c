package notifications

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/push"
)

// Send tells in.UserID about something: see the package comment. A type the
// member turned off is neither stored nor pushed: the zero Notification and
// no error come back.
func (s *Service) Send(ctx context.Context, in Notice) (Notification, error) {
	n, _, err := s.send(ctx, in)
	return n, err
}

// groupText is the message of a group of more than one actor. {actor} is
// the latest actor's first name, {others} how many more, {pessoas} "pessoa"
// or "pessoas" to agree with it.
func groupText(in Notice) string {
	if in.GroupMessage != "" {
		return in.GroupMessage
	}
	switch {
	case in.Type == "like" && in.RelatedCommentID != "" && in.RelatedPostID == "":
		return "{actor} e mais {others} {pessoas} curtiram seu comentário"
	case in.Type == "like":
		return "{actor} e mais {others} {pessoas} curtiram seu post"
	case in.Type == "comment":
		return "{actor} e mais {others} {pessoas} comentaram seu post"
	default:
		return in.Message + " (e mais {others})"
	}
}

func renderGroup(tmpl, actor string, others int) string {
	people := "pessoas"
	if others == 1 {
		people = "pessoa"
	}
	return strings.NewReplacer("{actor}", actor, "{others}", strconv.Itoa(others), "{pessoas}", people).Replace(tmpl)
}

// send is Send that also says whether this call stored or folded something
// (false for a repeated idempotency key or a muted type).
func (s *Service) send(ctx context.Context, in Notice) (Notification, bool, error) {
	if in.UserID == "" || in.Type == "" || in.Title == "" {
		return Notification{}, false, fmt.Errorf("send notification: %w", errBadNotice)
	}
	prefs, err := s.Preferences(ctx, in.UserID)
	if err != nil {
		return Notification{}, false, fmt.Errorf("send notification: %w", err)
	}
	if !prefs.Allows(in.Type) {
		return Notification{}, false, nil
	}
	actor := s.relatedUser(ctx, in.RelatedUserID)
	actorName := in.ActorName
	if actorName == "" && actor != nil {
		actorName = actor.FirstName
	}
	if actorName == "" {
		actorName = "Alguém"
	}
	data := in.Data
	if data == nil {
		data = map[string]string{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Notification{}, false, fmt.Errorf("send notification: %w", err)
	}

	var n Notification
	var stored bool
	var messageID string
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if in.IdempotencyKey != "" {
			err := scanNotification(tx.QueryRow(ctx, `SELECT `+notificationColumns+`
				FROM notifications WHERE idempotency_key = $1`, in.IdempotencyKey), &n)
			if err == nil {
				return nil
			}
			if !postgres.IsNoRows(err) {
				return err
			}
		}
		var folded bool
		if in.GroupKey != "" {
			// Two concurrent notices with one key meet on the partial
			// unique index: the second waits for the first and folds.
			err := scanNotification(tx.QueryRow(ctx, `INSERT INTO notifications AS n
				(user_id, type, title, message, related_user_id, related_post_id, related_comment_id, link, data,
				 group_key, idempotency_key, group_actor_ids)
				VALUES ($1, $2, $3, $4, nullif($5, '')::uuid, nullif($6, '')::uuid, nullif($7, '')::uuid, $8, $9,
				 $10, nullif($11, ''), CASE WHEN $5 = '' THEN '{}'::uuid[] ELSE ARRAY[nullif($5, '')::uuid] END)
				ON CONFLICT (user_id, group_key) WHERE NOT is_read AND group_key IS NOT NULL DO UPDATE SET
					group_count = n.group_count + CASE
						WHEN EXCLUDED.related_user_id IS NOT NULL AND EXCLUDED.related_user_id = ANY(n.group_actor_ids) THEN 0 ELSE 1 END,
					group_actor_ids = CASE
						WHEN EXCLUDED.related_user_id IS NULL OR EXCLUDED.related_user_id = ANY(n.group_actor_ids) THEN n.group_actor_ids
						ELSE n.group_actor_ids || EXCLUDED.related_user_id END,
					related_user_id = coalesce(EXCLUDED.related_user_id, n.related_user_id),
					related_post_id = coalesce(EXCLUDED.related_post_id, n.related_post_id),
					related_comment_id = coalesce(EXCLUDED.related_comment_id, n.related_comment_id),
					type = EXCLUDED.type, title = EXCLUDED.title, message = EXCLUDED.message,
					link = EXCLUDED.link, data = EXCLUDED.data, created_at = now()
				RETURNING `+notificationColumns+`, (xmax <> 0)`,
				in.UserID, in.Type, in.Title, in.Message, in.RelatedUserID, in.RelatedPostID, in.RelatedCommentID,
				in.Link, raw, in.GroupKey, in.IdempotencyKey), &n, &folded)
			if err != nil {
				return err
			}
			if n.GroupCount > 1 {
				n.Message = renderGroup(groupText(in), actorName, n.GroupCount-1)
				if _, err := tx.Exec(ctx, `UPDATE notifications SET message = $2 WHERE id = $1`, n.ID, n.Message); err != nil {
					return err
				}
			}
		} else {
			err := scanNotification(tx.QueryRow(ctx, `INSERT INTO notifications
				(user_id, type, title, message, related_user_id, related_post_id, related_comment_id, link, data, idempotency_key)
				VALUES ($1, $2, $3, $4, nullif($5, '')::uuid, nullif($6, '')::uuid, nullif($7, '')::uuid, $8, $9, nullif($10, ''))
				RETURNING `+notificationColumns,
				in.UserID, in.Type, in.Title, in.Message, in.RelatedUserID, in.RelatedPostID, in.RelatedCommentID,
				in.Link, raw, in.IdempotencyKey), &n)
			if err != nil {
				return err
			}
		}
		stored = true
		if n.RelatedUserID != nil && actor != nil && *n.RelatedUserID == actor.ID {
			n.RelatedUser = actor
		}
		if _, err := events.Publish(ctx, tx, in.UserID, EventCreated, n); err != nil {
			return err
		}
		if !prefs.PushEnabled || s.opts.Push == nil || !s.opts.Push.Configured() {
			return nil
		}
		var err error
		messageID, err = s.opts.Push.Enqueue(ctx, tx, pushMessage(n), []push.Target{{
			UserID: in.UserID, NotificationID: n.ID, NotBefore: prefs.ReleaseAt(s.opts.Now()),
		}}, folded)
		return err
	})
	if postgres.IsUniqueViolation(err, "notifications_idempotency_key_key") {
		// A concurrent retry with the same key won: report its notification.
		err = scanNotification(s.pool.QueryRow(ctx, `SELECT `+notificationColumns+`
			FROM notifications WHERE idempotency_key = $1`, in.IdempotencyKey), &n)
		stored = false
	}
	if err != nil {
		return Notification{}, false, fmt.Errorf("send notification: %w", err)
	}
	if messageID != "" {
		s.opts.Push.Dispatch(ctx, messageID)
	}
	if !stored {
		list := []Notification{n}
		s.enrich(ctx, list)
		n = list[0]
	}
	return n, stored, nil
}

// pushMessage is the push for notification n. Its tag is the notification:
// a folded group's newer push replaces the older one on the device.
func pushMessage(n Notification) push.Message {
	return push.Message{Kind: n.Type, Title: n.Title, Body: n.Message, URL: n.Link, Tag: "n-" + n.ID}
}
