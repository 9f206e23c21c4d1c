package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Status is an item's editorial state.
type Status string

const (
	StatusDraft            Status = "rascunho"
	StatusInReview         Status = "em_revisao"
	StatusApproved         Status = "aprovado"
	StatusScheduled        Status = "agendado"
	StatusPublished        Status = "publicado"
	StatusArchived         Status = "arquivado"
	StatusChangesRequested Status = "alteracoes_solicitadas"
)

// Statuses lists every state, in workflow order.
var Statuses = []Status{StatusDraft, StatusInReview, StatusChangesRequested, StatusApproved, StatusScheduled, StatusPublished, StatusArchived}

// Label is the state's pt-BR name.
func (s Status) Label() string {
	switch s {
	case StatusDraft:
		return "Rascunho"
	case StatusInReview:
		return "Em revisão"
	case StatusApproved:
		return "Aprovado"
	case StatusScheduled:
		return "Agendado"
	case StatusPublished:
		return "Publicado"
	case StatusArchived:
		return "Arquivado"
	case StatusChangesRequested:
		return "Alterações solicitadas"
	}
	return string(s)
}

// Channel is where a write came from; every revision records it.
type Channel string

const (
	ChannelBackoffice Channel = "backoffice"
	ChannelAPI        Channel = "api"
	ChannelImport     Channel = "import"
	ChannelPlugin     Channel = "plugin"
	// ChannelSystem is the platform itself (a fired schedule).
	ChannelSystem Channel = "system"
)

// Actor is who writes and through which channel. UserID is empty for
// writes without a person behind them (imports, the scheduler).
type Actor struct {
	UserID  string
	Channel Channel
	// IP is the client address of a request, for the audit log ("" when none).
	IP string
	// LockToken is the edit lock the backoffice editor holds (AcquireLock);
	// a save under a lock someone else took over is refused.
	LockToken string
}

func (a Actor) check() error {
	switch a.Channel {
	case ChannelBackoffice, ChannelAPI, ChannelImport, ChannelPlugin, ChannelSystem:
	default:
		return fmt.Errorf("content: unknown channel %q", a.Channel)
	}
	if a.UserID != "" && uuid.Validate(a.UserID) != nil {
		return fmt.Errorf("content: actor user id %q is not a uuid", a.UserID)
	}
	if a.LockToken != "" && uuid.Validate(a.LockToken) != nil {
		return core.Errorf(core.ECONFLICT, MsgSaveTakenOver)
	}
	return nil
}

