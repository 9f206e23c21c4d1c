package engagement

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// Comments on any published content item (the community's posts today):
// one level of replies, like/dislike per comment, the item's comment count.
// The counts are kept by triggers (migrations/00101_engagement_comments.sql)
// so every delete path, cascades included, keeps them equal to the rows.

// pt-BR messages members see about comments.
const (
	MsgCommentEmpty           = "O comentário não pode estar vazio"
	MsgCommentTooLong         = "O comentário deve ter no máximo 5000 caracteres"
	MsgReplyDepth             = "Respostas só podem ser feitas a comentários principais"
	MsgCommentRateLimited     = "Você está comentando rápido demais. Aguarde um momento."
	MsgCommentEditForbidden   = "Apenas o autor pode editar este comentário"
	MsgCommentDeleteForbidden = "Apenas o autor pode excluir este comentário"
	MsgCommentNotFound        = "Comentário não encontrado."
	MsgCommentKeyReused       = "Esta chave de idempotência já foi usada em outro comentário."
	MsgBadCommentReaction     = `Use "like", "dislike" ou "none".`
)

// MaxCommentLength is the longest comment, in characters, after trimming.
const MaxCommentLength = 5000

// maxIdempotencyKey bounds an Idempotency-Key (the column's CHECK agrees).
const maxIdempotencyKey = 200

// DefaultCommentRate is how many comments one member may post per minute.
var DefaultCommentRate = ratelimit.Rule{Max: 10, Window: time.Minute}

// CommentAuthor is how a comment shows who wrote it; nil when the account is
// gone (the web shows 'Usuário VetClube').
type CommentAuthor = profiles.Author

// Comment is a comment as a reader sees it. Content is the author's text as
// typed (trimmed): clients render it as text, never as HTML.
type Comment struct {
	ID         string         `json:"id"`
	ItemID     string         `json:"item_id"`
	ParentID   *string        `json:"parent_id"`
	Author     *CommentAuthor `json:"author"`
	Content    string         `json:"content"`
	CreatedAt  time.Time      `json:"created_at"`
	UpdatedAt  time.Time      `json:"updated_at"`
	IsEdited   bool           `json:"is_edited"`
	Likes      int64          `json:"likes"`
	Dislikes   int64          `json:"dislikes"`
	IsLiked    bool           `json:"is_liked"`
	IsDisliked bool           `json:"is_disliked"`
	IsMine     bool           `json:"is_mine"`
	// Replies are a top-level comment's replies, oldest first ([] on a reply).
	Replies []Comment `json:"replies"`

	authorID string
}

// AuthorID is the id of the comment's author ("" once the account is gone),
// whether or not they have a profile to show.
func (c Comment) AuthorID() string { return c.authorID }

// CommentReactions are a comment's counts and the reader's reaction.
type CommentReactions struct {
	Likes      int64 `json:"likes"`
	Dislikes   int64 `json:"dislikes"`
	IsLiked    bool  `json:"is_liked"`
	IsDisliked bool  `json:"is_disliked"`
}

// NewComment is what a member posts.
type NewComment struct {
	Content  string
	ParentID string // "" for a top-level comment
	// IdempotencyKey makes a retried create return the first comment ("" for none).
	IdempotencyKey string
}

// rateLimitedError is a 429 that also says when to try again.
type rateLimitedError struct {
	err   *core.Error
	after time.Duration
}

func (e *rateLimitedError) Error() string { return e.err.Error() }
func (e *rateLimitedError) Unwrap() error { return e.err }

// RetryAfter returns how long a rate-limited caller should wait, when err is
// a rate-limit refusal.
func RetryAfter(err error) (time.Duration, bool) {
	var rl *rateLimitedError
	if errors.As(err, &rl) {
		return rl.after, true
	}
	return 0, false
}

// isForeignKeyViolation reports whether err violates the named foreign key.
func isForeignKeyViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503" && pgErr.ConstraintName == constraint
}

