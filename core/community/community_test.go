package community_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/points/pointstest"
)

func jsonBody(v any) ([]byte, error) { return json.Marshal(v) }

// The contract's shape, the author-only edit (marked edited), delete by the
// author or a moderator, and 403 for anyone else.
func TestCreateEditDeleteRules(t *testing.T) {
	e := newEnv(t)
	ana, anaID := e.member(t, "ana")
	bia, _ := e.member(t, "bia")
	mod, _ := e.member(t, "moderadora", "moderador")
	admin, _ := e.member(t, "chefe", "super_admin")

	res := createPost(t, ana, "", map[string]any{"content": "  Primeiro **post** da Ana  ", "media_ids": []string{}})
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	var raw map[string]any
	res.JSON(t, &raw)
	for _, k := range []string{"id", "author", "content", "media", "created_at", "edited_at", "likes", "comments_count", "liked", "is_mine"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("post lacks %q: %s", k, res.Body)
		}
	}
	var p community.Post
	res.JSON(t, &p)
	if p.Content != "Primeiro **post** da Ana" || p.EditedAt != nil || !p.IsMine || p.Author == nil || p.Author.ID != anaID ||
		p.Author.FirstName != "ana" || p.Author.AvatarURL != nil || p.Likes != 0 || p.Comments != 0 || len(p.Media) != 0 {
		t.Fatalf("created post: %+v", p)
	}

	// Another member sees it, not as theirs.
	var seen community.Post
	r := bia.Do("GET", "/api/community/posts/"+p.ID, nil)
	r.JSON(t, &seen)
	if r.Status != http.StatusOK || seen.IsMine || seen.Content != p.Content {
		t.Fatalf("read by bia: %d %s", r.Status, r.Body)
	}

	// Refusals with the contract's messages.
	for _, tc := range []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"content": "   "}, "content", community.MsgEmpty},
		{map[string]any{"content": strings.Repeat("é", 5001)}, "content", community.MsgTooLong},
		{map[string]any{"content": "x", "media_ids": make11IDs()}, "media_ids", community.MsgTooManyMedia},
		{map[string]any{"content": "x", "media_ids": []string{"não-é-um-id"}}, "media_ids", community.MsgMediaNotFound},
	} {
		r := createPost(t, ana, "", tc.body)
		if b := errorOf(t, r); r.Status != http.StatusUnprocessableEntity || b.Error.Message != tc.msg || b.Error.Fields[tc.field] != tc.msg {
			t.Errorf("%v: %d %s", tc.body, r.Status, r.Body)
		}
	}
	if r := createPost(t, ana, "", map[string]any{"content": strings.Repeat("é", 5000)}); r.Status != http.StatusCreated {
		t.Errorf("5000 characters: %d %s", r.Status, r.Body)
	}

	// Only the author edits.
	r = bia.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "invadido"})
	if r.Status != http.StatusForbidden || r.ErrorMessage() != community.MsgNotAuthorEdit {
		t.Fatalf("edit by another: %d %s", r.Status, r.Body)
	}
	r = mod.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "moderado"})
	if r.Status != http.StatusForbidden {
		t.Fatalf("edit by a moderator: %d %s", r.Status, r.Body)
	}
	// Saving the same text is not an edit.
	r = ana.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "Primeiro **post** da Ana"})
	var same community.Post
	r.JSON(t, &same)
	if r.Status != http.StatusOK || same.EditedAt != nil {
		t.Fatalf("unchanged save: %d %s", r.Status, r.Body)
	}
	e.advance(time.Minute)
	r = ana.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "Texto corrigido", "media_ids": []string{}})
	var edited community.Post
	r.JSON(t, &edited)
	if r.Status != http.StatusOK || edited.Content != "Texto corrigido" || edited.EditedAt == nil || !edited.EditedAt.Equal(e.now()) ||
		!edited.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	// Readers see the edit at once (no review for posts).
	bia.Do("GET", "/api/community/posts/"+p.ID, nil).JSON(t, &seen)
	if seen.Content != "Texto corrigido" || seen.EditedAt == nil {
		t.Fatalf("edit not public: %+v", seen)
	}

	// Only the author or a moderator deletes.
	r = bia.Do("DELETE", "/api/community/posts/"+p.ID, nil)
	if r.Status != http.StatusForbidden || r.ErrorMessage() != community.MsgNotAuthorDelete {
		t.Fatalf("delete by another: %d %s", r.Status, r.Body)
	}
	if r := ana.Do("DELETE", "/api/community/posts/"+p.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete by the author: %d %s", r.Status, r.Body)
	}
	if r := ana.Do("DELETE", "/api/community/posts/"+p.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete again: %d %s", r.Status, r.Body)
	}
	if r := bia.Do("GET", "/api/community/posts/"+p.ID, nil); r.Status != http.StatusNotFound || r.ErrorMessage() != community.MsgNotFound {
		t.Fatalf("deleted post: %d %s", r.Status, r.Body)
	}
	if r := ana.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "volta"}); r.Status != http.StatusNotFound {
		t.Fatalf("edit of a deleted post: %d %s", r.Status, r.Body)
	}
	if r := bia.Do("DELETE", "/api/community/posts/"+p.ID, nil); r.Status != http.StatusNotFound {
		t.Fatalf("delete of a deleted post by another: %d %s", r.Status, r.Body)
	}

	// Moderators and super admins delete anyone's post.
	for i, who := range []struct {
		label string
		do    func(string) int
	}{
		{"moderador", func(id string) int { return mod.Do("DELETE", "/api/community/posts/"+id, nil).Status }},
		{"super_admin", func(id string) int { return admin.Do("DELETE", "/api/community/posts/"+id, nil).Status }},
	} {
		e.advance(time.Minute)
		q := createPost(t, bia, "", map[string]any{"content": "post da Bia " + who.label})
		var bp community.Post
		q.JSON(t, &bp)
		if got := who.do(bp.ID); got != http.StatusNoContent {
			t.Fatalf("%d: delete by %s: %d", i, who.label, got)
		}
		if r := bia.Do("GET", "/api/community/posts/"+bp.ID, nil); r.Status != http.StatusNotFound {
			t.Fatalf("post deleted by %s still readable: %d", who.label, r.Status)
		}
	}
	// The item stays, archived, for the audit trail.
	var status string
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT status FROM content_items WHERE id = $1`, p.ID).Scan(&status); err != nil || status != "arquivado" {
		t.Fatalf("deleted item: %q %v", status, err)
	}
}

func make11IDs() []string {
	ids := make([]string, 11)
	for i := range ids {
		ids[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
	}
	return ids
}

// The API returns the Markdown source as JSON text: markup a member typed is
// never HTML in the answer (JSON escapes < and >), and nothing is refused
// for it.
func TestContentIsNeverHTML(t *testing.T) {
	e := newEnv(t)
	ana, _ := e.member(t, "ana")
	payload := `<script>alert("x")</script> <img src=x onerror=alert(1)> [link](javascript:alert(1))`
	r := createPost(t, ana, "", map[string]any{"content": payload})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var p community.Post
	r.JSON(t, &p)
	if p.Content != payload {
		t.Fatalf("content changed: %q", p.Content)
	}
	feed := ana.Do("GET", "/api/community/feed", nil)
	for _, body := range [][]byte{r.Body, feed.Body} {
		if strings.Contains(string(body), "<script") || strings.Contains(string(body), "<img") {
			t.Fatalf("answer carries raw HTML: %s", body)
		}
	}
	if ct := feed.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q", ct)
	}
	// Posts are not readable through the generic content API (blocks and
	// moderation apply only in the feed).
	if r := ana.Do("GET", "/api/content/posts", nil); r.Status != http.StatusNotFound {
		t.Fatalf("generic list of posts: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Client(t).Do("GET", "/api/content/posts/"+p.ID, nil); r.Status != http.StatusNotFound {
		t.Fatalf("generic detail of a post: %d %s", r.Status, r.Body)
	}
}

// Eight concurrent retries of one create with one key make one post, one
// 201 and seven 200s with the same post, and one VetCoins credit.
func TestIdempotentCreateUnderConcurrentRetries(t *testing.T) {
	e := newEnv(t)
	ana, anaID := e.member(t, "ana")
	const n = 8
	statuses := make([]int, n)
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := createPost(t, ana, "tentativa-1", map[string]any{"content": "Post com rede instável"})
			statuses[i] = r.Status
			var p community.Post
			_ = json.Unmarshal(r.Body, &p)
			ids[i] = p.ID
		}()
	}
	wg.Wait()
	created := 0
	for i := range n {
		switch statuses[i] {
		case http.StatusCreated:
			created++
		case http.StatusOK:
		default:
			t.Fatalf("retry %d: %d", i, statuses[i])
		}
		if ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("retries answered different posts: %v", ids)
		}
	}
	if created != 1 {
		t.Fatalf("%d answers said created", created)
	}
	var posts, credits int
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM content_items WHERE type = 'posts' AND author_id = $1`, anaID).Scan(&posts); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM points_ledger WHERE user_id = $1 AND kind = 'post'`, anaID).Scan(&credits); err != nil {
		t.Fatal(err)
	}
	if posts != 1 || credits != 1 {
		t.Fatalf("%d posts, %d credits", posts, credits)
	}
	// The same key from another member is another post.
	bia, _ := e.member(t, "bia")
	if r := createPost(t, bia, "tentativa-1", map[string]any{"content": "Outro post"}); r.Status != http.StatusCreated {
		t.Fatalf("same key, other member: %d %s", r.Status, r.Body)
	}
}

// 10 VetCoins for each of the first 5 posts of a São Paulo day, once per
// post, even when posts race at the cap; a new São Paulo day (while UTC's
// has not changed) starts over.
func TestPointsOncePerPostCappedAtFivePerDay(t *testing.T) {
	e := newEnv(t)
	_, anaID := e.member(t, "ana")
	// 23:00 in São Paulo is 02:00 UTC of the next day.
	e.clock.Store(time.Date(2026, 3, 11, 2, 0, 0, 0, time.UTC).UnixNano())
	balance := func() int {
		t.Helper()
		b, err := e.srv.App.Engagement.Points.Balance(e.ctx, anaID)
		if err != nil {
			t.Fatal(err)
		}
		return b.PostPoints
	}
	for i := range 3 {
		e.post(t, anaID, "post "+string(rune('A'+i)))
	}
	if got := balance(); got != 30 {
		t.Fatalf("after 3 posts: %d", got)
	}
	// Three posts at once with two credits left: exactly two are credited.
	e.advance(time.Minute)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := e.svc().Create(e.ctx, anaID, community.Input{Content: "ao mesmo tempo " + string(rune('a'+i))}, ""); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := balance(); got != 50 {
		t.Fatalf("at the cap: %d", got)
	}
	e.advance(time.Minute)
	e.post(t, anaID, "sexto post do dia")
	if got := balance(); got != 50 {
		t.Fatalf("past the cap: %d", got)
	}
	// 01:00 in São Paulo, 04:00 UTC: the same UTC day, a new São Paulo day.
	e.advance(2 * time.Hour)
	p := e.post(t, anaID, "bom dia")
	if got := balance(); got != 60 {
		t.Fatalf("next São Paulo day: %d", got)
	}
	var key, day string
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT idempotency_key, metadata->>'day' FROM points_ledger WHERE metadata->>'post_id' = $1`, p.ID).
		Scan(&key, &day); err != nil || key != "community:post:"+p.ID || day != "2026-03-11" {
		t.Fatalf("credit of the post: %q %q %v", key, day, err)
	}
	if sum, err := pointstest.LedgerSum(e.ctx, e.srv.App.Pool, anaID); err != nil || sum != 60 {
		t.Fatalf("ledger sum %d %v", sum, err)
	}
}

