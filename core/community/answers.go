package community

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
)

// Accepted answers: a post's author marks one colleague's comment (or
// reply) on the post as the answer (table community_accepted_answers). One
// per post; choosing another replaces it. What a community challenge counts
// is the accepted answers a member gave in its period.

// Messages of the accepted answer.
const (
	MsgNotAuthorAccept  = "Apenas o autor da publicação pode escolher a resposta aceita"
	MsgAcceptOwn        = "Escolha o comentário de um colega: o seu não pode ser a resposta aceita"
	MsgCommentNotOnPost = "Este comentário não é desta publicação"
	MsgCommentGone      = "Comentário não encontrado"
)

// AcceptedAnswer is a post's accepted answer after a change.
type AcceptedAnswer struct {
	PostID    string  `json:"post_id"`
	CommentID *string `json:"accepted_comment_id"`
}

// AcceptAnswer makes commentID, a colleague's comment on postID, the post's
// accepted answer, as the post's author userID. Accepting the accepted one
// again changes nothing; the comment's author is told once per comment.
func (s *Service) AcceptAnswer(ctx context.Context, userID, postID, commentID string) (AcceptedAnswer, error) {
	author, err := s.visibleAuthor(ctx, userID, postID)
	if err != nil {
		return AcceptedAnswer{}, err
	}
	if author != userID {
		return AcceptedAnswer{}, core.Errorf(core.EFORBIDDEN, MsgNotAuthorAccept)
	}
	if uuid.Validate(commentID) != nil {
		return AcceptedAnswer{}, invalid("comment_id", MsgCommentGone)
	}
	c, err := s.o.Engagement.Comment(ctx, userID, commentID)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return AcceptedAnswer{}, invalid("comment_id", MsgCommentGone)
	}
	if err != nil {
		return AcceptedAnswer{}, err
	}
	if c.ItemID != postID {
		return AcceptedAnswer{}, invalid("comment_id", MsgCommentNotOnPost)
	}
	answerer := c.AuthorID()
	if answerer == "" {
		// The comment's author deleted the account: nobody to credit.
		return AcceptedAnswer{}, invalid("comment_id", MsgCommentGone)
	}
	if answerer == userID {
		return AcceptedAnswer{}, invalid("comment_id", MsgAcceptOwn)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO community_accepted_answers (post_id, comment_id, answerer_id, accepted_by, accepted_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (post_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, answerer_id = EXCLUDED.answerer_id,
			accepted_at = EXCLUDED.accepted_at
		WHERE community_accepted_answers.comment_id <> EXCLUDED.comment_id`,
		postID, commentID, answerer, userID, s.o.Now())
	if postgres.IsUniqueViolation(err, "community_accepted_answers_comment_id_key") {
		// A concurrent acceptance of the same comment inserted first: ON
		// CONFLICT arbitrates on the post only, so the comment's own
		// uniqueness answers instead. A comment belongs to one post, so
		// the row it met is this very acceptance: already done.
		return AcceptedAnswer{PostID: postID, CommentID: &commentID}, nil
	}
	if err != nil {
		return AcceptedAnswer{}, fmt.Errorf("accept answer: %w", err)
	}
	if tag.RowsAffected() > 0 {
		s.notifyAccepted(ctx, userID, answerer, postID, commentID)
	}
	return AcceptedAnswer{PostID: postID, CommentID: &commentID}, nil
}

// ClearAnswer removes postID's accepted answer, as its author userID.
func (s *Service) ClearAnswer(ctx context.Context, userID, postID string) (AcceptedAnswer, error) {
	author, err := s.visibleAuthor(ctx, userID, postID)
	if err != nil {
		return AcceptedAnswer{}, err
	}
	if author != userID {
		return AcceptedAnswer{}, core.Errorf(core.EFORBIDDEN, MsgNotAuthorAccept)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM community_accepted_answers WHERE post_id = $1`, postID); err != nil {
		return AcceptedAnswer{}, fmt.Errorf("clear answer: %w", err)
	}
	return AcceptedAnswer{PostID: postID}, nil
}

// AcceptedAnswers counts the answers of userID that colleagues accepted in
// [from, to) (a community challenge's measure).
func (s *Service) AcceptedAnswers(ctx context.Context, userID string, from, to time.Time) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM community_accepted_answers
		WHERE answerer_id = $1 AND accepted_at >= $2 AND accepted_at < $3`, userID, from, to).Scan(&n); err != nil {
		return 0, fmt.Errorf("count accepted answers: %w", err)
	}
	return n, nil
}

// notifyAccepted tells answerer that actor accepted their comment; once
// per comment.
func (s *Service) notifyAccepted(ctx context.Context, actor, answerer, post, comment string) {
	if s.o.Notify == nil {
		return
	}
	name := s.displayName(ctx, actor)
	_, err := s.o.Notify.Send(ctx, notifications.Notice{
		UserID: answerer, Type: "comment", Title: "Resposta aceita",
		Message:       name + " marcou seu comentário como a resposta da publicação",
		RelatedUserID: actor, RelatedPostID: post, RelatedCommentID: comment, Link: PostLink(post),
		IdempotencyKey: "accepted:" + comment,
	})
	if err != nil {
		s.o.Log.WarnContext(ctx, "notify accepted answer", "post_id", post, "err", err)
	}
}
