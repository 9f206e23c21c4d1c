package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Snapshot is an item's content as it was at one revision.
type Snapshot struct {
	Slug    string                     `json:"slug"`
	Title   string                     `json:"title"`
	Summary string                     `json:"summary"`
	Status  Status                     `json:"status"`
	Fields  map[string]json.RawMessage `json:"fields"`
}

// Revision is one write to an item.
type Revision struct {
	Revision     int       `json:"revision"`
	Action       string    `json:"action"`
	Channel      Channel   `json:"channel"`
	AuthorID     string    `json:"author_id,omitempty"`
	RestoredFrom *int      `json:"restored_from,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
	Snapshot     Snapshot  `json:"snapshot"`
}

// Retention: revisions are kept for at least RetentionAge and the newest
// RetentionCount of each item are always kept, whichever keeps more.
const (
	RetentionAge   = 180 * 24 * time.Hour
	RetentionCount = 100
)

const msgRevisionNotFound = "Revisão não encontrada."

const revisionColumns = `revision, action, channel, coalesce(author_id::text, ''), restored_from, created_at, snapshot`

func scanRevision(row pgx.Row) (Revision, error) {
	var r Revision
	var snap []byte
	if err := row.Scan(&r.Revision, &r.Action, &r.Channel, &r.AuthorID, &r.RestoredFrom, &r.CreatedAt, &snap); err != nil {
		return Revision{}, err
	}
	if err := json.Unmarshal(snap, &r.Snapshot); err != nil {
		return Revision{}, fmt.Errorf("decode snapshot: %w", err)
	}
	return r, nil
}

// Revisions lists item id's revisions, newest first: up to limit of them
// older than before (0: from the newest).
func (s *Store) Revisions(ctx context.Context, id string, before, limit int) ([]Revision, error) {
	if uuid.Validate(id) != nil {
		return nil, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if limit <= 0 || limit > MaxPageSize {
		limit = MaxPageSize
	}
	if before <= 0 {
		before = int(^uint32(0) >> 1)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+revisionColumns+` FROM content_revisions
		WHERE item_id = $1 AND revision < $2 ORDER BY revision DESC LIMIT $3`, id, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list revisions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Revision, error) { return scanRevision(r) })
	if err != nil {
		return nil, fmt.Errorf("list revisions: %w", err)
	}
	return out, nil
}

// Revision returns one revision of item id.
func (s *Store) Revision(ctx context.Context, id string, revision int) (Revision, error) {
	return getRevision(ctx, s.pool, id, revision)
}

func getRevision(ctx context.Context, q queryer, id string, revision int) (Revision, error) {
	if uuid.Validate(id) != nil {
		return Revision{}, core.Errorf(core.ENOTFOUND, msgRevisionNotFound)
	}
	r, err := scanRevision(q.QueryRow(ctx, `SELECT `+revisionColumns+` FROM content_revisions WHERE item_id = $1 AND revision = $2`, id, revision))
	if postgres.IsNoRows(err) {
		return Revision{}, core.Errorf(core.ENOTFOUND, msgRevisionNotFound)
	}
	if err != nil {
		return Revision{}, fmt.Errorf("get revision: %w", err)
	}
	return r, nil
}

// Change is one field that differs between two revisions. Before or After
// is null when the field was absent on that side.
type Change struct {
	Field  string          `json:"field"`
	Label  string          `json:"label"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
}

// Diff compares two revisions of item id field by field: the common parts
// first (slug, title, summary, status), then the type's fields in declared
// order, then fields the type no longer declares.
func (s *Store) Diff(ctx context.Context, id string, from, to int) ([]Change, error) {
	a, err := s.Revision(ctx, id, from)
	if err != nil {
		return nil, err
	}
	b, err := s.Revision(ctx, id, to)
	if err != nil {
		return nil, err
	}
	var typeID string
	if err := s.pool.QueryRow(ctx, `SELECT type FROM content_items WHERE id = $1`, id).Scan(&typeID); err != nil {
		return nil, fmt.Errorf("item type: %w", err)
	}
	t, _ := s.types.Get(typeID)
	return diffSnapshots(t, a.Snapshot, b.Snapshot), nil
}

