package content

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/search"
)

// PublicItem is a published item as readers see it, with the item's
// counters and the reader's flags.
type PublicItem struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	// Fields holds, in lists, only the type's listed fields; in a detail, all.
	Fields      json.RawMessage    `json:"fields"`
	AuthorID    string             `json:"author_id,omitempty"`
	PublishedAt time.Time          `json:"published_at"`
	UpdatedAt   time.Time          `json:"updated_at"`
	Engagement  engagement.Summary `json:"engagement"`
}

// Filter narrows a list by one filterable field: Values match any of them
// (for tags, multi-selects and many-references: items holding any of them);
// Min and Max bound numbers, dates and datetimes.
type Filter struct {
	Field  string
	Values []string
	Min    string
	Max    string
}

// ListQuery asks for one page of a type's published items.
type ListQuery struct {
	Type    string
	Filters []Filter
	// Search is the reader's words, matched as core/search matches them
	// (partial words, accents and case ignored, typos as a fallback).
	Search string
	// Sort is a field name, "-" first for descending; "" uses the type's
	// default. SortRelevance requires Search.
	Sort   string
	Limit  int // 0: the type's page size
	Offset int
	// Cursor continues a list sorted by published_at or title from the
	// NextCursor of the previous page (keyset paging; Offset is ignored).
	Cursor string
	// ReaderID adds that reader's flags ("" for anonymous readers).
	ReaderID string
	// OnlyFavorites keeps the reader's favorites.
	OnlyFavorites bool
	// WithTotal counts every match (for Content-Range); it costs a scan.
	WithTotal bool
}

// Page is one page of a list.
type Page struct {
	Items []PublicItem `json:"items"`
	// Total is the number of matches when asked for, else -1.
	Total int64 `json:"total"`
	// NextCursor continues a keyset list; empty on the last page.
	NextCursor string `json:"next_cursor,omitempty"`
}

const msgBadQuery = "Não foi possível entender os filtros da lista."

func badQuery(field, msg string) error {
	return core.Invalid(msgBadQuery, map[string]string{field: msg})
}

// sqlBuilder collects positional arguments.
type sqlBuilder struct {
	args []any
}

func (b *sqlBuilder) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

// jsonKey quotes a declared field name (validated against
// ^[a-z][a-z0-9_]*$, so it cannot carry a quote) as a SQL literal.
func jsonKey(name string) string { return "'" + name + "'" }

// filterSQL returns the condition for f over alias.fields.
func filterSQL(b *sqlBuilder, t *Type, alias string, flt Filter) (string, error) {
	f, ok := t.Field(flt.Field)
	if !ok || !f.Filterable {
		return "", badQuery(flt.Field, fmt.Sprintf("Não é possível filtrar %s por este campo.", t.Plural))
	}
	col := alias + ".fields"
	key := jsonKey(f.Name)
	var conds []string
	invalid := badQuery(f.Name, fmt.Sprintf("Valor inválido no filtro %s.", f.Label))
	if len(flt.Values) > 0 {
		switch f.Kind {
		case KindMultiSelect, KindTags:
			conds = append(conds, fmt.Sprintf("%s->%s ?| %s::text[]", col, key, b.arg(flt.Values)))
		case KindReference:
			for _, v := range flt.Values {
				if uuid.Validate(v) != nil {
					return "", invalid
				}
			}
			if f.Many {
				conds = append(conds, fmt.Sprintf("%s->%s ?| %s::text[]", col, key, b.arg(flt.Values)))
			} else {
				conds = append(conds, fmt.Sprintf("%s->>%s = ANY(%s::text[])", col, key, b.arg(flt.Values)))
			}
		case KindBoolean:
			if len(flt.Values) != 1 || (flt.Values[0] != "true" && flt.Values[0] != "false") {
				return "", invalid
			}
			doc, _ := json.Marshal(map[string]bool{f.Name: flt.Values[0] == "true"})
			// Containment uses the GIN index on fields.
			conds = append(conds, fmt.Sprintf("%s @> %s::jsonb", col, b.arg(string(doc))))
		case KindNumber:
			nums := make([]float64, len(flt.Values))
			for i, v := range flt.Values {
				n, err := strconv.ParseFloat(strings.Replace(v, ",", ".", 1), 64)
				if err != nil {
					return "", invalid
				}
				nums[i] = n
			}
			conds = append(conds, fmt.Sprintf("(%s->>%s)::float8 = ANY(%s::float8[])", col, key, b.arg(nums)))
		default: // select, text, date, datetime: exact text
			vals := make([]string, len(flt.Values))
			for i, v := range flt.Values {
				n, msg := f.check(v)
				if msg != "" {
					return "", invalid
				}
				vals[i] = fmt.Sprint(n)
			}
			conds = append(conds, fmt.Sprintf("%s->>%s = ANY(%s::text[])", col, key, b.arg(vals)))
		}
	}
	for _, bound := range []struct {
		v  string
		op string
	}{{flt.Min, ">="}, {flt.Max, "<="}} {
		if bound.v == "" {
			continue
		}
		switch f.Kind {
		case KindNumber:
			n, err := strconv.ParseFloat(strings.Replace(bound.v, ",", ".", 1), 64)
			if err != nil {
				return "", invalid
			}
			conds = append(conds, fmt.Sprintf("(%s->>%s)::float8 %s %s", col, key, bound.op, b.arg(n)))
		case KindDate, KindDateTime:
			// Both are stored in one fixed layout, so text order is time order.
			probe := *f
			probe.Required = false
			n, msg := probe.check(bound.v)
			if msg != "" {
				return "", invalid
			}
			conds = append(conds, fmt.Sprintf("%s->>%s %s %s", col, key, bound.op, b.arg(n)))
		default:
			return "", invalid
		}
	}
	if len(conds) == 0 {
		return "", invalid
	}
	return strings.Join(conds, " AND "), nil
}