// Item is the working copy of an item, as the backoffice sees it.
type Item struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Status   Status          `json:"status"`
	Version  int             `json:"version"`
	Slug     string          `json:"slug"`
	Title    string          `json:"title"`
	Summary  string          `json:"summary"`
	Fields   json.RawMessage `json:"fields"`
	AuthorID string          `json:"author_id,omitempty"`
	// Published says readers can see the item; HasDraft that the working
	// copy has changes they do not see yet.
	Published   bool       `json:"published"`
	HasDraft    bool       `json:"has_draft"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	PublishedAt *time.Time `json:"published_at,omitempty"`
	// PublishAt is when a scheduled (agendado) item is to be published.
	PublishAt *time.Time `json:"publish_at,omitempty"`
	// UnpublishAt is when a published or scheduled item is to go offline.
	UnpublishAt *time.Time `json:"unpublish_at,omitempty"`
	// Media is never stored nor served: MediaHooks fill it, keyed by field
	// name, with the media assets the item's fields point at, for the
	// hooks to gate on.
	Media map[string]MediaInfo `json:"-"`
}

// Messages users read.
const (
	MsgTypeNotFound   = "Tipo de conteúdo não encontrado."
	MsgItemNotFound   = "Conteúdo não encontrado."
	MsgStaleVersion   = "Este conteúdo foi alterado por outra pessoa desde que você o abriu. Recarregue a página para ver a versão atual."
	MsgSlugTaken      = "Já existe outro conteúdo com este endereço (slug)."
	MsgNoDraft        = "Não há alterações para descartar."
	MsgIdempotencyKey = "Esta chave de idempotência já foi usada em outro conteúdo."
)

// Store reads and writes content items.
type Store struct {
	pool  *pgxpool.Pool
	types *Registry
	now   func() time.Time
	hooks Hooks
	rec   Recorder
}

// Options configures a Store.
type Options struct {
	// Now is the clock (tests move it); time.Now when nil.
	Now func() time.Time
	// Hooks are the type plugins' write hooks; NoHooks when nil.
	Hooks Hooks
	// Recorder writes an audit event inside each write's transaction
	// (core/editorial's audit log); none when nil.
	Recorder Recorder
}

// New returns a store on pool serving the types in reg.
func New(pool *pgxpool.Pool, reg *Registry, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Hooks == nil {
		opts.Hooks = NoHooks{}
	}
	if opts.Recorder == nil {
		opts.Recorder = noRecorder{}
	}
	return &Store{pool: pool, types: reg, now: opts.Now, hooks: opts.Hooks, rec: opts.Recorder}
}

// MsgVersionRequired refuses a save that does not say which version it edits.
const MsgVersionRequired = "Informe a versão do conteúdo que você editou."

// prepare runs the core's checks and then the plugin's on in, outside any
// transaction.
func (s *Store) prepare(ctx context.Context, t *Type, in Input) (Input, error) {
	in.Fields = withoutComputed(t, in.Fields)
	in, errs := t.CheckInput(in)
	if err := errs.Err(); err != nil {
		return Input{}, err
	}
	check, err := s.hooks.ValidateContent(ctx, t, in)
	if err != nil {
		return Input{}, fmt.Errorf("validate content hook: %w", err)
	}
	if err := check.Errors.Err(); err != nil {
		return Input{}, err
	}
	if len(check.Computed) == 0 {
		return in, nil
	}
	merged := maps.Clone(in.Fields)
	if merged == nil {
		merged = map[string]any{}
	}
	for name, v := range check.Computed {
		if f, ok := t.Field(name); !ok || !f.Computed {
			return Input{}, fmt.Errorf("validate content hook of %s: %q is not a computed field", t.ID, name)
		}
		merged[name] = v
	}
	in.Fields = merged
	// The plugin's values are held to their declarations like an editor's:
	// a wrong one is the plugin's bug, never stored.
	in, errs = t.CheckInput(in)
	if len(errs) > 0 {
		return Input{}, fmt.Errorf("validate content hook of %s: computed values refused: %v", t.ID, errs)
	}
	return in, nil
}

// withoutComputed drops what an editor sent for the type's computed fields:
// only its plugin sets them.
func withoutComputed(t *Type, fields map[string]any) map[string]any {
	var out map[string]any
	for name := range fields {
		if f, ok := t.Field(name); ok && f.Computed {
			if out == nil {
				out = maps.Clone(fields)
			}
			delete(out, name)
		}
	}
	if out == nil {
		return fields
	}
	return out
}

// itemType returns the type of item id (an item never changes type, so
// this can be read before the write's transaction).
func (s *Store) itemType(ctx context.Context, id string) (*Type, error) {
	if uuid.Validate(id) != nil {
		return nil, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	var typeID string
	err := s.pool.QueryRow(ctx, `SELECT type FROM content_items WHERE id = $1`, id).Scan(&typeID)
	if postgres.IsNoRows(err) {
		return nil, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("item type: %w", err)
	}
	return s.typeOf(typeID)
}

// Types is the registry the store serves.
func (s *Store) Types() *Registry { return s.types }

func (s *Store) typeOf(id string) (*Type, error) {
	t, ok := s.types.Get(id)
	if !ok {
		return nil, core.Errorf(core.ENOTFOUND, MsgTypeNotFound)
	}
	return t, nil
}

const itemColumns = `i.id::text, i.type, i.status, i.version, i.slug, i.title, i.summary, i.fields,
	coalesce(i.author_id::text, ''), p.item_id IS NOT NULL, i.has_draft, i.created_at, i.updated_at, i.published_at, i.publish_at, i.unpublish_at`

const itemFrom = ` FROM content_items i LEFT JOIN content_published p ON p.item_id = i.id `

// itemTargets are the scan destinations of itemColumns; the fields land in
// *fields (copy them into it.Fields after the scan).
func itemTargets(it *Item, fields *[]byte) []any {
	return []any{&it.ID, &it.Type, &it.Status, &it.Version, &it.Slug, &it.Title, &it.Summary, fields,
		&it.AuthorID, &it.Published, &it.HasDraft, &it.CreatedAt, &it.UpdatedAt, &it.PublishedAt, &it.PublishAt, &it.UnpublishAt}
}

func scanItem(row pgx.Row) (Item, error) {
	var it Item
	var fields []byte
	err := row.Scan(itemTargets(&it, &fields)...)
	it.Fields = fields
	return it, err
}

// Get returns the working copy of item id.
func (s *Store) Get(ctx context.Context, id string) (Item, error) {
	return getItem(ctx, s.pool, id)
}

type queryer interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func getItem(ctx context.Context, q queryer, id string) (Item, error) {
	if uuid.Validate(id) != nil {
		return Item{}, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	it, err := scanItem(q.QueryRow(ctx, `SELECT `+itemColumns+itemFrom+`WHERE i.id = $1`, id))
	if postgres.IsNoRows(err) {
		return Item{}, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if err != nil {
		return Item{}, fmt.Errorf("get content item: %w", err)
	}
	return it, nil
}

// searchSQL builds the item's search vector from the title (weight A), the
// summary (B) and the searchable fields (C), with accent-insensitive
// Portuguese stemming.
const searchSQL = `setweight(to_tsvector('vetclube_pt', $title), 'A') || setweight(to_tsvector('vetclube_pt', $summary), 'B') || setweight(to_tsvector('vetclube_pt', $body), 'C')`

func searchExpr(title, summary, body int) string {
	r := strings.NewReplacer("$title", fmt.Sprintf("$%d", title), "$summary", fmt.Sprintf("$%d", summary), "$body", fmt.Sprintf("$%d", body))
	return r.Replace(searchSQL)
}

// searchText joins the values of t's searchable fields (option labels for
// selects, so that "Clínica" finds the category clinica).
func searchText(t *Type, fields map[string]any) string {
	var b strings.Builder
	for i := range t.Fields {
		f := &t.Fields[i]
		if !f.Searchable {
			continue
		}
		switch v := fields[f.Name].(type) {
		case string:
			if f.Kind == KindSelect {
				v = f.optionLabel(v)
			}
			b.WriteString(v)
			b.WriteString("\n")
		case []string:
			for _, s := range v {
				if f.Kind == KindMultiSelect {
					s = f.optionLabel(s)
				}
				b.WriteString(s)
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func (f *Field) optionLabel(v string) string {
	for _, o := range f.Options {
		if o.Value == v {
			return o.Label
		}
	}
	return v
}

// checkReferences makes sure every reference and child points to an
// existing item of the field's target type.
func checkReferences(ctx context.Context, tx pgx.Tx, t *Type, fields map[string]any) error {
	errs := FieldErrors{}
	for i := range t.Fields {
		f := &t.Fields[i]
		if f.Kind != KindReference && f.Kind != KindChildren {
			continue
		}
		var ids []string
		switch v := fields[f.Name].(type) {
		case string:
			ids = []string{v}
		case []string:
			ids = v
		}
		if len(ids) == 0 {
			continue
		}
		var found int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM content_items WHERE id = ANY($1::uuid[]) AND type = $2`,
			ids, f.Target).Scan(&found); err != nil {
			return fmt.Errorf("check references: %w", err)
		}
		if found != len(ids) {
			if len(ids) == 1 {
				errs[f.Name] = fmt.Sprintf("O item escolhido no campo %s não existe mais.", f.Label)
			} else {
				errs[f.Name] = fmt.Sprintf("Um dos itens escolhidos no campo %s não existe mais.", f.Label)
			}
		}
	}
	return errs.Err()
}

