package editorial

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/postgres"
)

// Messages about review work.
const (
	MsgNotAReviewer   = "Escolha uma pessoa com perfil de revisor."
	MsgCommentEmpty   = "Escreva o comentário."
	MsgCommentTooLong = "O comentário deve ter no máximo 5000 caracteres."
	MsgNoWorkflowRole = "Seu perfil não permite participar da revisão de conteúdos."
	maxCommentRunes   = 5000
)

// IsReviewer says whether a user may review (holds revisor or super_admin);
// core/roles answers it once the revisor role exists there.
type IsReviewer func(ctx context.Context, userID string) (bool, error)

// Reviews keeps reviewer assignments and review comments.
type Reviews struct {
	pool       *pgxpool.Pool
	isReviewer IsReviewer
	now        func() time.Time
}

// NewReviews returns the review store; now is the clock (time.Now if nil).
func NewReviews(pool *pgxpool.Pool, isReviewer IsReviewer, now func() time.Time) *Reviews {
	if now == nil {
		now = time.Now
	}
	return &Reviews{pool: pool, isReviewer: isReviewer, now: now}
}

// Assignment is the reviewer in charge of an item.
type Assignment struct {
	ItemID     string    `json:"item_id"`
	ReviewerID string    `json:"reviewer_id"`
	AssignedBy string    `json:"assigned_by,omitempty"`
	AssignedAt time.Time `json:"assigned_at"`
}

// Comment is one review comment on a revision of an item.
type Comment struct {
	ID        int64     `json:"id"`
	ItemID    string    `json:"item_id"`
	Revision  int       `json:"revision"`
	AuthorID  string    `json:"author_id,omitempty"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

func hasWorkflowRole(roles []Role) bool { return len(RolesFrom(rolesAsStrings(roles))) > 0 }

func rolesAsStrings(roles []Role) []string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = string(r)
	}
	return out
}

// Assign puts reviewerID in charge of item id (replacing any previous
// assignee). Anyone in the workflow may assign; the assignee must be a
// reviewer.
func (r *Reviews) Assign(ctx context.Context, a content.Actor, roles []Role, itemID, reviewerID string) (Assignment, error) {
	if !hasWorkflowRole(roles) {
		return Assignment{}, core.Errorf(core.EFORBIDDEN, MsgNoWorkflowRole)
	}
	if uuid.Validate(itemID) != nil {
		return Assignment{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	ok := uuid.Validate(reviewerID) == nil
	if ok {
		var err error
		if ok, err = r.isReviewer(ctx, reviewerID); err != nil {
			return Assignment{}, fmt.Errorf("check reviewer: %w", err)
		}
	}
	if !ok {
		return Assignment{}, core.Invalid(MsgNotAReviewer, map[string]string{"reviewer_id": MsgNotAReviewer})
	}
	as := Assignment{ItemID: itemID, ReviewerID: reviewerID, AssignedBy: a.UserID, AssignedAt: r.now()}
	tag, err := r.pool.Exec(ctx, `INSERT INTO editorial_assignments (item_id, reviewer_id, assigned_by, assigned_at)
		SELECT id, $2, nullif($3, '')::uuid, $4 FROM content_items WHERE id = $1
		ON CONFLICT (item_id) DO UPDATE SET reviewer_id = EXCLUDED.reviewer_id, assigned_by = EXCLUDED.assigned_by,
			assigned_at = EXCLUDED.assigned_at`, itemID, reviewerID, a.UserID, as.AssignedAt)
	if err != nil {
		return Assignment{}, fmt.Errorf("assign reviewer: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return Assignment{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	return as, nil
}

// Assignee returns item id's reviewer ("" when none is assigned).
func (r *Reviews) Assignee(ctx context.Context, itemID string) (string, error) {
	if uuid.Validate(itemID) != nil {
		return "", nil
	}
	var id string
	err := r.pool.QueryRow(ctx, `SELECT reviewer_id::text FROM editorial_assignments WHERE item_id = $1`, itemID).Scan(&id)
	if postgres.IsNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("assignee: %w", err)
	}
	return id, nil
}

// AddComment adds a review comment on item id's current revision.
func (r *Reviews) AddComment(ctx context.Context, a content.Actor, roles []Role, itemID, body string) (Comment, error) {
	if !hasWorkflowRole(roles) {
		return Comment{}, core.Errorf(core.EFORBIDDEN, MsgNoWorkflowRole)
	}
	body = strings.TrimSpace(body)
	switch {
	case body == "":
		return Comment{}, core.Invalid(MsgCommentEmpty, map[string]string{"body": MsgCommentEmpty})
	case utf8.RuneCountInString(body) > maxCommentRunes:
		return Comment{}, core.Invalid(MsgCommentTooLong, map[string]string{"body": MsgCommentTooLong})
	}
	if uuid.Validate(itemID) != nil {
		return Comment{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	c := Comment{ItemID: itemID, AuthorID: a.UserID, Body: body, CreatedAt: r.now()}
	err := r.pool.QueryRow(ctx, `INSERT INTO editorial_comments (item_id, revision, author_id, body, created_at)
		SELECT id, version, nullif($2, '')::uuid, $3, $4 FROM content_items WHERE id = $1
		RETURNING id, revision`, itemID, a.UserID, body, c.CreatedAt).Scan(&c.ID, &c.Revision)
	if postgres.IsNoRows(err) {
		return Comment{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	if err != nil {
		return Comment{}, fmt.Errorf("add comment: %w", err)
	}
	return c, nil
}

// Comments lists item id's review comments, oldest first; revision > 0
// keeps those written about that revision.
func (r *Reviews) Comments(ctx context.Context, itemID string, revision int) ([]Comment, error) {
	if uuid.Validate(itemID) != nil {
		return nil, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	rows, err := r.pool.Query(ctx, `SELECT id, item_id::text, revision, coalesce(author_id::text, ''), body, created_at
		FROM editorial_comments WHERE item_id = $1 AND ($2 = 0 OR revision = $2) ORDER BY id`, itemID, revision)
	if err != nil {
		return nil, fmt.Errorf("list comments: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Comment, error) {
		var c Comment
		err := row.Scan(&c.ID, &c.ItemID, &c.Revision, &c.AuthorID, &c.Body, &c.CreatedAt)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("list comments: %w", err)
	}
	return out, nil
}
