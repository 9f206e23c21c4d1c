package community_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/notifications"
)

func contents(posts []community.Post) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = p.Content
	}
	return out
}

// feedAll pages through a feed with limit, checking each page's size and
// that the last page has no cursor.
func (e *env) feedAll(t *testing.T, reader string, q community.FeedQuery) []string {
	t.Helper()
	q.Reader = reader
	var all []string
	for pages := 0; ; pages++ {
		page, err := e.svc().Feed(e.ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) > q.Limit {
			t.Fatalf("page of %d with limit %d", len(page.Items), q.Limit)
		}
		all = append(all, contents(page.Items)...)
		if page.NextCursor == nil {
			return all
		}
		if pages > 50 {
			t.Fatal("the cursor does not end")
		}
		q.Cursor = *page.NextCursor
	}
}

// The tabs, the author filter, keyset paging (newest first, no repeats),
// blocks both ways and moderation hide what they should.
func TestFeedTabsPagingBlocksAndModeration(t *testing.T) {
	e := newEnv(t)
	anaC, ana := e.member(t, "ana")
	_, bia := e.member(t, "bia")
	_, caio := e.member(t, "caio")
	_, duda := e.member(t, "duda")
	e.connect(t, ana, bia)
	e.connect(t, caio, duda)

	e.post(t, ana, "ana 1")
	e.post(t, bia, "bia 1")
	caio1 := e.post(t, caio, "caio 1")
	e.post(t, duda, "duda 1")
	e.post(t, ana, "ana 2")
	e.post(t, bia, "bia 2")
	e.post(t, caio, "caio 2")
	// Two posts in the same instant: the id breaks the tie, and paging
	// still returns each once.
	e.advance(time.Minute)
	p1, _, err := e.svc().Create(e.ctx, duda, community.Input{Content: "duda 2"}, "")
	if err != nil {
		t.Fatal(err)
	}
	p2, _, err := e.svc().Create(e.ctx, duda, community.Input{Content: "duda 3"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !p1.CreatedAt.Equal(p2.CreatedAt) {
		t.Fatal("expected two posts in one instant")
	}
	tied := []string{"duda 2", "duda 3"}
	if p1.ID < p2.ID {
		tied = []string{"duda 3", "duda 2"}
	}
	all := append(slices.Clone(tied), "caio 2", "bia 2", "ana 2", "duda 1", "caio 1", "bia 1", "ana 1")

	for _, limit := range []int{1, 2, 3, 20} {
		if got := e.feedAll(t, ana, community.FeedQuery{Limit: limit}); !slices.Equal(got, all) {
			t.Fatalf("todos, limit %d:\n got %v\nwant %v", limit, got, all)
		}
	}
	if got := e.feedAll(t, ana, community.FeedQuery{Tab: community.TabConnections, Limit: 2}); !slices.Equal(got, []string{"bia 2", "ana 2", "bia 1", "ana 1"}) {
		t.Fatalf("conexoes of ana: %v", got)
	}
	if got := e.feedAll(t, duda, community.FeedQuery{Tab: community.TabConnections, Limit: 20}); !slices.Equal(got, append(slices.Clone(tied), "caio 2", "duda 1", "caio 1")) {
		t.Fatalf("conexoes of duda: %v", got)
	}
	if got := e.feedAll(t, bia, community.FeedQuery{Author: caio, Limit: 1}); !slices.Equal(got, []string{"caio 2", "caio 1"}) {
		t.Fatalf("caio's posts: %v", got)
	}

	// Over HTTP: the page shape and the request checks.
	r := anaC.Do("GET", "/api/community/feed?tab=conexoes&limit=3", nil)
	var page community.FeedPage
	r.JSON(t, &page)
	if r.Status != http.StatusOK || len(page.Items) != 3 || page.NextCursor == nil || !page.Items[1].IsMine || page.Items[0].IsMine {
		t.Fatalf("feed over HTTP: %d %s", r.Status, r.Body)
	}
	r = anaC.Do("GET", "/api/community/feed?tab=conexoes&limit=3&cursor="+url.QueryEscape(*page.NextCursor), nil)
	r.JSON(t, &page)
	if r.Status != http.StatusOK || len(page.Items) != 1 || page.NextCursor != nil || page.Items[0].Content != "ana 1" {
		t.Fatalf("last page over HTTP: %d %s", r.Status, r.Body)
	}
	for _, q := range []string{"tab=amigos", "limit=0", "limit=51", "limit=x", "cursor=%21%21", "author=ninguem"} {
		if r := anaC.Do("GET", "/api/community/feed?"+q, nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("?%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := e.srv.Client(t).Do("GET", "/api/community/feed", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("visitor: %d", r.Status)
	}

	// Ana blocks Caio: neither sees the other's posts, in any tab or by id.
	if err := e.srv.App.Connections.Block(e.ctx, ana, caio); err != nil {
		t.Fatal(err)
	}
	without := func(list []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
	}
	if got := e.feedAll(t, ana, community.FeedQuery{Limit: 4}); !slices.Equal(got, without(all, "caio 1", "caio 2")) {
		t.Fatalf("ana after blocking caio: %v", got)
	}
	if got := e.feedAll(t, caio, community.FeedQuery{Limit: 4}); !slices.Equal(got, without(all, "ana 1", "ana 2")) {
		t.Fatalf("caio after ana blocked him: %v", got)
	}
	if got := e.feedAll(t, ana, community.FeedQuery{Author: caio, Limit: 4}); len(got) != 0 {
		t.Fatalf("caio's profile for ana: %v", got)
	}
	if r := anaC.Do("GET", "/api/community/posts/"+caio1.ID, nil); r.Status != http.StatusNotFound {
		t.Fatalf("blocked author's post by id: %d", r.Status)
	}
	if r := anaC.Do("PUT", "/api/community/posts/"+caio1.ID+"/like", nil); r.Status != http.StatusNotFound {
		t.Fatalf("like of a blocked author's post: %d", r.Status)
	}
	if got := e.feedAll(t, bia, community.FeedQuery{Limit: 20}); !slices.Equal(got, all) {
		t.Fatalf("bia is not part of the block: %v", got)
	}

	// A post moderation hid (core/moderation's state) leaves every feed.
	if _, err := e.srv.App.Pool.Exec(e.ctx, `INSERT INTO moderation_targets (target_type, target_id, state, author_id, item_id)
		VALUES ('post', $1, 'oculto', $2, $1)`, p1.ID, duda); err != nil {
		t.Fatal(err)
	}
	if got := e.feedAll(t, bia, community.FeedQuery{Limit: 20}); slices.Contains(got, "duda 2") || len(got) != len(all)-1 {
		t.Fatalf("hidden post still listed: %v", got)
	}
	if _, err := e.svc().Get(e.ctx, bia, p1.ID); err == nil {
		t.Fatal("hidden post readable by id")
	}
	if got := e.feedAll(t, duda, community.FeedQuery{Tab: community.TabConnections, Limit: 1}); slices.Contains(got, "duda 2") || len(got) != 4 {
		t.Fatalf("hidden post in the connections tab: %v", got)
	}
}

// Likes are idempotent, counted exactly, and the author hears of them once
// per member and post; liking your own post tells nobody.
func TestLikeIdempotentAndNotifiesOnce(t *testing.T) {
	e := newEnv(t)
	_, ana := e.member(t, "ana")
	biaC, bia := e.member(t, "bia")
	caioC, _ := e.member(t, "caio")
	anaC, _ := e.srv.SignedIn(t, "ana@teste.dev")
	p := e.post(t, ana, "curtam!")
	path := "/api/community/posts/" + p.ID + "/like"
	state := func(r interface {
		JSON(testing.TB, any)
	}) community.LikeState {
		var s community.LikeState
		r.JSON(t, &s)
		return s
	}
	for range 2 {
		r := biaC.Do("PUT", path, nil)
		if s := state(r); r.Status != http.StatusOK || s.Likes != 1 || !s.Liked {
			t.Fatalf("like: %d %s", r.Status, r.Body)
		}
	}
	r := biaC.Do("DELETE", path, nil)
	if s := state(r); s.Likes != 0 || s.Liked {
		t.Fatalf("unlike: %s", r.Body)
	}
	if s := state(biaC.Do("DELETE", path, nil)); s.Likes != 0 || s.Liked {
		t.Fatal("second unlike")
	}
	biaC.Do("PUT", path, nil)
	if s := state(caioC.Do("PUT", path, nil)); s.Likes != 2 {
		t.Fatalf("two likers: %+v", s)
	}
	if s := state(anaC.Do("PUT", path, nil)); s.Likes != 3 {
		t.Fatalf("own like: %+v", s)
	}
	var got community.Post
	biaC.Do("GET", "/api/community/posts/"+p.ID, nil).JSON(t, &got)
	if got.Likes != 3 || !got.Liked {
		t.Fatalf("post as bia: %+v", got)
	}

	list, err := e.srv.App.Engagement.Notifications.List(e.ctx, ana, 50)
	if err != nil {
		t.Fatal(err)
	}
	var likes []notifications.Notification
	for _, n := range list {
		if n.Type == "like" {
			likes = append(likes, n)
		}
	}
	// Bia's like, unlike and like again notified once; Caio's folded into
	// the same unread notification; Ana's own like told nobody.
	if len(likes) != 1 || likes[0].GroupCount != 2 || likes[0].RelatedPostID == nil || *likes[0].RelatedPostID != p.ID ||
		likes[0].Link != "/community?post="+p.ID || likes[0].Title != "Nova curtida" {
		t.Fatalf("like notifications: %+v", likes)
	}
	var keys int
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM notifications WHERE idempotency_key = $1`, "like:post:"+bia+":"+p.ID).Scan(&keys); err != nil || keys != 1 {
		t.Fatalf("bia's like notification key: %d %v", keys, err)
	}
	if r := biaC.Do("PUT", "/api/community/posts/00000000-0000-4000-8000-000000000000/like", nil); r.Status != http.StatusNotFound {
		t.Fatalf("like of nothing: %d", r.Status)
	}
}