// sortSQL returns the ORDER BY key expression for name over alias, and
// whether keyset paging supports it. Only keys read from fields can be null
// (the column keys are NOT NULL, so their ORDER BY matches the indexes).
func sortSQL(t *Type, alias, name string, admin bool) (expr string, keyset bool, err error) {
	switch name {
	case SortPublishedAt:
		return alias + ".published_at", !admin, nil
	case SortTitle:
		return alias + ".title", !admin, nil
	}
	if admin {
		switch name {
		case SortUpdatedAt, "created_at", "status":
			return alias + "." + name, false, nil
		}
	}
	f, ok := t.Field(name)
	if !ok || !f.Sortable {
		return "", false, badQuery("sort", fmt.Sprintf("Não é possível ordenar %s por este campo.", t.Plural))
	}
	if f.Kind == KindNumber {
		return fmt.Sprintf("(%s.fields->>%s)::float8", alias, jsonKey(f.Name)), false, nil
	}
	return fmt.Sprintf("%s.fields->>%s", alias, jsonKey(f.Name)), false, nil
}

// orderBy is the ORDER BY clause for key in dir, ties broken by id. Keys
// that can be null (values missing from an item's fields) sort last either
// way; the others are NOT NULL columns, left plain so the indexes match.
func orderBy(key, dir, idColumn string, nullable bool) string {
	nulls := ""
	if nullable {
		nulls = " NULLS LAST"
	}
	return "ORDER BY " + key + " " + dir + nulls + ", " + idColumn + " " + dir
}

func nullableKey(key string) bool {
	return strings.Contains(key, "fields->>") || key == "i.published_at"
}

type cursor struct {
	Key string `json:"k"`
	ID  string `json:"i"`
}

func encodeCursor(key, id string) string {
	b, _ := json.Marshal(cursor{key, id})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err != nil || json.Unmarshal(b, &c) != nil || uuid.Validate(c.ID) != nil {
		return cursor{}, false
	}
	return c, true
}

func listedFieldsSQL(t *Type, alias string) string {
	var parts []string
	for _, f := range t.Fields {
		if f.Listed {
			parts = append(parts, fmt.Sprintf("%s, %s.fields->%s", jsonKey(f.Name), alias, jsonKey(f.Name)))
		}
	}
	if len(parts) == 0 {
		return "'{}'::jsonb"
	}
	return "jsonb_strip_nulls(jsonb_build_object(" + strings.Join(parts, ", ") + "))"
}

