package content_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// seedPublished inserts n published news items (newest first by minute),
// makes reader favorite every 20th and like every 10th, and keeps the
// counters equal to the rows, then analyzes the tables.
func seedPublished(b testing.TB, pool *pgxpool.Pool, n int, reader string) {
	b.Helper()
	ctx := context.Background()
	type stmt struct {
		sql  string
		args []any
	}
	stmts := []stmt{
		{`INSERT INTO content_items (type, status, slug, title, summary, fields, search, created_at, updated_at, published_at)
		SELECT 'noticias', 'publicado', 'noticia-' || g, t.title, 'Resumo da notícia ' || g,
			jsonb_build_object('body', 'Texto da notícia ' || g || ' sobre clínica, cirurgia e manejo.',
				'category', (ARRAY['clinica', 'cirurgia', 'mercado'])[g % 3 + 1],
				'tags', jsonb_build_array('tag' || g % 10, 'geral'), 'reading_time', g % 10 + 1),
			setweight(to_tsvector('vetclube_pt', t.title), 'A') || setweight(to_tsvector('vetclube_pt', 'Resumo da notícia ' || g), 'B'),
			now() - g * interval '1 minute', now() - g * interval '1 minute', now() - g * interval '1 minute'
		FROM generate_series(1, $1::int) g,
			LATERAL (SELECT 'Notícia ' || g || (ARRAY[' sobre cirurgia ortopédica', ' de clínica de felinos', ' do mercado pet', ' sobre vacinação'])[g % 4 + 1] AS title) t`,
			[]any{n}},
		{`INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		SELECT id, type, slug, title, summary, fields, search, version, published_at, published_at FROM content_items`, nil},
		{`INSERT INTO engagement_favorites (item_id, user_id) SELECT id, $1::uuid FROM content_items WHERE substring(slug from 9)::int % 20 = 0`,
			[]any{reader}},
		{`INSERT INTO engagement_reactions (item_id, user_id, reaction) SELECT id, $1::uuid, 'like' FROM content_items WHERE substring(slug from 9)::int % 10 = 0`,
			[]any{reader}},
		{`UPDATE engagement_counters c SET favorites = (SELECT count(*) FROM engagement_favorites f WHERE f.item_id = c.item_id),
			likes = (SELECT count(*) FROM engagement_reactions r WHERE r.item_id = c.item_id AND reaction = 'like')`, nil},
	}
	for _, st := range stmts {
		if _, err := pool.Exec(ctx, st.sql, st.args...); err != nil {
			b.Fatalf("seed: %v", err)
		}
	}
	if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPublicList measures the public news list (20 items with the
// reader's favorite/like flags) on 10,000 published items, through the
// store and, as the floor, the same SQL run bare on pgx.
func BenchmarkPublicList(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.New(b)
	reg := content.NewRegistry()
	if err := reg.Register(newsType()); err != nil {
		b.Fatal(err)
	}
	store := content.New(pool, reg, content.Options{})
	reader := newUser(b, pool)
	seedPublished(b, pool, 10_000, reader)

	first, err := store.List(ctx, content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20})
	if err != nil || len(first.Items) != 20 || !first.Items[19].Engagement.Favorited {
		b.Fatalf("first page: %d items, err %v", len(first.Items), err)
	}
	deep := first.NextCursor
	for range 200 { // page 201: 4,000 items in
		p, err := store.List(ctx, content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20, Cursor: deep})
		if err != nil {
			b.Fatal(err)
		}
		deep = p.NextCursor
	}

	cases := []struct {
		name string
		q    content.ListQuery
	}{
		{"reader-first-page", content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20}},
		{"anonymous-first-page", content.ListQuery{Type: "noticias", Limit: 20}},
		{"reader-keyset-page-201", content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20, Cursor: deep}},
		{"reader-category", content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20,
			Filters: []content.Filter{{Field: "category", Values: []string{"cirurgia"}}}}},
		{"reader-search", content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20, Search: "cirúrgico"}},
		{"reader-with-total", content.ListQuery{Type: "noticias", ReaderID: reader, Limit: 20, WithTotal: true}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, 1024)
			for b.Loop() {
				start := time.Now()
				p, err := store.List(ctx, c.q)
				lat = append(lat, time.Since(start))
				if err != nil || len(p.Items) == 0 {
					b.Fatalf("%d items, err %v", len(p.Items), err)
				}
			}
			reportPercentiles(b, lat)
		})
	}

	// The floor: the store's first-page SQL, written out by hand and scanned
	// into plain variables: no query building, no result structs.
	floorSQL := `WITH page AS MATERIALIZED (
			SELECT p.*, p.published_at AS sort_key FROM content_published p WHERE p.type = $1
			ORDER BY p.published_at DESC, p.item_id DESC LIMIT 21 OFFSET 0)
		SELECT p.item_id::text, p.type, p.slug, p.title, p.summary,
			jsonb_strip_nulls(jsonb_build_object('cover', p.fields->'cover', 'source_name', p.fields->'source_name',
				'category', p.fields->'category', 'tags', p.fields->'tags', 'reading_time', p.fields->'reading_time')),
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
	b.Run("floor-bare-pgx-first-page", func(b *testing.B) {
		lat := make([]time.Duration, 0, 1024)
		for b.Loop() {
			start := time.Now()
			rows, err := pool.Query(ctx, floorSQL, "noticias", reader)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var id, typ, slug, title, summary, author, reaction string
				var fields []byte
				var pub, upd time.Time
				var fav, likes, dislikes, views, enrol int64
				var favorited, enrolled, completed bool
				var percent float64
				if err := rows.Scan(&id, &typ, &slug, &title, &summary, &fields, &author, &pub, &upd,
					&fav, &likes, &dislikes, &views, &enrol, &favorited, &reaction, &enrolled, &percent, &completed); err != nil {
					b.Fatal(err)
				}
				n++
			}
			lat = append(lat, time.Since(start))
			if rows.Err() != nil || n != 21 {
				b.Fatalf("%d rows, err %v", n, rows.Err())
			}
		}
		reportPercentiles(b, lat)
	})
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}
