package engagement

import (
	"context"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/profiles"
)

// Notices go out after the commit. Each carries an idempotency key naming
// the actor and the target, so a member is told at most once per actor and
// target (a second comment on the same post, a retried request or a like
// taken back and given again tells nobody again), and nobody is told about
// their own doing.

// actorName is how a notice names the member who acted.
func (s *Service) actorName(ctx context.Context, userID string) string {
	if s.profiles == nil {
		return profiles.FallbackName
	}
	return s.profiles.DisplayName(ctx, userID)
}

func (s *Service) send(ctx context.Context, n notifications.Notice) {
	if _, err := s.notify.Send(ctx, n); err != nil {
		s.log.WarnContext(ctx, "comment notification", "type", n.Type, "user_id", n.UserID, "key", n.IdempotencyKey, "err", err)
	}
}

// notifyComment tells the post's author about a comment on their post and,
// for a reply, the parent comment's author (one notice when they are the
// same person: the reply's).
func (s *Service) notifyComment(ctx context.Context, c Comment, cc commentContext) {
	link := s.rules.noticeLink(cc.itemType, c.ItemID)
	if s.notify == nil || link == "" {
		return
	}
	actor := c.authorID
	name := s.actorName(ctx, actor)
	if c.ParentID != nil && cc.parentAuthor != "" && cc.parentAuthor != actor {
		s.send(ctx, notifications.Notice{
			UserID:           cc.parentAuthor,
			Type:             "comment",
			Title:            "Nova resposta",
			Message:          name + " respondeu seu comentário",
			RelatedUserID:    actor,
			RelatedPostID:    c.ItemID,
			RelatedCommentID: c.ID,
			Link:             link,
			GroupKey:         "comment-reply:" + *c.ParentID,
			GroupMessage:     "{actor} e mais {others} {pessoas} responderam seu comentário",
			IdempotencyKey:   "comment-reply:" + actor + ":" + *c.ParentID,
		})
	}
	if cc.itemAuthor == "" || cc.itemAuthor == actor || (c.ParentID != nil && cc.itemAuthor == cc.parentAuthor) {
		return
	}
	s.send(ctx, notifications.Notice{
		UserID:           cc.itemAuthor,
		Type:             "comment",
		Title:            "Novo comentário",
		Message:          name + " comentou seu post",
		RelatedUserID:    actor,
		RelatedPostID:    c.ItemID,
		RelatedCommentID: c.ID,
		Link:             link,
		GroupKey:         "comment-post:" + c.ItemID,
		IdempotencyKey:   "comment-post:" + actor + ":" + c.ItemID,
	})
}

// notifyLike tells a comment's author that actor liked it. The notice
// carries the comment only: the notifications service finds its post with
// CommentItem.
func (s *Service) notifyLike(ctx context.Context, actor, author, commentID, itemID string) {
	if s.notify == nil || author == "" || author == actor {
		return
	}
	var itemType string
	if err := s.pool.QueryRow(ctx, `SELECT type FROM content_items WHERE id = $1`, itemID).Scan(&itemType); err != nil {
		return
	}
	link := s.rules.noticeLink(itemType, itemID)
	if link == "" {
		return
	}
	s.send(ctx, notifications.Notice{
		UserID:           author,
		Type:             "like",
		Title:            "Nova curtida",
		Message:          s.actorName(ctx, actor) + " curtiu seu comentário",
		RelatedUserID:    actor,
		RelatedCommentID: commentID,
		Link:             link,
		GroupKey:         "comment-like:" + commentID,
		IdempotencyKey:   "comment-like:" + actor + ":" + commentID,
	})
}