// List returns one page of q.Type's published items in a single query,
// joined with the counters and q.ReaderID's flags.
func (s *Store) List(ctx context.Context, q ListQuery) (Page, error) {
	t, err := s.typeOf(q.Type)
	if err != nil {
		return Page{}, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = t.List.PageSize
	}
	limit = min(limit, MaxPageSize)
	if q.Offset < 0 {
		return Page{}, badQuery("offset", "A posição inicial da lista não pode ser negativa.")
	}

	b := &sqlBuilder{}
	typeArg := b.arg(t.ID)
	where := []string{"p.type = " + typeArg}
	reader := b.arg(engagement.ReaderArg(q.ReaderID))
	engCols, engJoins := engagement.ReaderSQL("p.item_id", 2)
	from := "content_published p"
	if q.OnlyFavorites {
		if engagement.ReaderArg(q.ReaderID) == nil {
			return Page{Items: []PublicItem{}, Total: 0}, nil
		}
		from += engagement.FavoritesOnlyJoinSQL("fav", "p.item_id", reader+"::uuid")
	}
	if search.TooLong(q.Search) {
		return Page{}, badQuery("q", search.MsgTooLong)
	}
	sq := search.Parse(q.Search)
	match := sq.SQL(b.arg, search.Target{Alias: "p", Table: "content_published", Vector: "search", Title: "title", Scope: "type = " + typeArg})
	if sq.Given() {
		where = append(where, match.Where)
	}
	for _, f := range q.Filters {
		cond, err := filterSQL(b, t, "p", f)
		if err != nil {
			return Page{}, err
		}
		where = append(where, cond)
	}
	matches := "FROM " + from + " WHERE " + strings.Join(where, " AND ")

	sortName, desc := q.Sort, false
	if sortName == "" {
		sortName, desc = t.List.DefaultSort.Field, t.List.DefaultSort.Desc
	} else if strings.HasPrefix(sortName, "-") {
		sortName, desc = sortName[1:], true
	}
	var orderKey string
	keyset := false
	if sortName == SortRelevance {
		if !sq.Given() {
			return Page{}, badQuery("sort", "A ordenação por relevância precisa de uma busca.")
		}
		orderKey, desc = match.Score, true
	} else if orderKey, keyset, err = sortSQL(t, "p", sortName, false); err != nil {
		return Page{}, err
	}
	dir, cmp := "ASC", ">"
	if desc {
		dir, cmp = "DESC", "<"
	}
	offset := q.Offset
	if q.Cursor != "" {
		c, ok := decodeCursor(q.Cursor)
		if !ok || !keyset {
			return Page{}, badQuery("cursor", "A continuação da lista não é válida. Recarregue a lista.")
		}
		keyType := "text"
		if sortName == SortPublishedAt {
			keyType = "timestamptz"
			if _, err := time.Parse(time.RFC3339Nano, c.Key); err != nil {
				return Page{}, badQuery("cursor", "A continuação da lista não é válida. Recarregue a lista.")
			}
		}
		where = append(where, fmt.Sprintf("(%s, p.item_id) %s (%s::%s, %s::uuid)", orderKey, cmp, b.arg(c.Key), keyType, b.arg(c.ID)))
		offset = 0
	}
	// The page is chosen from content_published alone (its indexes give the
	// order), and only its rows are joined with the engagement tables. LIMIT
	// and OFFSET are literals so that cached generic plans know them.
	pageSQL := `SELECT p.*, ` + orderKey + ` AS sort_key FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + `
		` + orderBy(orderKey, dir, "p.item_id", nullableKey(orderKey)) + ` LIMIT ` + strconv.Itoa(limit+1) + ` OFFSET ` + strconv.Itoa(offset)
	pageFrom, total := "page p", "-1::bigint"
	if q.WithTotal {
		// One row even for an empty page, so the total always comes back.
		pageFrom, total = "(SELECT count(*) AS n "+matches+") total LEFT JOIN page p ON true", "total.n"
	}
	sql := `WITH page AS MATERIALIZED (` + pageSQL + `)
		SELECT p.item_id::text, p.type, p.slug, p.title, p.summary, ` + listedFieldsSQL(t, "p") + `,
			coalesce(p.author_id::text, ''), p.published_at, p.last_published_at, ` + engCols + `, ` + total + `
		FROM ` + pageFrom + engJoins + `
		` + orderBy("p.sort_key", dir, "p.item_id", nullableKey(orderKey))
	rows, err := s.pool.Query(ctx, sql, b.args...)
	if err != nil {
		return Page{}, fmt.Errorf("list content: %w", err)
	}
	defer rows.Close()
	page := Page{Items: make([]PublicItem, 0, limit+1), Total: -1}
	// One set of destinations for every row (pgx plans their scans once):
	// each row is scanned into it and copied out; the JSON fields are a
	// fresh slice per row.
	var it PublicItem
	var fields []byte
	dest := append([]any{&it.ID, &it.Type, &it.Slug, &it.Title, &it.Summary, &fields, &it.AuthorID, &it.PublishedAt, &it.UpdatedAt},
		it.Engagement.Targets()...)
	dest = append(dest, &page.Total)
	var totalOnly []any // the total's row of an empty page: NULLs but the total
	for rows.Next() {
		if rows.RawValues()[0] == nil {
			if totalOnly == nil {
				totalOnly = make([]any, len(dest))
				totalOnly[len(dest)-1] = &page.Total
			}
			if err := rows.Scan(totalOnly...); err != nil {
				return Page{}, fmt.Errorf("scan content: %w", err)
			}
			continue
		}
		if err := rows.Scan(dest...); err != nil {
			return Page{}, fmt.Errorf("scan content: %w", err)
		}
		it.Fields = fields
		page.Items = append(page.Items, it)
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("list content: %w", err)
	}
	if len(page.Items) > limit {
		page.Items = page.Items[:limit]
		if keyset {
			last := page.Items[limit-1]
			key := last.Title
			if sortName == SortPublishedAt {
				key = last.PublishedAt.Format(time.RFC3339Nano)
			}
			page.NextCursor = encodeCursor(key, last.ID)
		}
	}
	return page, nil
}

// GetPublished returns the published item of typeID with id or slug
// idOrSlug, with every field, its counters and readerID's flags.
func (s *Store) GetPublished(ctx context.Context, typeID, idOrSlug, readerID string) (PublicItem, error) {
	if _, err := s.typeOf(typeID); err != nil {
		return PublicItem{}, err
	}
	cond := "p.slug = $3"
	if uuid.Validate(idOrSlug) == nil {
		cond = "p.item_id = $3::uuid"
	}
	engCols, engJoins := engagement.ReaderSQL("p.item_id", 2)
	var it PublicItem
	var fields []byte
	dest := append([]any{&it.ID, &it.Type, &it.Slug, &it.Title, &it.Summary, &fields, &it.AuthorID, &it.PublishedAt, &it.UpdatedAt},
		it.Engagement.Targets()...)
	err := s.pool.QueryRow(ctx, `SELECT p.item_id::text, p.type, p.slug, p.title, p.summary, p.fields,
			coalesce(p.author_id::text, ''), p.published_at, p.last_published_at, `+engCols+`
		FROM content_published p`+engJoins+` WHERE p.type = $1 AND `+cond,
		typeID, engagement.ReaderArg(readerID), idOrSlug).Scan(dest...)
	if postgres.IsNoRows(err) {
		return PublicItem{}, core.Errorf(core.ENOTFOUND, MsgItemNotFound)
	}
	if err != nil {
		return PublicItem{}, fmt.Errorf("get published content: %w", err)
	}
	it.Fields = fields
	return it, nil
}

// AdminQuery asks for one page of a type's items for the backoffice (working
// copies, every state).
type AdminQuery struct {
	Type     string
	Statuses []Status
	AuthorID string
	Search   string
	Sort     string // like ListQuery.Sort, plus updated_at, created_at, status; default -updated_at
	Limit    int
	Offset   int
	// VisibleTo, when set, keeps the items this editor wrote or had shared
	// with them.
	VisibleTo string
}

// AdminList returns one page of working copies and the total number of
// matches (for Content-Range).
func (s *Store) AdminList(ctx context.Context, q AdminQuery) ([]Item, int64, error) {
	t, err := s.typeOf(q.Type)
	if err != nil {
		return nil, 0, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = t.List.PageSize
	}
	limit = min(limit, MaxPageSize)
	b := &sqlBuilder{}
	typeArg := b.arg(t.ID)
	where := []string{"i.type = " + typeArg}
	if len(q.Statuses) > 0 {
		where = append(where, "i.status = ANY("+b.arg(q.Statuses)+"::text[])")
	}
	if q.AuthorID != "" {
		if uuid.Validate(q.AuthorID) != nil {
			return nil, 0, badQuery("author_id", "Autor inválido.")
		}
		where = append(where, "i.author_id = "+b.arg(q.AuthorID)+"::uuid")
	}
	if search.TooLong(q.Search) {
		return nil, 0, badQuery("q", search.MsgTooLong)
	}
	if sq := search.Parse(q.Search); sq.Given() {
		where = append(where, sq.SQL(b.arg, search.Target{Alias: "i", Table: "content_items", Vector: "search", Title: "title",
			Scope: "type = " + typeArg}).Where)
	}
	if q.VisibleTo != "" {
		if uuid.Validate(q.VisibleTo) != nil {
			return nil, 0, badQuery("author_id", "Autor inválido.")
		}
		where = append(where, editorSeesItem(b.arg(q.VisibleTo)))
	}
	sortName, desc := q.Sort, false
	if sortName == "" {
		sortName, desc = SortUpdatedAt, true
	} else if strings.HasPrefix(sortName, "-") {
		sortName, desc = sortName[1:], true
	}
	orderKey, _, err := sortSQL(t, "i", sortName, true)
	if err != nil {
		return nil, 0, err
	}
	dir := "ASC"
	if desc {
		dir = "DESC"
	}
	rows, err := s.pool.Query(ctx, `SELECT `+itemColumns+`, count(*) OVER ()`+itemFrom+`WHERE `+strings.Join(where, " AND ")+`
		`+orderBy(orderKey, dir, "i.id", nullableKey(orderKey))+` LIMIT `+strconv.Itoa(limit)+` OFFSET `+strconv.Itoa(max(q.Offset, 0)), b.args...)
	if err != nil {
		return nil, 0, fmt.Errorf("admin list: %w", err)
	}
	defer rows.Close()
	items := []Item{}
	var total int64
	for rows.Next() {
		var it Item
		var fields []byte
		if err := rows.Scan(append(itemTargets(&it, &fields), &total)...); err != nil {
			return nil, 0, fmt.Errorf("admin list: %w", err)
		}
		it.Fields = fields
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("admin list: %w", err)
	}
	if len(items) == 0 && q.Offset > 0 {
		if err := s.pool.QueryRow(ctx, `SELECT count(*)`+itemFrom+`WHERE `+strings.Join(where, " AND "),
			b.args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("admin count: %w", err)
		}
	}
	return items, total, nil
}

// Scheduled lists the items scheduled for publication in [from, until),
// soonest first: the agenda (a day or a week), the catch-up after downtime
// (zero from, until now) and the overdue list (until two minutes ago). A zero
// from means no lower bound.
func (s *Store) Scheduled(ctx context.Context, from, until time.Time) ([]Item, error) {
	return s.scheduled(ctx, "publish_at", from, until, "")
}

// ScheduledUnpublish is Scheduled for the moments items go offline.
func (s *Store) ScheduledUnpublish(ctx context.Context, from, until time.Time) ([]Item, error) {
	return s.scheduled(ctx, "unpublish_at", from, until, "")
}

// ScheduledVisibleTo is Scheduled (unpublish false) or ScheduledUnpublish
// limited to the items editorID wrote or had shared with them: an editor's
// agenda. An empty editorID does not filter.
func (s *Store) ScheduledVisibleTo(ctx context.Context, unpublish bool, from, until time.Time, editorID string) ([]Item, error) {
	if editorID != "" && uuid.Validate(editorID) != nil {
		return []Item{}, nil
	}
	column := "publish_at"
	if unpublish {
		column = "unpublish_at"
	}
	return s.scheduled(ctx, column, from, until, editorID)
}

func (s *Store) scheduled(ctx context.Context, column string, from, until time.Time, visibleTo string) ([]Item, error) {
	var lower any
	if !from.IsZero() {
		lower = from
	}
	rows, err := s.pool.Query(ctx, `SELECT `+itemColumns+itemFrom+`
		WHERE i.`+column+` IS NOT NULL AND ($1::timestamptz IS NULL OR i.`+column+` >= $1) AND i.`+column+` < $2
		  AND ($3 = '' OR `+editorSeesItem("nullif($3, '')")+`)
		ORDER BY i.`+column+`, i.id`, lower, until, visibleTo)
	if err != nil {
		return nil, fmt.Errorf("scheduled items: %w", err)
	}
	defer rows.Close()
	items := []Item{}
	for rows.Next() {
		var it Item
		var fields []byte
		if err := rows.Scan(itemTargets(&it, &fields)...); err != nil {
			return nil, fmt.Errorf("scheduled items: %w", err)
		}
		it.Fields = fields
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("scheduled items: %w", err)
	}
	return items, nil
}