func commentNotFound() error { return core.Errorf(core.ENOTFOUND, MsgCommentNotFound) }

// cleanComment trims text and checks it is a comment: not empty, not too long.
func cleanComment(text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", core.Invalid(MsgCommentEmpty, map[string]string{"content": MsgCommentEmpty})
	}
	if utf8.RuneCountInString(text) > MaxCommentLength {
		return "", core.Invalid(MsgCommentTooLong, map[string]string{"content": MsgCommentTooLong})
	}
	return text, nil
}

// itemOpenSQL is true when the item itemColumn is published and the rules
// let the reader see it: only then may the reader see, write or react to its
// comments.
func (s *Service) itemOpenSQL(itemColumn, reader string) string {
	return `EXISTS (SELECT 1 FROM content_published open_cp WHERE open_cp.item_id = ` + itemColumn + `
		AND ` + s.rules.itemVisible("open_cp.item_id", "open_cp.author_id", reader) + `)`
}

// commentOpenSQL is true when the reader may see comment alias c: its item
// is open and the rules let the reader see the comment.
func (s *Service) commentOpenSQL(c, reader string) string {
	return s.itemOpenSQL(c+".item_id", reader) + ` AND ` + s.rules.commentVisible(c+".id", c+".user_id", reader)
}

// commentColumns select a Comment from engagement_comments c joined with
// profiles p and the reader's reaction r (scanComment reads them back).
const commentColumns = `c.id::text, c.item_id::text, c.parent_id::text, coalesce(c.user_id::text, ''),
	p.user_id::text, coalesce(p.first_name, ''), coalesce(p.last_name, ''), nullif(p.avatar_url, ''), nullif(p.title, ''),
	coalesce(p.verified, false), c.content, c.created_at, c.updated_at, c.is_edited, c.likes_count, c.dislikes_count,
	coalesce(r.like_type, '')`

func commentFrom(reader string) string {
	return ` FROM engagement_comments c
		LEFT JOIN profiles p ON p.user_id = c.user_id
		LEFT JOIN engagement_comment_reactions r ON r.comment_id = c.id AND r.user_id = ` + reader + ` `
}

func scanComment(row pgx.Row, readerID string) (Comment, error) {
	var c Comment
	var profileID *string
	var author CommentAuthor
	var reaction string
	err := row.Scan(&c.ID, &c.ItemID, &c.ParentID, &c.authorID, &profileID, &author.FirstName, &author.LastName,
		&author.AvatarURL, &author.Title, &author.Verified, &c.Content, &c.CreatedAt, &c.UpdatedAt, &c.IsEdited,
		&c.Likes, &c.Dislikes, &reaction)
	if err != nil {
		return Comment{}, err
	}
	if profileID != nil {
		author.ID = *profileID
		c.Author = &author
	}
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	c.IsLiked, c.IsDisliked = reaction == string(ReactionLike), reaction == string(ReactionDislike)
	c.IsMine = readerID != "" && c.authorID == readerID
	c.Replies = []Comment{}
	return c, nil
}

