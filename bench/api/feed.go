package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/moderation"
)

// The community feed rows: GET /api/community/feed (20 posts with their
// authors, like and comment counters, the reader's like and the pictures) on
// FeedPosts published posts carrying FeedComments comments, for the "todos"
// tab and the "conexoes" tab (the reader's network). The real server loads
// the real comunidade plugin (the posts type's declaration); the plugin is
// never called on a read.
//
// The floor runs the statement core/community builds for the page
// (community.FeedSQL, with the moderation condition core/app wires in), so
// both sides run the same SQL text; it scans the same columns into the same
// JSON types.

const (
	feedPath      = "/api/community/feed"
	comunidade    = "comunidade"
	comunidadePkg = "github.com/vetclube/vetclube/plugins/comunidade"
)

// feedVisible is the moderation condition core/app gives the community
// service (core/app/community.go).
func feedVisible(idColumn string) string {
	return moderation.VisibleSQL(moderation.TargetPost, idColumn)
}

// feedPostTexts are the posts' texts (pt-BR, with a little Markdown), one per
// post in turn; each post adds its number so no two are alike.
var feedPostTexts = []string{
	"Acabei de sair de uma **colecistectomia** em um shih-tzu de 9 anos com mucocele biliar. Alguém tem usado infusão contínua de lidocaína com cetamina no pós-operatório de abdome?",
	"Dica para a triagem cardiológica:\n\n- sopro novo em cão idoso de raça pequena: pense em doença mixomatosa da valva mitral;\n- peça radiografia de tórax e ecocardiograma.",
	"Caso da semana: gata de 4 anos com *alopecia simétrica* no abdome. O tricograma mostrou pontas quebradas — era lambedura excessiva, não queda de pelo.",
	"Plantão de ontem: três casos de intoxicação por chocolate. Material de orientação do conselho: [cfmv.gov.br](https://www.cfmv.gov.br)",
	"Hoje soltamos uma **arara-canindé** que chegou ao centro com fratura de asa há três meses. Dias assim pagam todos os plantões. 🦜",
	"Otite externa crônica: antes de trocar o antibiótico pela quarta vez, façam citologia e cultura. E investiguem a causa primária.",
}