func diffSnapshots(t *Type, a, b Snapshot) []Change {
	var out []Change
	str := func(s string) json.RawMessage { j, _ := json.Marshal(s); return j }
	common := []struct {
		name, label string
		a, b        string
	}{
		{"slug", "Endereço (slug)", a.Slug, b.Slug},
		{"title", labelTitle, a.Title, b.Title},
		{"summary", labelSummary, a.Summary, b.Summary},
		{"status", "Situação", string(a.Status), string(b.Status)},
	}
	for _, c := range common {
		if c.a != c.b {
			out = append(out, Change{Field: c.name, Label: c.label, Before: str(c.a), After: str(c.b)})
		}
	}
	seen := map[string]bool{}
	field := func(name, label string) {
		seen[name] = true
		va, vb := a.Fields[name], b.Fields[name]
		if !jsonEqual(va, vb) {
			out = append(out, Change{Field: name, Label: label, Before: nullIfEmpty(va), After: nullIfEmpty(vb)})
		}
	}
	if t != nil {
		for _, f := range t.Fields {
			field(f.Name, f.Label)
		}
	}
	var rest []string
	for _, m := range []map[string]json.RawMessage{a.Fields, b.Fields} {
		for name := range m {
			if !seen[name] {
				seen[name] = true
				rest = append(rest, name)
			}
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		field(name, name)
	}
	return out
}

func nullIfEmpty(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// jsonEqual compares two JSON values semantically (key order and spacing
// do not matter).
func jsonEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}

// RestoreRevision writes revision's content back as the working copy, as a
// new revision (history is never rewritten). Like any edit it puts an
// approved, scheduled, published or archived item back to rascunho; a
// published item gets a draft. A revision that no longer passes the type's
// validation is refused with the per-field messages.
func (s *Store) RestoreRevision(ctx context.Context, a Actor, id string, version, revision int) (Item, error) {
	if err := a.check(); err != nil {
		return Item{}, err
	}
	if version <= 0 {
		return Item{}, core.Invalid(MsgVersionRequired, map[string]string{"version": MsgVersionRequired})
	}
	t, err := s.itemType(ctx, id)
	if err != nil {
		return Item{}, err
	}
	// Revisions never change, so this read needs no lock.
	r, err := s.Revision(ctx, id, revision)
	if err != nil {
		return Item{}, err
	}
	in := Input{Slug: r.Snapshot.Slug, Title: r.Snapshot.Title, Summary: r.Snapshot.Summary, Fields: map[string]any{}}
	for k, v := range r.Snapshot.Fields {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return Item{}, fmt.Errorf("decode snapshot field: %w", err)
		}
		in.Fields[k] = x
	}
	if in, err = s.prepare(ctx, t, in); err != nil {
		return Item{}, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, status, published, _, err := lockItem(ctx, tx, id, version)
		if err != nil {
			return err
		}
		return s.writeWorkingCopy(ctx, tx, a, id, t, published, in, revisionNote{action: "restore", from: status, restoredFrom: &revision})
	})
	if err != nil {
		return Item{}, err
	}
	return s.Get(ctx, id)
}

// PruneRevisions deletes the revisions the retention rule lets go: older
// than RetentionAge at now and beyond the newest RetentionCount of their item.
func (s *Store) PruneRevisions(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM content_revisions r USING (
			SELECT item_id, revision, created_at,
				row_number() OVER (PARTITION BY item_id ORDER BY revision DESC) AS newest
			FROM content_revisions
		) k
		WHERE r.item_id = k.item_id AND r.revision = k.revision AND k.newest > $2 AND k.created_at < $1`,
		now.Add(-RetentionAge), RetentionCount)
	if err != nil {
		return 0, fmt.Errorf("prune revisions: %w", err)
	}
	return tag.RowsAffected(), nil
}
