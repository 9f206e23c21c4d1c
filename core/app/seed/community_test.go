package seed_test

import (
	"io"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/community"
)

// With the comunidade plugin loaded, the seed publishes the demo feed among
// the demo vets over the last days, with likes, comments and replies, once.
func TestSeedCommunity(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "comunidade")})
	ctx := t.Context()
	for range 2 {
		if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := seed.DemoPostIDs(ctx, srv.App)
	if err != nil || len(ids) < 20 {
		t.Fatalf("demo posts: %d %v", len(ids), err)
	}
	var demo string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demo); err != nil {
		t.Fatal(err)
	}
	page, err := srv.App.Community.Feed(ctx, community.FeedQuery{Reader: demo, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != len(ids) {
		t.Fatalf("feed has %d posts, seed made %d", len(page.Items), len(ids))
	}
	authors := map[string]bool{}
	likes, liked := int64(0), 0
	for i, p := range page.Items {
		if p.Author == nil || p.Author.FirstName == "" || p.Content == "" {
			t.Fatalf("post %d: %+v", i, p)
		}
		authors[p.Author.ID] = true
		likes += p.Likes
		if p.Liked {
			liked++
		}
		if i > 0 && p.CreatedAt.After(page.Items[i-1].CreatedAt) {
			t.Fatal("feed not newest first")
		}
	}
	oldest := page.Items[len(page.Items)-1].CreatedAt
	if len(authors) < 12 || likes < 50 || liked == 0 || time.Since(oldest) < 72*time.Hour {
		t.Fatalf("%d authors, %d likes, %d liked by the demo user, oldest %s", len(authors), likes, liked, oldest)
	}
	// Conversations: comments and replies on several posts, counted on the
	// posts, dated after them, some liked; a second seed added none.
	var comments, replies, posts, liked2 int
	var early bool
	if err := srv.App.Pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE c.parent_id IS NOT NULL),
			count(DISTINCT c.item_id), count(*) FILTER (WHERE c.likes_count > 0),
			coalesce(bool_or(c.created_at < p.published_at), false)
		FROM engagement_comments c JOIN content_published p ON p.item_id = c.item_id`).Scan(&comments, &replies, &posts, &liked2, &early); err != nil {
		t.Fatal(err)
	}
	if comments < 20 || replies < 8 || posts < 8 || liked2 < 10 || early {
		t.Fatalf("%d comments (%d replies) on %d posts, %d liked, dated before the post: %v", comments, replies, posts, liked2, early)
	}
	var counted int64
	for _, p := range page.Items {
		counted += p.Comments
	}
	if counted != int64(comments) {
		t.Fatalf("posts count %d comments, %d exist", counted, comments)
	}
}