// seedFeed inserts posts published posts by the readers (round robin, one
// every 20 seconds back from now) the way the content store keeps them
// (working copy, public snapshot; the insert trigger creates each counters
// row), a picture on one post in five (two on one in ten), comments
// top-level comments through the real counting trigger, about three likes
// per post plus one in ten of the newest 40 by every reader (so every first
// page carries the reader's own likes) with the like counters set to the
// rows, ten accepted connections per reader (profiles' connections_count set
// to match), a few blocks, and one post in a thousand hidden by moderation.
// It then checks that every post's counters equal its rows.
func seedFeed(t testing.TB, ctx context.Context, pool *pgxpool.Pool, posts, comments int, readers []benchUser) {
	t.Helper()
	ids := make([]string, len(readers))
	for i, u := range readers {
		ids[i] = u.id
	}
	n := len(ids)
	// Readers in a numbered list: r.rn = 0 … n-1.
	const readersCTE = `r AS (SELECT u AS id, o - 1 AS rn FROM unnest($1::uuid[]) WITH ORDINALITY x (u, o))`
	// The bench's posts, newest first: p.rn = 0 … posts-1, numbered once
	// into a scratch table (numbering a million wide rows again for each
	// chunk of comments took most of the 10× seeding).
	const postsCTE = `p AS (SELECT id, author_id, published_at, rn FROM bench_feed_posts)`
	exec := func(what, sql string, args ...any) {
		t.Helper()
		if _, err := pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("bench-api: seed feed: %s: %v", what, err)
		}
	}
	exec("posts", `WITH `+readersCTE+`, t AS (SELECT ord - 1 AS k, txt FROM unnest($3::text[]) WITH ORDINALITY y (txt, ord))
		INSERT INTO content_items (type, status, slug, title, summary, fields, search, author_id, created_at, updated_at, published_at)
		SELECT 'posts', 'publicado', 'p-bench-' || g, left(regexp_replace(c.body, '\s+', ' ', 'g'), 80), '',
			jsonb_build_object('content', c.body),
			setweight(to_tsvector('vetclube_pt', left(c.body, 80)), 'A') || setweight(to_tsvector('vetclube_pt', c.body), 'B'),
			r.id, now() - g * interval '20 seconds', now() - g * interval '20 seconds', now() - g * interval '20 seconds'
		FROM generate_series(0, $2::int - 1) g
			JOIN r ON r.rn = g % $4::int
			JOIN t ON t.k = g % $5::int,
			LATERAL (SELECT t.txt || E'\n\n#' || g AS body) c`,
		ids, posts, feedPostTexts, n, len(feedPostTexts))
	// One in ten shown as edited (last_published_at after published_at).
	exec("published", `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, author_id, revision, published_at, last_published_at)
		SELECT id, type, slug, title, summary, fields, search, author_id, version, published_at,
			published_at + CASE WHEN abs(hashtext(id::text)::bigint) % 10 = 0 THEN interval '7 minutes' ELSE interval '0' END
		FROM content_items WHERE type = 'posts' AND slug LIKE 'p-bench-%'`)
	exec("post numbers", `DROP TABLE IF EXISTS bench_feed_posts;
		CREATE UNLOGGED TABLE bench_feed_posts AS
			SELECT id, author_id, published_at, (row_number() OVER (ORDER BY published_at DESC, id DESC)) - 1 AS rn
			FROM content_items WHERE type = 'posts' AND slug LIKE 'p-bench-%';
		ALTER TABLE bench_feed_posts ADD PRIMARY KEY (rn);
		ANALYZE bench_feed_posts`)
	exec("pictures", `WITH `+postsCTE+`
		INSERT INTO post_media (uploader_id, item_id, storage_path, thumbnail_path, file_name, file_size, mime_type, width, height, created_at)
		SELECT p.author_id, p.id, 'community/2025/01/bench-' || p.rn || '-' || k || '.jpg', 'community/2025/01/bench-' || p.rn || '-' || k || '-thumb.jpg',
			'foto-' || k || '.jpg', 180000 + p.rn % 1000, 'image/jpeg', 1600, 1200, p.published_at - interval '1 minute' + k * interval '1 second'
		FROM p, generate_series(1, 2) k
		WHERE p.rn % 5 = 0 AND (k = 1 OR p.rn % 10 = 0)`)
	// Comments in chunks (the counting trigger runs for each row; chunks
	// keep the pending trigger queue small), uniformly over the posts, by
	// the readers in turn, a little after their post.
	const chunk = 100_000
	for from := 0; from < comments; from += chunk {
		to := min(from+chunk, comments)
		exec("comments", `WITH `+readersCTE+`, `+postsCTE+`
			INSERT INTO engagement_comments (item_id, user_id, content, created_at, updated_at)
			SELECT p.id, r.id, 'Ótimo caso! Comentário ' || g || ' sobre a conduta e o pós-operatório.',
				least(now(), p.published_at + (g % 3600) * interval '1 second'), least(now(), p.published_at + (g % 3600) * interval '1 second')
			FROM generate_series($2::int, $3::int - 1) g
				JOIN p ON p.rn = (g::bigint * 7919) % $4::int
				JOIN r ON r.rn = (g / 7) % $5::int`,
			ids, from, to, posts, n)
	}
	exec("likes", `WITH `+readersCTE+`, `+postsCTE+`
		INSERT INTO engagement_reactions (item_id, user_id, reaction, updated_at)
		SELECT p.id, r.id, 'like', p.published_at FROM p CROSS JOIN generate_series(0, 2) k
			JOIN r ON r.rn = abs(hashtext(p.id::text || ':' || k)::bigint) % $2::int
		UNION ALL
		SELECT p.id, r.id, 'like', now() FROM p CROSS JOIN r
		WHERE p.rn < 40 AND abs(hashtext(r.id::text || p.id::text)::bigint) % 10 = 0
		ON CONFLICT DO NOTHING`, ids, n)
	exec("like counters", `UPDATE engagement_counters ec SET likes = l.n
		FROM (SELECT item_id, count(*) AS n FROM engagement_reactions WHERE reaction = 'like' GROUP BY item_id) l
		WHERE ec.item_id = l.item_id`)
	// Connections: reader i with readers i+1 … i+5 (each reader has ten).
	if n > 12 {
		exec("connections", `WITH `+readersCTE+`
			INSERT INTO connections (requester_id, receiver_id, status, accepted_at)
			SELECT a.id, b.id, 'accepted', now() FROM r a CROSS JOIN generate_series(1, 5) k
				JOIN r b ON b.rn = (a.rn + k) % $2::int
			ON CONFLICT DO NOTHING`, ids, n)
		exec("connection counts", `UPDATE profiles pr SET connections_count = c.n
			FROM (SELECT id, count(*) AS n FROM (SELECT requester_id AS id FROM connections WHERE status = 'accepted'
				UNION ALL SELECT receiver_id FROM connections WHERE status = 'accepted') x GROUP BY id) c
			WHERE pr.user_id = c.id`)
		// One reader in fifty blocked someone outside their network.
		exec("blocks", `WITH `+readersCTE+`
			INSERT INTO user_blocks (blocker_id, blocked_id)
			SELECT a.id, b.id FROM r a JOIN r b ON b.rn = (a.rn + 9) % $2::int WHERE a.rn % 50 = 0
			ON CONFLICT DO NOTHING`, ids, n)
	}
	exec("moderation", `WITH `+postsCTE+`
		INSERT INTO moderation_targets (target_type, target_id, state, author_id, item_id, excerpt, report_count)
		SELECT 'post', p.id, 'oculto', p.author_id, p.id, 'Publicação ' || p.rn, 3 FROM p WHERE p.rn % 1000 = 7`)
	exec("post numbers", `DROP TABLE bench_feed_posts`)
	// The comment trigger's updates left a dead counters row per comment:
	// vacuumed, as autovacuum would have long done on a live database.
	exec("vacuum", `VACUUM ANALYZE engagement_counters, engagement_comments, engagement_reactions, content_items, content_published, post_media`)
	var wrong int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM content_items i
		JOIN engagement_counters ec ON ec.item_id = i.id
		LEFT JOIN (SELECT item_id, count(*) AS n FROM engagement_comments GROUP BY item_id) c ON c.item_id = i.id
		LEFT JOIN (SELECT item_id, count(*) AS n FROM engagement_reactions WHERE reaction = 'like' GROUP BY item_id) l ON l.item_id = i.id
		WHERE i.type = 'posts' AND (ec.comments <> coalesce(c.n, 0) OR ec.likes <> coalesce(l.n, 0))`).Scan(&wrong); err != nil {
		t.Fatalf("bench-api: seed feed: check counters: %v", err)
	}
	if wrong > 0 {
		t.Fatalf("bench-api: seed feed: %d posts' counters differ from their rows", wrong)
	}
}

// storedPicture is a picture as the feed statement aggregates it.
type storedPicture struct {
	ID            string  `json:"id"`
	MediaType     string  `json:"media_type"`
	StoragePath   string  `json:"storage_path"`
	ThumbnailPath *string `json:"thumbnail_path"`
	Width         *int    `json:"width"`
	Height        *int    `json:"height"`
	FileName      string  `json:"file_name"`
	FileSize      int64   `json:"file_size"`
	MimeType      string  `json:"mime_type"`
}

// uploadsPrefix is the URL prefix of the app's disk storage (core/app).
const uploadsPrefix = "/uploads/"

// feed runs the page's statement as core/community builds it and answers
// the same JSON: the posts, and the next page's cursor from the extra row.
func (f *floor) feed(w http.ResponseWriter, r *http.Request, userID string) error {
	v := r.URL.Query()
	fq := community.FeedQuery{Reader: userID, Tab: v.Get("tab"), Cursor: v.Get("cursor")}
	if n, err := strconv.Atoi(v.Get("limit")); err == nil {
		fq.Limit = n
	}
	st, err := community.FeedSQL(fq, feedVisible)
	if err != nil {
		return err
	}
	rows, err := f.pool.Query(r.Context(), st.SQL, st.Args...)
	if err != nil {
		return err
	}
	items := make([]community.Post, 0, st.Limit+1)
	for rows.Next() {
		var p community.Post
		var authorID, first, last, avatar, title string
		var hasProfile, verified bool
		var media []byte
		if err := rows.Scan(&p.ID, &authorID, &hasProfile, &first, &last, &avatar, &title, &verified,
			&p.Content, &p.CreatedAt, &p.EditedAt, &p.Likes, &p.Comments, &p.Liked, &media, &p.AcceptedCommentID); err != nil {
			rows.Close()
			return err
		}
		if authorID != "" && hasProfile {
			p.Author = &community.Author{ID: authorID, FirstName: first, LastName: last, Verified: verified,
				AvatarURL: optional(avatar), Title: optional(title)}
		}
		p.IsMine = authorID == userID
		var stored []storedPicture
		if err := json.Unmarshal(media, &stored); err != nil {
			rows.Close()
			return err
		}
		p.Media = make([]community.Media, len(stored))
		for i, m := range stored {
			p.Media[i] = community.Media{ID: m.ID, MediaType: m.MediaType, URL: uploadsPrefix + m.StoragePath,
				Width: m.Width, Height: m.Height, FileName: m.FileName, FileSize: m.FileSize, MimeType: m.MimeType}
			if m.ThumbnailPath != nil {
				u := uploadsPrefix + *m.ThumbnailPath
				p.Media[i].ThumbnailURL = &u
			}
		}
		p.CreatedAt = p.CreatedAt.UTC()
		if p.EditedAt != nil {
			at := p.EditedAt.UTC()
			p.EditedAt = &at
		}
		items = append(items, p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	page := community.FeedPage{Items: items}
	if len(items) > st.Limit {
		page.Items = items[:st.Limit]
		last := page.Items[st.Limit-1]
		next := base64.RawURLEncoding.EncodeToString([]byte(last.CreatedAt.Format(time.RFC3339Nano) + "|" + last.ID))
		page.NextCursor = &next
	}
	return writeJSON(w, http.StatusOK, page)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