// freeSlug returns base, or base with the first free "-N" suffix, among the
// type's items.
func freeSlug(ctx context.Context, tx pgx.Tx, typeID, base string) (string, error) {
	rows, err := tx.Query(ctx, `SELECT slug FROM content_items WHERE type = $1 AND (slug = $2 OR slug LIKE $2 || '-%')`, typeID, base)
	if err != nil {
		return "", fmt.Errorf("free slug: %w", err)
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", fmt.Errorf("free slug: %w", err)
	}
	if !slices.Contains(taken, base) {
		return base, nil
	}
	for n := 2; ; n++ {
		s := fmt.Sprintf("%s-%d", base, n)
		if !slices.Contains(taken, s) {
			return s, nil
		}
	}
}

func slugTaken(err error) error {
	if postgres.IsUniqueViolation(err, "content_items_type_slug") {
		return core.Invalid(MsgInvalidFields, map[string]string{"slug": MsgSlugTaken})
	}
	return nil
}

// Create validates in and stores a new item of typeID, with revision 1.
// Items of a publish-on-create type are published at once; others start as
// drafts. A non-empty idempotencyKey makes the call safe to retry: a repeated
// key returns the item it created first and created=false.
func (s *Store) Create(ctx context.Context, a Actor, typeID string, in Input, idempotencyKey string) (it Item, created bool, err error) {
	return s.CreateWithin(ctx, a, typeID, in, idempotencyKey, nil)
}