// Comments lists item's comments as readerID ("" for a visitor) sees them:
// top-level comments newest first, each with its replies oldest first.
// Comments hidden by moderation, and those of members the reader blocked or
// who blocked the reader, are left out (with their replies).
func (s *Service) Comments(ctx context.Context, readerID, itemID string) ([]Comment, error) {
	if uuid.Validate(itemID) != nil {
		return nil, notFound()
	}
	reader := ReaderArg(readerID)
	var open bool
	if err := s.pool.QueryRow(ctx, `SELECT `+s.itemOpenSQL("$1::uuid", "$2::uuid"), itemID, reader).Scan(&open); err != nil {
		return nil, fmt.Errorf("comments: item: %w", err)
	}
	if !open {
		return nil, notFound()
	}
	rows, err := s.pool.Query(ctx, `SELECT `+commentColumns+commentFrom("$2::uuid")+`
		WHERE c.item_id = $1 AND `+s.rules.commentVisible("c.id", "c.user_id", "$2::uuid")+`
		ORDER BY c.created_at, c.id`, itemID, reader)
	if err != nil {
		return nil, fmt.Errorf("comments: %w", err)
	}
	defer rows.Close()
	var tops []Comment
	replies := map[string][]Comment{}
	for rows.Next() {
		c, err := scanComment(rows, readerID)
		if err != nil {
			return nil, fmt.Errorf("comments: scan: %w", err)
		}
		if c.ParentID == nil {
			tops = append(tops, c)
		} else {
			replies[*c.ParentID] = append(replies[*c.ParentID], c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("comments: %w", err)
	}
	// Rows came oldest first: replies keep that order, top level is reversed.
	out := make([]Comment, 0, len(tops))
	for i := len(tops) - 1; i >= 0; i-- {
		c := tops[i]
		if r := replies[c.ID]; r != nil {
			c.Replies = r
		}
		out = append(out, c)
	}
	return out, nil
}

// Comment returns one comment as readerID sees it, with its replies when it
// is a top-level comment.
func (s *Service) Comment(ctx context.Context, readerID, commentID string) (Comment, error) {
	if uuid.Validate(commentID) != nil {
		return Comment{}, commentNotFound()
	}
	reader := ReaderArg(readerID)
	c, err := scanComment(s.pool.QueryRow(ctx, `SELECT `+commentColumns+commentFrom("$2::uuid")+`
		WHERE c.id = $1 AND `+s.commentOpenSQL("c", "$2::uuid"), commentID, reader), readerID)
	if postgres.IsNoRows(err) {
		return Comment{}, commentNotFound()
	}
	if err != nil {
		return Comment{}, fmt.Errorf("comment: %w", err)
	}
	if c.ParentID != nil {
		return c, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+commentColumns+commentFrom("$2::uuid")+`
		WHERE c.parent_id = $1 AND `+s.rules.commentVisible("c.id", "c.user_id", "$2::uuid")+`
		ORDER BY c.created_at, c.id`, commentID, reader)
	if err != nil {
		return Comment{}, fmt.Errorf("comment replies: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanComment(rows, readerID)
		if err != nil {
			return Comment{}, fmt.Errorf("comment replies: scan: %w", err)
		}
		c.Replies = append(c.Replies, r)
	}
	return c, rows.Err()
}

// commentByKey finds userID's comment created with idempotency key.
func (s *Service) commentByKey(ctx context.Context, userID, key string) (id, itemID, parentID, content string, err error) {
	err = s.pool.QueryRow(ctx, `SELECT id::text, item_id::text, coalesce(parent_id::text, ''), content
		FROM engagement_comments WHERE user_id = $1 AND idempotency_key = $2`, userID, key).Scan(&id, &itemID, &parentID, &content)
	return id, itemID, parentID, content, err
}

// commentContext is what the notices about a new comment need.
type commentContext struct {
	itemType, itemAuthor string
	parentAuthor         string
}

// CreateComment posts userID's comment (or reply, with in.ParentID) on item.
// A retry with the same idempotency key returns the first comment with
// created false, and never counts against the rate limit again.
func (s *Service) CreateComment(ctx context.Context, userID, itemID string, in NewComment) (c Comment, created bool, err error) {
	if err := validIDs(userID, itemID); err != nil {
		return Comment{}, false, err
	}
	text, err := cleanComment(in.Content)
	if err != nil {
		return Comment{}, false, err
	}
	if in.ParentID != "" && uuid.Validate(in.ParentID) != nil {
		return Comment{}, false, commentNotFound()
	}
	key := strings.TrimSpace(in.IdempotencyKey)
	if len(key) > maxIdempotencyKey {
		return Comment{}, false, core.Invalid("Chave de idempotência inválida.", map[string]string{"Idempotency-Key": "Use no máximo 200 caracteres."})
	}
	if key != "" {
		if c, err := s.replay(ctx, userID, itemID, in.ParentID, text, key); err == nil || !postgres.IsNoRows(err) {
			return c, false, err
		}
	}
	if err := s.allowComment(ctx, userID); err != nil {
		return Comment{}, false, err
	}

	var id string
	var cc commentContext
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT cp.type, coalesce(cp.author_id::text, '') FROM content_published cp
			WHERE cp.item_id = $1 AND `+s.itemOpenSQL("$1::uuid", "$2::uuid"), itemID, userID).Scan(&cc.itemType, &cc.itemAuthor)
		if postgres.IsNoRows(err) {
			return notFound()
		}
		if err != nil {
			return fmt.Errorf("comment item: %w", err)
		}
		var parent *string
		if in.ParentID != "" {
			var grandparent *string
			var parentItem string
			err := tx.QueryRow(ctx, `SELECT c.parent_id::text, c.item_id::text, coalesce(c.user_id::text, '')
				FROM engagement_comments c WHERE c.id = $1 AND `+s.commentOpenSQL("c", "$2::uuid"),
				in.ParentID, userID).Scan(&grandparent, &parentItem, &cc.parentAuthor)
			if postgres.IsNoRows(err) || (err == nil && parentItem != itemID) {
				return commentNotFound()
			}
			if err != nil {
				return fmt.Errorf("comment parent: %w", err)
			}
			if grandparent != nil {
				return core.Invalid(MsgReplyDepth, map[string]string{"parent_id": MsgReplyDepth})
			}
			parent = &in.ParentID
		}
		if s.profiles != nil {
			if err := s.profiles.EnsureTx(ctx, tx, userID); err != nil {
				return err
			}
		}
		now := s.now()
		err = tx.QueryRow(ctx, `INSERT INTO engagement_comments (item_id, parent_id, user_id, content, created_at, updated_at, idempotency_key)
			VALUES ($1, $2, $3, $4, $5, $5, nullif($6, ''))
			ON CONFLICT ON CONSTRAINT engagement_comments_idempotency DO NOTHING
			RETURNING id::text`, itemID, parent, userID, text, now, key).Scan(&id)
		if postgres.IsNoRows(err) {
			return nil // a concurrent retry with the same key won
		}
		if isForeignKeyViolation(err, "engagement_comments_parent") {
			// Parents never become replies, but one may be deleted between
			// the check and the insert.
			return commentNotFound()
		}
		return err
	})
	if err != nil {
		return Comment{}, false, err
	}
	if id == "" {
		c, err := s.replay(ctx, userID, itemID, in.ParentID, text, key)
		return c, false, err
	}
	c, err = s.Comment(ctx, userID, id)
	if err != nil {
		return Comment{}, false, err
	}
	s.notifyComment(ctx, c, cc)
	return c, true, nil
}

// replay answers a create retried with key: the first comment, or a
// conflict when the key was used for a different comment. It sends the
// first comment's notices again (each is idempotent), in case the first
// attempt stopped before sending them.
func (s *Service) replay(ctx context.Context, userID, itemID, parentID, text, key string) (Comment, error) {
	id, gotItem, gotParent, gotText, err := s.commentByKey(ctx, userID, key)
	if err != nil {
		return Comment{}, err
	}
	if gotItem != itemID || gotParent != parentID || gotText != text {
		return Comment{}, core.Errorf(core.ECONFLICT, MsgCommentKeyReused)
	}
	c, err := s.Comment(ctx, userID, id)
	if err != nil {
		return Comment{}, err
	}
	var cc commentContext
	err = s.pool.QueryRow(ctx, `SELECT cp.type, coalesce(cp.author_id::text, ''),
			coalesce((SELECT user_id::text FROM engagement_comments WHERE id = $2::uuid), '')
		FROM content_published cp WHERE cp.item_id = $1`, itemID, c.ParentID).Scan(&cc.itemType, &cc.itemAuthor, &cc.parentAuthor)
	if err == nil {
		s.notifyComment(ctx, c, cc)
	}
	return c, nil
}

// allowComment counts one comment of userID against the rate limit.
func (s *Service) allowComment(ctx context.Context, userID string) error {
	rule := s.commentRate
	ok, err := s.limiter.Allow(ctx, "comment:"+userID, rule)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	now := s.now()
	after := now.Truncate(rule.Window).Add(rule.Window).Sub(now)
	return &rateLimitedError{err: core.Errorf(core.ERATELIMITED, MsgCommentRateLimited), after: after}
}

// EditComment replaces the text of userID's comment. Only the author may;
// a text equal to the current one once trimmed changes nothing (is_edited
// and updated_at stay as they were).
func (s *Service) EditComment(ctx context.Context, userID, commentID, content string) (Comment, error) {
	if uuid.Validate(userID) != nil {
		return Comment{}, fmt.Errorf("engagement: user id %q is not a uuid", userID)
	}
	if uuid.Validate(commentID) != nil {
		return Comment{}, commentNotFound()
	}
	text, err := cleanComment(content)
	if err != nil {
		return Comment{}, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var author, current string
		err := tx.QueryRow(ctx, `SELECT coalesce(c.user_id::text, ''), c.content FROM engagement_comments c
			WHERE c.id = $1 AND `+s.commentOpenSQL("c", "$2::uuid")+` FOR UPDATE OF c`, commentID, userID).Scan(&author, &current)
		if postgres.IsNoRows(err) {
			return commentNotFound()
		}
		if err != nil {
			return fmt.Errorf("edit comment: %w", err)
		}
		if author != userID {
			return core.Errorf(core.EFORBIDDEN, MsgCommentEditForbidden)
		}
		if current == text {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE engagement_comments SET content = $2, is_edited = true, updated_at = $3 WHERE id = $1`,
			commentID, text, s.now())
		return err
	})
	if err != nil {
		return Comment{}, err
	}
	return s.Comment(ctx, userID, commentID)
}