// Posting is limited to 5 a minute per member: the 6th is refused with the
// contract's message and a Retry-After, nothing is stored, and the next
// minute posting works again. A refused post costs nothing.
func TestPostRateLimit(t *testing.T) {
	e := newEnv(t)
	ana, anaID := e.member(t, "ana")
	e.advance(10 * time.Second)
	for i := range 5 {
		if r := createPost(t, ana, "", map[string]any{"content": "rajada " + string(rune('a'+i))}); r.Status != http.StatusCreated {
			t.Fatalf("post %d: %d %s", i, r.Status, r.Body)
		}
	}
	r := createPost(t, ana, "", map[string]any{"content": "spam"})
	if r.Status != http.StatusTooManyRequests || r.ErrorMessage() != community.MsgTooFast || r.Header.Get("Retry-After") != "50" {
		t.Fatalf("6th post: %d %q Retry-After %q", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	var posts int
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM content_items WHERE author_id = $1`, anaID).Scan(&posts); err != nil || posts != 5 {
		t.Fatalf("stored posts: %d %v", posts, err)
	}
	// Another member is not limited by Ana.
	bia, _ := e.member(t, "bia")
	if r := createPost(t, bia, "", map[string]any{"content": "oi"}); r.Status != http.StatusCreated {
		t.Fatalf("other member: %d", r.Status)
	}
	e.advance(time.Minute)
	if r := createPost(t, ana, "", map[string]any{"content": "depois de esperar"}); r.Status != http.StatusCreated {
		t.Fatalf("next minute: %d %s", r.Status, r.Body)
	}
}