// Within is a feature's own writes that must commit with an item's create
// or update (a community post's pictures and VetCoins): it runs in the
// write's transaction, after the item is stored, and an error rolls the
// whole write back. it is the item as written.
type Within func(ctx context.Context, tx pgx.Tx, it Item) error

// CreateWithin is Create with within run in the create's transaction. A
// repeated idempotency key returns the first item without running within
// again.
func (s *Store) CreateWithin(ctx context.Context, a Actor, typeID string, in Input, idempotencyKey string, within Within) (it Item, created bool, err error) {
	if err := a.check(); err != nil {
		return Item{}, false, err
	}
	t, err := s.typeOf(typeID)
	if err != nil {
		return Item{}, false, err
	}
	if in, err = s.prepare(ctx, t, in); err != nil {
		return Item{}, false, err
	}
	fields, err := json.Marshal(in.Fields)
	if err != nil {
		return Item{}, false, fmt.Errorf("encode fields: %w", err)
	}
	status := StatusDraft
	if t.Workflow == WorkflowPublishOnCreate {
		status = StatusPublished
	}
	now := s.now()
	autoSlug := in.Slug == ""
	// A derived slug can be taken by a concurrent create between choosing it
	// and inserting; choose again rather than blame the editor for it.
	for attempt := 0; ; attempt++ {
		it, created, err = s.create(ctx, a, t, in, fields, status, idempotencyKey, now, within)
		var e *core.Error
		if !autoSlug || attempt == 3 || !errors.As(err, &e) || e.Fields["slug"] != MsgSlugTaken {
			break
		}
	}
	if err == nil && created && it.Published {
		s.hooks.AfterPublish(ctx, it)
	}
	return it, created, err
}

func (s *Store) create(ctx context.Context, a Actor, t *Type, in Input, fields []byte, status Status, idempotencyKey string, now time.Time, within Within) (it Item, created bool, err error) {
	typeID := t.ID
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if idempotencyKey != "" {
			// Serialise retries of one key, so that the second sees the first's item.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('content:' || $1, 0))`, idempotencyKey); err != nil {
				return fmt.Errorf("lock idempotency key: %w", err)
			}
			var id, existingType, author string
			err := tx.QueryRow(ctx, `SELECT id::text, type, coalesce(author_id::text, '') FROM content_items WHERE idempotency_key = $1`,
				idempotencyKey).Scan(&id, &existingType, &author)
			if err == nil {
				if existingType != typeID || author != a.UserID {
					return core.Errorf(core.ECONFLICT, MsgIdempotencyKey)
				}
				it, err = getItem(ctx, tx, id)
				return err
			}
			if !postgres.IsNoRows(err) {
				return fmt.Errorf("find idempotency key: %w", err)
			}
		}
		if err := checkReferences(ctx, tx, t, in.Fields); err != nil {
			return err
		}
		if in.Slug == "" {
			if in.Slug, err = freeSlug(ctx, tx, typeID, Slugify(in.Title)); err != nil {
				return err
			}
		}
		var publishedAt *time.Time
		if status == StatusPublished {
			publishedAt = &now
		}
		var id string
		err := tx.QueryRow(ctx, `INSERT INTO content_items
			(type, status, slug, title, summary, fields, search, author_id, idempotency_key, created_at, updated_at, published_at)
			VALUES ($1, $2, $3, $4, $5, $6, `+searchExpr(4, 5, 7)+`, nullif($8, '')::uuid, nullif($9, ''), $10, $10, $11)
			RETURNING id::text`,
			typeID, status, in.Slug, in.Title, in.Summary, fields, searchText(t, in.Fields), a.UserID, idempotencyKey, now, publishedAt).Scan(&id)
		if e := slugTaken(err); e != nil {
			return e
		}
		if err != nil {
			return fmt.Errorf("insert content item: %w", err)
		}
		if status == StatusPublished {
			if err := copyToPublished(ctx, tx, id, now); err != nil {
				return err
			}
		}
		if err := s.appendRevision(ctx, tx, id, a, revisionNote{action: "create"}, now); err != nil {
			return err
		}
		created = true
		if it, err = getItem(ctx, tx, id); err != nil {
			return err
		}
		if within != nil {
			return within(ctx, tx, it)
		}
		return nil
	})
	return it, created, err
}

