package api

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/core/text"
	"github.com/vetclube/vetclube/core/videos"
	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// The video list row: GET /api/videos, the first page (8 cards) of
// /conteudos-exclusivos for a signed-in premium reader, on Videos published
// videos in four categories. Every reader has two favorites, a like, one
// video half watched and one completed on that page, so the page carries the
// reader's state.
//
// The floor runs what core/videos runs for the page: the reader's
// subscription row (the access rule that locks cards, the same statement as
// subscriptions.Service.Get) and the list statement core/videos builds
// (videos.ListSQL), so both sides run the same SQL text, and scans the same
// columns into the same JSON types.

const videosPath = "/api/videos"

// seedVideos inserts n published videos straight into the read model the
// publishing trigger fills (video_listings, with four categories), makes
// every reader a premium subscriber, and gives each reader favorites, a
// like, progress and a completion on the newest videos (video-1 … video-8
// are the first page).
func seedVideos(t testing.TB, ctx context.Context, pool *pgxpool.Pool, n int, readers []benchUser) {
	t.Helper()
	ids := make([]string, len(readers))
	for i, u := range readers {
		ids[i] = u.id
	}
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO content_items (type, status, slug, title, published_at)
		SELECT 'videos-categorias', 'publicado', 'categoria-' || g, (ARRAY['Cirurgia', 'Clínica de felinos', 'Dermatologia', 'Emergência'])[g], now()
		FROM generate_series(1, 4) g`, nil},
		{`INSERT INTO video_categories (item_id, name, display_order)
		SELECT id, title, substring(slug FROM 11)::int FROM content_items WHERE type = 'videos-categorias'`, nil},
		{`INSERT INTO content_items (type, status, slug, title, published_at)
		SELECT 'videos', 'publicado', 'video-' || g, 'Vídeo ' || g || (ARRAY[': sutura intradérmica passo a passo',
			': abordagem do gato com doença renal crônica', ': otite externa no cão', ': atendimento do politraumatizado'])[g % 4 + 1],
			now() - g * interval '1 minute'
		FROM generate_series(1, $1::int) g`, []any{n}},
		// Odd videos have an uploaded thumbnail, even ones fall back to
		// YouTube's (the two ways a card gets its picture).
		{`INSERT INTO video_listings (item_id, slug, title, description, thumbnail, category_id, duration_seconds,
			difficulty, instructor, tags, video_source, youtube_url, search, published_at, revision)
		SELECT v.id, v.slug, v.title,
			repeat('Um vídeo prático para médicos veterinários, com casos reais e dicas de conduta. ', 6),
			CASE WHEN v.g % 2 = 1 THEN 'capas/' || v.slug || '.webp' ELSE '' END,
			(SELECT id FROM content_items WHERE type = 'videos-categorias' ORDER BY slug OFFSET v.g % 4 LIMIT 1),
			300 + (v.g * 37) % 3300, (ARRAY['Iniciante', 'Intermediário', 'Avançado'])[v.g % 3 + 1], 'Dra. Instrutora ' || v.g % 20,
			ARRAY['tag' || v.g % 10, 'clinica'], 'youtube', 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
			setweight(to_tsvector('vetclube_pt', v.title), 'A'), v.published_at, 1
		FROM (SELECT id, slug, title, published_at, substring(slug FROM 7)::int AS g FROM content_items WHERE type = 'videos') v`, nil},
		{`UPDATE engagement_counters c SET views = 10 + (v.g::bigint * 7919) % 5000, likes = (v.g::bigint * 104729) % 300
		FROM (SELECT id, substring(slug FROM 7)::int AS g FROM content_items WHERE type = 'videos') v WHERE c.item_id = v.id`, nil},
		{`INSERT INTO subscribers (user_id, subscription_status, subscription_tier)
		SELECT u, 'active', 'premium' FROM unnest($1::uuid[]) u ON CONFLICT (user_id) DO NOTHING`, []any{ids}},
		{`INSERT INTO engagement_favorites (item_id, user_id)
		SELECT v.id, u FROM unnest($1::uuid[]) u, content_items v WHERE v.type = 'videos' AND v.slug IN ('video-2', 'video-5')`, []any{ids}},
		{`INSERT INTO engagement_reactions (item_id, user_id, reaction)
		SELECT v.id, u, 'like' FROM unnest($1::uuid[]) u, content_items v WHERE v.type = 'videos' AND v.slug = 'video-4'`, []any{ids}},
		{`INSERT INTO engagement_progress (item_id, user_id, percent, position_seconds, duration_seconds, watched)
		SELECT v.id, u, p.pct, p.pct * 6, 600, jsonb_build_array(jsonb_build_array(0, p.pct * 6))
		FROM unnest($1::uuid[]) u, (VALUES ('video-1', 40), ('video-3', 95)) p (slug, pct)
		JOIN content_items v ON v.type = 'videos' AND v.slug = p.slug`, []any{ids}},
		{`INSERT INTO video_completions (user_id, video_id, how)
		SELECT u, v.id, 'watched' FROM unnest($1::uuid[]) u, content_items v WHERE v.type = 'videos' AND v.slug = 'video-3'`, []any{ids}},
	}
	for _, st := range stmts {
		if _, err := pool.Exec(ctx, st.sql, st.args...); err != nil {
			t.Fatalf("bench-api: seed videos: %v", err)
		}
	}
}

func (f *floor) videoList(w http.ResponseWriter, r *http.Request, userID string) error {
	filter, err := videos.ParseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	ctx := r.Context()
	var sub subscriptions.Subscriber
	access := false
	err = f.pool.QueryRow(ctx, `SELECT subscription_status, subscription_tier, trial_ends_at FROM subscribers WHERE user_id = $1`, userID).
		Scan(&sub.Status, &sub.Tier, &sub.TrialEndsAt)
	switch {
	case err == nil:
		v := subscriptions.ViewOf(&sub, time.Now())
		access = v.IsPremium || v.TrialActive
	case err != pgx.ErrNoRows:
		return err
	}
	sql, args := videos.ListSQL(userID, filter)
	rows, err := f.pool.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	cards, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (videos.Card, error) {
		var c videos.Card
		var desc, thumb, yt string
		var catID, catName *string
		var percent float64
		if err := row.Scan(&c.ID, &c.Slug, &c.Title, &desc, &thumb, &yt, &catID, &catName, &c.DurationSeconds,
			&c.Difficulty, &c.Instructor, &c.Tags, &c.VideoSource, &c.Views, &c.Likes, &c.PublishedAt,
			&c.IsFavorite, &c.UserLiked, &c.CompletedAt, &percent); err != nil {
			return c, err
		}
		c.Description = courses.Preview(desc)
		switch {
		case thumb != "":
			u := "/uploads/" + thumb
			if strings.HasPrefix(thumb, "http://") || strings.HasPrefix(thumb, "https://") || strings.HasPrefix(thumb, "/") {
				u = thumb
			}
			c.Thumbnail = &u
		case videourl.YouTubeID(yt) != "":
			u := "https://i.ytimg.com/vi/" + videourl.YouTubeID(yt) + "/hqdefault.jpg"
			c.Thumbnail = &u
		}
		if catID != nil {
			c.Category = &videos.Category{ID: *catID, Name: *catName}
		}
		if c.Tags == nil {
			c.Tags = []string{}
		}
		c.Duration = text.Duration(c.DurationSeconds)
		c.IsCompleted = c.CompletedAt != nil
		c.Progress = int(math.Min(100, math.Floor(percent)))
		c.Locked = !access
		return c, nil
	})
	if err != nil {
		return err
	}
	limit, _ := videos.PageWindow(filter.Page)
	page := videos.Page{Videos: cards, Page: filter.Page, PageSize: limit}
	if len(cards) > limit {
		page.Videos, page.HasMore = cards[:limit], true
	}
	return writeJSON(w, http.StatusOK, page)
}