// DeleteComment deletes a comment and, for a top-level one, its replies. The
// author may; so may a moderator (moderator true: the caller checked the
// role). The item's comment count follows through the trigger.
func (s *Service) DeleteComment(ctx context.Context, userID, commentID string, moderator bool) error {
	if uuid.Validate(commentID) != nil {
		return commentNotFound()
	}
	return postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var author string
		err := tx.QueryRow(ctx, `SELECT coalesce(user_id::text, '') FROM engagement_comments WHERE id = $1 FOR UPDATE`,
			commentID).Scan(&author)
		if postgres.IsNoRows(err) {
			return commentNotFound()
		}
		if err != nil {
			return fmt.Errorf("delete comment: %w", err)
		}
		if !moderator && (userID == "" || author != userID) {
			return core.Errorf(core.EFORBIDDEN, MsgCommentDeleteForbidden)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM engagement_comments WHERE id = $1`, commentID); err != nil {
			return fmt.Errorf("delete comment: %w", err)
		}
		return nil
	})
}

// SetCommentReaction sets userID's reaction to a comment: like, dislike
// (each replaces the other) or none. The counts move (by trigger) only when
// the reaction row changed; a new like tells the comment's author once.
func (s *Service) SetCommentReaction(ctx context.Context, userID, commentID string, r Reaction) (CommentReactions, error) {
	if r != ReactionNone && r != ReactionLike && r != ReactionDislike {
		return CommentReactions{}, core.Invalid(MsgBadCommentReaction, map[string]string{"reaction": MsgBadCommentReaction})
	}
	if uuid.Validate(userID) != nil {
		return CommentReactions{}, fmt.Errorf("engagement: user id %q is not a uuid", userID)
	}
	if uuid.Validate(commentID) != nil {
		return CommentReactions{}, commentNotFound()
	}
	var out CommentReactions
	var author, itemID string
	var liked bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// Lock the comment first, as a delete does, so a reaction and a
		// delete of the same comment never wait on each other in a cycle
		// (the reaction's trigger updates the comment row).
		err := tx.QueryRow(ctx, `SELECT coalesce(c.user_id::text, ''), c.item_id::text FROM engagement_comments c
			WHERE c.id = $1 AND `+s.commentOpenSQL("c", "$2::uuid")+` FOR NO KEY UPDATE OF c`, commentID, userID).Scan(&author, &itemID)
		if postgres.IsNoRows(err) {
			return commentNotFound()
		}
		if err != nil {
			return fmt.Errorf("comment reaction: %w", err)
		}
		if r == ReactionNone {
			_, err = tx.Exec(ctx, `DELETE FROM engagement_comment_reactions WHERE comment_id = $1 AND user_id = $2`, commentID, userID)
		} else {
			var changed bool
			err = tx.QueryRow(ctx, `WITH up AS (
					INSERT INTO engagement_comment_reactions AS cr (comment_id, user_id, like_type, created_at, updated_at)
					VALUES ($1, $2, $3, $4, $4)
					ON CONFLICT (comment_id, user_id) DO UPDATE SET like_type = EXCLUDED.like_type, updated_at = EXCLUDED.updated_at
						WHERE cr.like_type <> EXCLUDED.like_type
					RETURNING 1)
				SELECT EXISTS (SELECT 1 FROM up)`, commentID, userID, string(r), s.now()).Scan(&changed)
			liked = changed && r == ReactionLike
		}
		if err != nil {
			return fmt.Errorf("comment reaction: %w", err)
		}
		var mine string
		err = tx.QueryRow(ctx, `SELECT c.likes_count, c.dislikes_count, coalesce(r.like_type, '')
			FROM engagement_comments c LEFT JOIN engagement_comment_reactions r ON r.comment_id = c.id AND r.user_id = $2
			WHERE c.id = $1`, commentID, userID).Scan(&out.Likes, &out.Dislikes, &mine)
		out.IsLiked, out.IsDisliked = mine == string(ReactionLike), mine == string(ReactionDislike)
		return err
	})
	if err != nil {
		return CommentReactions{}, err
	}
	if liked {
		s.notifyLike(ctx, userID, author, commentID, itemID)
	}
	return out, nil
}

// CommentItem returns the item a comment belongs to ("" when the comment no
// longer exists): the notifications service finds the post of a liked
// comment with it.
func (s *Service) CommentItem(ctx context.Context, commentID string) (string, error) {
	if s == nil || uuid.Validate(commentID) != nil {
		return "", nil
	}
	var item string
	err := s.pool.QueryRow(ctx, `SELECT item_id::text FROM engagement_comments WHERE id = $1`, commentID).Scan(&item)
	if postgres.IsNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("comment item: %w", err)
	}
	return item, nil
}

// CommentInfo is what moderation records about a comment.
type CommentInfo struct {
	AuthorID string
	ItemID   string
	Content  string
}

// CommentInfo returns a comment's author, item and text (ENOTFOUND when it
// does not exist), whatever its moderation state.
func (s *Service) CommentInfo(ctx context.Context, commentID string) (CommentInfo, error) {
	if uuid.Validate(commentID) != nil {
		return CommentInfo{}, commentNotFound()
	}
	var ci CommentInfo
	err := s.pool.QueryRow(ctx, `SELECT coalesce(user_id::text, ''), item_id::text, content FROM engagement_comments WHERE id = $1`,
		commentID).Scan(&ci.AuthorID, &ci.ItemID, &ci.Content)
	if postgres.IsNoRows(err) {
		return CommentInfo{}, commentNotFound()
	}
	if err != nil {
		return CommentInfo{}, fmt.Errorf("comment info: %w", err)
	}
	return ci, nil
}