// lockItem locks item id for a write and checks the caller's version
// (version 0 skips the check, for writers that hold no version, like a
// fired schedule, and guard with a state instead).
func lockItem(ctx context.Context, tx pgx.Tx, id string, version int) (typeID string, status Status, published, hasDraft bool, err error) {
	if uuid.Validate(id) != nil {
		return "", "", false, false, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	var current int
	err = tx.QueryRow(ctx, `SELECT i.type, i.status, i.version, EXISTS (SELECT 1 FROM content_published p WHERE p.item_id = i.id), i.has_draft
		FROM content_items i WHERE i.id = $1 FOR UPDATE`, id).Scan(&typeID, &status, &current, &published, &hasDraft)
	if postgres.IsNoRows(err) {
		return "", "", false, false, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if err != nil {
		return "", "", false, false, fmt.Errorf("lock content item: %w", err)
	}
	if version != 0 && version != current {
		return "", "", false, false, core.Errorf(core.ECONFLICT, MsgStaleVersion)
	}
	return typeID, status, published, hasDraft, nil
}

// revisionNote says what a write was, for its revision and audit event.
type revisionNote struct {
	action       string // the revision's action: create, update, publish, ...
	from         Status // the state before the write ("" on create)
	restoredFrom *int
	workflow     string // the workflow action behind a transition, if any
	reason       string
}

// appendRevision records the item's current row as revision = its version,
// and the write's audit event, in the write's transaction.
func (s *Store) appendRevision(ctx context.Context, tx pgx.Tx, id string, a Actor, n revisionNote, at time.Time) error {
	var e Event
	err := tx.QueryRow(ctx, `INSERT INTO content_revisions (item_id, revision, action, channel, author_id, snapshot, restored_from, created_at)
		SELECT id, version, $2, $3, nullif($4, '')::uuid,
			jsonb_build_object('slug', slug, 'title', title, 'summary', summary, 'status', status, 'fields', fields), $5, $6
		FROM content_items WHERE id = $1
		RETURNING revision, snapshot->>'status', (SELECT type FROM content_items WHERE id = $1)`,
		id, n.action, a.Channel, a.UserID, n.restoredFrom, at).Scan(&e.Revision, &e.To, &e.Type)
	if err != nil {
		return fmt.Errorf("append revision: %w", err)
	}
	e.ItemID, e.Channel, e.ActorID, e.IP, e.From, e.Reason, e.At = id, a.Channel, a.UserID, a.IP, n.from, n.reason, at
	e.Action = n.action
	if n.workflow != "" {
		e.Action = n.workflow
	}
	if err := s.rec.RecordTx(ctx, tx, e); err != nil {
		return fmt.Errorf("record audit event: %w", err)
	}
	return nil
}

// copyToPublished makes the working copy the public snapshot.
func copyToPublished(ctx context.Context, tx pgx.Tx, id string, now time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO content_published
			(item_id, type, slug, title, summary, fields, search, author_id, revision, published_at, last_published_at)
		SELECT id, type, slug, title, summary, fields, search, author_id, version, coalesce(published_at, $2), $2
		FROM content_items WHERE id = $1
		ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, summary = EXCLUDED.summary,
			fields = EXCLUDED.fields, search = EXCLUDED.search, author_id = EXCLUDED.author_id,
			revision = EXCLUDED.revision, last_published_at = EXCLUDED.last_published_at`, id, now)
	if postgres.IsUniqueViolation(err, "content_published_type_slug") {
		return core.Errorf(core.ECONFLICT, "Já existe outro conteúdo publicado com este endereço (slug). Mude o endereço antes de publicar.")
	}
	if err != nil {
		return fmt.Errorf("publish snapshot: %w", err)
	}
	return nil
}

// Update replaces the working copy of item id, which the caller read at
// version. A published item keeps its public snapshot: the change is a draft
// until the next publish. An empty slug keeps the current one.
//
// The status is the state of the working copy, so an edit after approval
// (aprovado, agendado, publicado) or of an archived item puts it back to
// rascunho: changed content goes through review again, and a schedule that
// fires for it finds it no longer agendado. Edits in rascunho, em_revisao and
// alteracoes_solicitadas keep the state.
//
// An item of a publish-on-create type (community posts) has no review: an
// edit of a published one is published in the same transaction.
func (s *Store) Update(ctx context.Context, a Actor, id string, version int, in Input) (Item, error) {
	return s.UpdateWithin(ctx, a, id, version, in, nil)
}

// UpdateWithin is Update with within run in the update's transaction.
func (s *Store) UpdateWithin(ctx context.Context, a Actor, id string, version int, in Input, within Within) (Item, error) {
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
	if in, err = s.prepare(ctx, t, in); err != nil {
		return Item{}, err
	}
	republished := false
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, status, published, _, err := lockItem(ctx, tx, id, version)
		if err != nil {
			return err
		}
		republished = published && t.Workflow == WorkflowPublishOnCreate
		if err := s.writeWorkingCopy(ctx, tx, a, id, t, published, in, revisionNote{action: "update", from: status}); err != nil {
			return err
		}
		if within == nil {
			return nil
		}
		it, err := getItem(ctx, tx, id)
		if err != nil {
			return err
		}
		return within(ctx, tx, it)
	})
	if err != nil {
		return Item{}, err
	}
	it, err := s.Get(ctx, id)
	if err == nil && republished {
		s.hooks.AfterPublish(ctx, it)
	}
	return it, err
}

// writeWorkingCopy stores in (already prepared) as item id's working copy.
func (s *Store) writeWorkingCopy(ctx context.Context, tx pgx.Tx, a Actor, id string, t *Type, published bool, in Input, n revisionNote) error {
	if err := checkLockTx(ctx, tx, id, a); err != nil {
		return err
	}
	if err := checkReferences(ctx, tx, t, in.Fields); err != nil {
		return err
	}
	fields, err := json.Marshal(in.Fields)
	if err != nil {
		return fmt.Errorf("encode fields: %w", err)
	}
	now := s.now()
	// A published item of a publish-on-create type goes public as written.
	republish := published && t.Workflow == WorkflowPublishOnCreate
	_, err = tx.Exec(ctx, `UPDATE content_items SET slug = coalesce(nullif($2, ''), slug), title = $3, summary = $4, fields = $5,
			search = `+searchExpr(3, 4, 6)+`, version = version + 1, updated_at = $7, has_draft = $8 AND NOT $9,
			status = CASE WHEN $9 THEN 'publicado'
				WHEN status IN ('aprovado', 'agendado', 'publicado', 'arquivado') THEN 'rascunho' ELSE status END
		WHERE id = $1`, id, in.Slug, in.Title, in.Summary, fields, searchText(t, in.Fields), now, published, republish)
	if e := slugTaken(err); e != nil {
		return e
	}
	if err != nil {
		return fmt.Errorf("update content item: %w", err)
	}
	if republish {
		if err := copyToPublished(ctx, tx, id, now); err != nil {
			return err
		}
	}
	return s.appendRevision(ctx, tx, id, a, n, now)
}

// Effect is what a transition does to the public snapshot.
type Effect int

const (
	EffectNone      Effect = iota
	EffectPublish          // the working copy becomes the public snapshot
	EffectUnpublish        // readers no longer see the item
)

// Transition moves an item between states. The editorial workflow decides
// which moves a role may make; the store applies one atomically, refusing it
// when the item is not in one of From (a concurrent move won) or not at
// Version (0: no version check).
type Transition struct {
	ID      string
	Version int
	From    []Status
	To      Status
	Effect  Effect
	// Action names the workflow action ("approve") in the audit event;
	// Reason is the comment or justification given with it.
	Action string
	Reason string
	// PublishAt is the moment to publish, required when To is agendado.
	// Leaving agendado clears it (a trigger does, whatever the write).
	PublishAt *time.Time
	// DueBy, when set, applies the move only if the item's stored publish
	// moment is at or before it (checked under the row lock): a timer that
	// read an older moment must not publish an item rescheduled later.
	DueBy *time.Time
}

// MsgNotDue refuses a scheduled publication whose moment has not come.
const MsgNotDue = "A publicação agendada ainda não chegou ao horário marcado."

// MsgScheduleTime asks for the moment of a scheduled publication.
const MsgScheduleTime = "Escolha a data e a hora da publicação."

// Transition applies tr and appends a revision. The type's BeforeTransition
// hook may refuse it first; AfterPublish runs once a publish has committed.
func (s *Store) Transition(ctx context.Context, a Actor, tr Transition) (Item, error) {
	if err := a.check(); err != nil {
		return Item{}, err
	}
	if !slices.Contains(Statuses, tr.To) {
		return Item{}, fmt.Errorf("content: unknown status %q", tr.To)
	}
	if (tr.To == StatusScheduled) != (tr.PublishAt != nil) {
		return Item{}, core.Invalid(MsgScheduleTime, map[string]string{"publish_at": MsgScheduleTime})
	}
	current, err := s.Get(ctx, tr.ID)
	if err != nil {
		return Item{}, err
	}
	if err := checkTransition(current, tr); err != nil {
		return Item{}, err
	}
	t, err := s.typeOf(current.Type)
	if err != nil {
		return Item{}, err
	}
	if tr.Effect == EffectPublish {
		// The type may have changed since the item was written: publish
		// only what is valid today.
		var values map[string]any
		if err := json.Unmarshal(current.Fields, &values); err != nil {
			return Item{}, fmt.Errorf("decode fields: %w", err)
		}
		if errs := ValidateFields(t, values); len(errs) > 0 {
			return Item{}, errs.Err()
		}
	}
	if err := s.hooks.BeforeTransition(ctx, current, tr.To); err != nil {
		return Item{}, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, status, _, _, err := lockItem(ctx, tx, tr.ID, tr.Version)
		if err != nil {
			return err
		}
		locked := current
		locked.Status = status
		if err := checkTransition(locked, tr); err != nil {
			return err
		}
		if tr.DueBy != nil {
			var at *time.Time
			if err := tx.QueryRow(ctx, `SELECT publish_at FROM content_items WHERE id = $1`, tr.ID).Scan(&at); err != nil {
				return fmt.Errorf("read publish moment: %w", err)
			}
			if at == nil || at.After(*tr.DueBy) {
				return core.Errorf(core.ECONFLICT, MsgNotDue)
			}
		}
		if tr.Effect == EffectPublish {
			// What was validated (and shown to the hook) is what goes public.
			var version int
			if err := tx.QueryRow(ctx, `SELECT version FROM content_items WHERE id = $1`, tr.ID).Scan(&version); err != nil {
				return fmt.Errorf("read version: %w", err)
			}
			if version != current.Version {
				return core.Errorf(core.ECONFLICT, MsgStaleVersion)
			}
		}
		now := s.now()
		action := "transition"
		switch tr.Effect {
		case EffectPublish:
			action = "publish"
		case EffectUnpublish:
			action = "unpublish"
		}
		if _, err := tx.Exec(ctx, `UPDATE content_items SET status = $2, version = version + 1, updated_at = $3,
				has_draft = CASE WHEN $4 THEN false ELSE has_draft END,
				published_at = CASE WHEN $5 THEN coalesce(published_at, $3) ELSE published_at END,
				publish_at = $6, unpublish_at = CASE WHEN $7 THEN NULL ELSE unpublish_at END
			WHERE id = $1`, tr.ID, tr.To, now, tr.Effect != EffectNone, tr.Effect == EffectPublish, tr.PublishAt,
			tr.Effect == EffectUnpublish); err != nil {
			return fmt.Errorf("move content item: %w", err)
		}
		switch tr.Effect {
		case EffectPublish:
			if err := copyToPublished(ctx, tx, tr.ID, now); err != nil {
				return err
			}
		case EffectUnpublish:
			if _, err := tx.Exec(ctx, `DELETE FROM content_published WHERE item_id = $1`, tr.ID); err != nil {
				return fmt.Errorf("unpublish: %w", err)
			}
		}
		return s.appendRevision(ctx, tx, tr.ID, a, revisionNote{action: action, from: status, workflow: tr.Action, reason: tr.Reason}, now)
	})
	if err != nil {
		return Item{}, err
	}
	it, err := s.Get(ctx, tr.ID)
	if err == nil && tr.Effect == EffectPublish {
		s.hooks.AfterPublish(ctx, it)
	}
	return it, err
}

// checkTransition refuses tr when it is not at tr.Version or not in tr.From.
func checkTransition(it Item, tr Transition) error {
	if tr.Version != 0 && tr.Version != it.Version {
		return core.Errorf(core.ECONFLICT, MsgStaleVersion)
	}
	if len(tr.From) > 0 && !slices.Contains(tr.From, it.Status) {
		return core.Errorf(core.ECONFLICT, "Este conteúdo está em \u201c%s\u201d e não pode passar para \u201c%s\u201d.", it.Status.Label(), tr.To.Label())
	}
	return nil
}

// Publish makes the working copy public now (a transition to publicado
// from any state listed in from; none means any state).
func (s *Store) Publish(ctx context.Context, a Actor, id string, version int, from ...Status) (Item, error) {
	return s.Transition(ctx, a, Transition{ID: id, Version: version, From: from, To: StatusPublished, Effect: EffectPublish})
}

// DiscardDraft drops the unpublished changes of a published item: the
// working copy goes back to the public snapshot (as a new revision) and the
// item back to publicado.
func (s *Store) DiscardDraft(ctx context.Context, a Actor, id string, version int) (Item, error) {
	if err := a.check(); err != nil {
		return Item{}, err
	}
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, status, published, hasDraft, err := lockItem(ctx, tx, id, version)
		if err != nil {
			return err
		}
		if !published || !hasDraft {
			return core.Errorf(core.ECONFLICT, MsgNoDraft)
		}
		if err := checkLockTx(ctx, tx, id, a); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.Exec(ctx, `UPDATE content_items i SET slug = p.slug, title = p.title, summary = p.summary,
				fields = p.fields, search = p.search, status = 'publicado', has_draft = false,
				version = i.version + 1, updated_at = $2
			FROM content_published p WHERE p.item_id = i.id AND i.id = $1`, id, now); err != nil {
			if e := slugTaken(err); e != nil {
				return core.Errorf(core.ECONFLICT, MsgSlugTaken)
			}
			return fmt.Errorf("discard draft: %w", err)
		}
		return s.appendRevision(ctx, tx, id, a, revisionNote{action: "discard", from: status}, now)
	})
	if err != nil {
		return Item{}, err
	}
	return s.Get(ctx, id)
}

// MsgUnpublishNeedsPublished refuses an unpublish moment for an item that is
// neither published nor scheduled.
const MsgUnpublishNeedsPublished = "Só é possível agendar a despublicação de um conteúdo publicado ou agendado."

// SetUnpublishAt sets (or, with nil, cancels) the moment item id goes
// offline, as a new revision. The item must be published or scheduled.
func (s *Store) SetUnpublishAt(ctx context.Context, a Actor, id string, version int, at *time.Time) (Item, error) {
	if err := a.check(); err != nil {
		return Item{}, err
	}
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		_, status, published, _, err := lockItem(ctx, tx, id, version)
		if err != nil {
			return err
		}
		if at != nil && !published && status != StatusScheduled {
			return core.Errorf(core.ECONFLICT, MsgUnpublishNeedsPublished)
		}
		now := s.now()
		if _, err := tx.Exec(ctx, `UPDATE content_items SET unpublish_at = $2, version = version + 1, updated_at = $3 WHERE id = $1`,
			id, at, now); err != nil {
			return fmt.Errorf("set unpublish moment: %w", err)
		}
		action := "schedule_unpublish"
		if at == nil {
			action = "cancel_unpublish"
		}
		return s.appendRevision(ctx, tx, id, a, revisionNote{action: "transition", from: status, workflow: action}, now)
	})
	if err != nil {
		return Item{}, err
	}
	return s.Get(ctx, id)
}
