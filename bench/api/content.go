package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The news list row: GET /api/content/noticias (20 items with the reader's
// favorite and like flags) on NewsItems published items. The real server
// loads the real news plugin (its type declaration); the plugin is never
// called on a read.

// newsPlugin is the content plugin the real server loads for the news row.
const (
	newsPlugin = "noticias"
	newsPkg    = "github.com/vetclube/vetclube/plugins/noticias"
)

// seedNews inserts n published news items (newest first by minute) the way
// the store keeps them (working copy, public snapshot, counters), and has
// each reader favorite about one in ten and like about one in ten of the
// newest 40, so every first page carries real flags.
func seedNews(t testing.TB, ctx context.Context, pool *pgxpool.Pool, n int, readers []benchUser) {
	t.Helper()
	ids := make([]string, len(readers))
	for i, u := range readers {
		ids[i] = u.id
	}
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO content_items (type, status, slug, title, summary, fields, search, created_at, updated_at, published_at)
		SELECT 'noticias', 'publicado', 'noticia-' || g, t.title, 'Resumo da notícia ' || g || ' para veterinários.',
			jsonb_build_object('body', repeat('Texto da notícia ' || g || ' sobre clínica, cirurgia e manejo. ', 30),
				'category', (ARRAY['clinica', 'cirurgia', 'pesquisa', 'mercado'])[g % 4 + 1],
				'tags', jsonb_build_array('tag' || g % 10, 'geral'), 'source_name', 'CFMV',
				'source_url', 'https://www.cfmv.gov.br/', 'reading_minutes', g % 5 + 1),
			setweight(to_tsvector('vetclube_pt', t.title), 'A') || setweight(to_tsvector('vetclube_pt', 'Resumo da notícia ' || g), 'B'),
			now() - g * interval '1 minute', now() - g * interval '1 minute', now() - g * interval '1 minute'
		FROM generate_series(1, $1::int) g,
			LATERAL (SELECT 'Notícia ' || g || (ARRAY[' sobre cirurgia ortopédica', ' de clínica de felinos', ' do mercado pet', ' sobre vacinação'])[g % 4 + 1] AS title) t`,
			[]any{n}},
		{`INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		SELECT id, type, slug, title, summary, fields, search, version, published_at, published_at FROM content_items WHERE type = 'noticias'`, nil},
		{`INSERT INTO engagement_favorites (item_id, user_id)
		SELECT i.id, u FROM (SELECT id FROM content_items WHERE type = 'noticias' ORDER BY published_at DESC LIMIT 40) i, unnest($1::uuid[]) u
		WHERE abs(hashtext(i.id::text || u::text)) % 10 = 0 ON CONFLICT DO NOTHING`, []any{ids}},
		{`INSERT INTO engagement_reactions (item_id, user_id, reaction)
		SELECT i.id, u, 'like' FROM (SELECT id FROM content_items WHERE type = 'noticias' ORDER BY published_at DESC LIMIT 40) i, unnest($1::uuid[]) u
		WHERE abs(hashtext(u::text || i.id::text)) % 10 = 0 ON CONFLICT DO NOTHING`, []any{ids}},
		{`INSERT INTO engagement_counters (item_id, favorites, likes)
		SELECT i.id, (SELECT count(*) FROM engagement_favorites f WHERE f.item_id = i.id),
			(SELECT count(*) FROM engagement_reactions r WHERE r.item_id = i.id AND r.reaction = 'like')
		FROM content_items i WHERE i.type = 'noticias'
		ON CONFLICT (item_id) DO UPDATE SET favorites = EXCLUDED.favorites, likes = EXCLUDED.likes`, nil},
	}
	for _, st := range stmts {
		if _, err := pool.Exec(ctx, st.sql, st.args...); err != nil {
			t.Fatalf("bench-api: seed news: %v", err)
		}
	}
}

// newsListSQL is the store's first-page query for the news type (see
// core/content/query.go List: keyset order on published_at, listed fields
// only, the reader's flags joined), written out by hand.
const newsListSQL = `WITH page AS MATERIALIZED (
		SELECT p.*, p.published_at AS sort_key FROM content_published p WHERE p.type = $1
		ORDER BY p.published_at DESC, p.item_id DESC LIMIT ` + "%d" + ` OFFSET 0)
	SELECT p.item_id::text, p.type, p.slug, p.title, p.summary,
		jsonb_strip_nulls(jsonb_build_object('cover', p.fields->'cover', 'category', p.fields->'category',
			'tags', p.fields->'tags', 'source_name', p.fields->'source_name', 'reading_minutes', p.fields->'reading_minutes')),
		coalesce(p.author_id::text, ''), p.published_at, p.last_published_at,
		coalesce(ec.favorites, 0), coalesce(ec.likes, 0), coalesce(ec.dislikes, 0), coalesce(ec.views, 0),
		coalesce(ec.enrolments, 0), ef.user_id IS NOT NULL, coalesce(er.reaction, ''), ee.user_id IS NOT NULL,
		coalesce(ep.percent, 0)::float8, ep.completed_at IS NOT NULL
	FROM page p
		LEFT JOIN engagement_counters ec ON ec.item_id = p.item_id
		LEFT JOIN engagement_favorites ef ON ef.item_id = p.item_id AND ef.user_id = $2::uuid
		LEFT JOIN engagement_reactions er ON er.item_id = p.item_id AND er.user_id = $2::uuid
		LEFT JOIN engagement_enrolments ee ON ee.item_id = p.item_id AND ee.user_id = $2::uuid
		LEFT JOIN engagement_progress ep ON ep.item_id = p.item_id AND ep.user_id = $2::uuid
	ORDER BY p.sort_key DESC, p.item_id DESC`

type floorItem struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Slug        string          `json:"slug"`
	Title       string          `json:"title"`
	Summary     string          `json:"summary"`
	Fields      json.RawMessage `json:"fields"`
	AuthorID    string          `json:"author_id,omitempty"`
	PublishedAt time.Time       `json:"published_at"`
	UpdatedAt   time.Time       `json:"updated_at"`
	Engagement  struct {
		Favorites  int64   `json:"favorites"`
		Likes      int64   `json:"likes"`
		Dislikes   int64   `json:"dislikes"`
		Views      int64   `json:"views"`
		Enrolments int64   `json:"enrolments"`
		Favorited  bool    `json:"favorited"`
		Reaction   string  `json:"reaction"`
		Enrolled   bool    `json:"enrolled"`
		Percent    float64 `json:"progress_percent"`
		Completed  bool    `json:"completed"`
	} `json:"engagement"`
}

func (f *floor) newsList(w http.ResponseWriter, r *http.Request, userID string) error {
	limit := 20
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 && n <= 100 {
		limit = n
	}
	// The limit is written into the SQL, as the store does, so both sides
	// get the same plan.
	rows, err := f.pool.Query(r.Context(), fmt.Sprintf(newsListSQL, limit+1), newsPlugin, userID)
	if err != nil {
		return err
	}
	items := make([]floorItem, 0, limit+1)
	for rows.Next() {
		var it floorItem
		e := &it.Engagement
		if err := rows.Scan(&it.ID, &it.Type, &it.Slug, &it.Title, &it.Summary, &it.Fields, &it.AuthorID, &it.PublishedAt, &it.UpdatedAt,
			&e.Favorites, &e.Likes, &e.Dislikes, &e.Views, &e.Enrolments, &e.Favorited, &e.Reaction, &e.Enrolled, &e.Percent, &e.Completed); err != nil {
			rows.Close()
			return err
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	page := struct {
		Items      []floorItem `json:"items"`
		Total      int64       `json:"total"`
		NextCursor string      `json:"next_cursor,omitempty"`
	}{Items: items, Total: -1}
	if len(items) > limit {
		last := items[limit-1]
		page.Items = items[:limit]
		c, _ := json.Marshal(map[string]string{"k": last.PublishedAt.UTC().Format(time.RFC3339Nano), "i": last.ID})
		page.NextCursor = base64.RawURLEncoding.EncodeToString(c)
	}
	return writeJSON(w, http.StatusOK, page)
}
