package content

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// An item's author may share it with other editors (co-editors): an editor
// sees and edits only the items they wrote or that were shared with them.
// Revisors and super admins see every item; that decision is the editorial
// workflow's, this file only keeps the list and answers "may this editor see
// it".

// Messages about sharing.
const (
	MsgShareUnknownUser = "Pessoa não encontrada."
	MsgShareWithAuthor  = "A autoria já dá acesso a este conteúdo."
)

// CoEditor is an editor an item is shared with: an id and the name the
// team knows them by, never an e-mail address.
type CoEditor struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
}

// SharedWith returns the item's co-editors, in the order they were added.
func (s *Store) SharedWith(ctx context.Context, id string) ([]CoEditor, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT e.user_id::text, trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, ''))
		FROM content_item_editors e LEFT JOIN profiles p ON p.user_id = e.user_id
		WHERE e.item_id = $1 ORDER BY e.added_at, e.user_id`, id)
	if err != nil {
		return nil, fmt.Errorf("co-editors: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[CoEditor])
	if err != nil {
		return nil, fmt.Errorf("co-editors: %w", err)
	}
	return out, nil
}

// Share adds userID to the item's co-editors (idempotent) and records it in
// the audit log.
func (s *Store) Share(ctx context.Context, a Actor, id, userID string) error {
	return s.changeShare(ctx, a, id, userID, true)
}

// Unshare removes userID from the item's co-editors (idempotent).
func (s *Store) Unshare(ctx context.Context, a Actor, id, userID string) error {
	return s.changeShare(ctx, a, id, userID, false)
}

func (s *Store) changeShare(ctx context.Context, a Actor, id, userID string, add bool) error {
	if err := a.check(); err != nil {
		return err
	}
	if uuid.Validate(userID) != nil {
		return core.Errorf(core.ENOTFOUND, MsgShareUnknownUser)
	}
	now := s.now()
	return postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		it, err := getItem(ctx, tx, id)
		if err != nil {
			return err
		}
		if it.AuthorID == userID {
			return core.Invalid(MsgShareWithAuthor, map[string]string{"user_id": MsgShareWithAuthor})
		}
		var changed int64
		if add {
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)`, userID).Scan(&exists); err != nil {
				return fmt.Errorf("share: %w", err)
			}
			if !exists {
				return core.Errorf(core.ENOTFOUND, MsgShareUnknownUser)
			}
			tag, err := tx.Exec(ctx, `INSERT INTO content_item_editors (item_id, user_id, added_by, added_at)
				VALUES ($1, $2, nullif($3, '')::uuid, $4) ON CONFLICT DO NOTHING`, id, userID, a.UserID, now)
			if err != nil {
				return fmt.Errorf("share: %w", err)
			}
			changed = tag.RowsAffected()
		} else {
			tag, err := tx.Exec(ctx, `DELETE FROM content_item_editors WHERE item_id = $1 AND user_id = $2`, id, userID)
			if err != nil {
				return fmt.Errorf("unshare: %w", err)
			}
			changed = tag.RowsAffected()
		}
		if changed == 0 {
			return nil // already so: nothing to record
		}
		action := "unshare"
		if add {
			action = "share"
		}
		return s.rec.RecordTx(ctx, tx, Event{ItemID: id, Type: it.Type, Revision: it.Version, Action: action, Channel: a.Channel,
			ActorID: a.UserID, IP: a.IP, From: it.Status, To: it.Status, Reason: userID, At: now})
	})
}

// editorSeesItem is the SQL condition under which the editor whose id the
// expression who gives may see the item aliased i: they wrote it or it was
// shared with them. Lists and the media library's usage both filter by it,
// so the two can never disagree on what an editor sees.
func editorSeesItem(who string) string {
	return "(i.author_id = " + who + "::uuid OR EXISTS (SELECT 1 FROM content_item_editors e WHERE e.item_id = i.id AND e.user_id = " + who + "::uuid))"
}

// EditorSeesItemSQL is editorSeesItem for other packages' queries over
// content_items aliased i (the audit log, the agenda), so that every list
// of items or of their events applies the one rule.
func EditorSeesItemSQL(who string) string { return editorSeesItem(who) }

// EditorMaySee reports whether the editor userID wrote the item or had it
// shared with them.
func (s *Store) EditorMaySee(ctx context.Context, it Item, userID string) (bool, error) {
	if it.AuthorID != "" && it.AuthorID == userID {
		return true, nil
	}
	var shared bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_item_editors WHERE item_id = $1 AND user_id = $2::uuid)`,
		it.ID, userID).Scan(&shared)
	if err != nil {
		return false, fmt.Errorf("co-editor check: %w", err)
	}
	return shared, nil
}
