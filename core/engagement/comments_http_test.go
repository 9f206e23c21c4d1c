package engagement_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
)

// startCommunity starts a server whose content platform has the community's
// post type (registered here when the comunidade plugin is not built) and a
// fixed clock, so a rate-limit window never ends mid-test.
func startCommunity(t *testing.T) *apptest.Server {
	t.Helper()
	srv := apptest.Start(t, nil)
	if _, ok := srv.App.Content.Registry.Get(community.TypeID); !ok {
		if err := srv.App.Content.Registry.Register(content.Type{ID: community.TypeID, Singular: "Publicação", Plural: "Publicações",
			Workflow: content.WorkflowPublishOnCreate}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 23, 12, 0, 5, 0, time.UTC)
	srv.App.Content.SetClock(func() time.Time { return now })
	return srv
}

func publishPost(t *testing.T, srv *apptest.Server, author string) string {
	t.Helper()
	it, _, err := srv.App.Content.Store.Create(context.Background(), content.Actor{UserID: author, Channel: content.ChannelAPI},
		community.TypeID, content.Input{Title: "Caso clínico"}, "")
	if err != nil {
		t.Fatal(err)
	}
	return it.ID
}

func postComment(c *apptest.Client, post, key string, body any) apptest.Response {
	req, _ := http.NewRequest("POST", c.URLFor("/api/community/posts/"+post+"/comments"), bytes.NewReader(mustJSON(body)))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set(engagement.IdempotencyHeader, key)
	}
	return c.Send(req)
}

func TestCommentsOverHTTP(t *testing.T) {
	srv := startCommunity(t)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	bruno, _ := srv.SignedIn(t, "bruno@example.com")
	carla, _ := srv.SignedIn(t, "carla@example.com")
	mod, _ := srv.SignedIn(t, "moderadora@example.com", core.RoleModerador)
	boss, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	post := publishPost(t, srv, anaID)

	// Create with an Idempotency-Key: 201, then the same comment with 200.
	xss := `<script>alert("x")</script><img src=x onerror=alert(1)> **negrito**`
	res := postComment(bruno, post, "chave-1", map[string]any{"content": "  " + xss + "  "})
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	var c engagement.Comment
	res.JSON(t, &c)
	if c.Content != xss || c.ItemID != post || c.ParentID != nil || !c.IsMine || c.Author == nil || c.Author.FirstName != "bruno" || len(c.Replies) != 0 {
		t.Fatalf("created %+v", c)
	}
	// Text stays text: JSON (never HTML), the markup escaped inside the JSON string.
	if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
		bytes.Contains(res.Body, []byte("<script>")) || bytes.Contains(res.Body, []byte("<img")) {
		t.Fatalf("comment answered as %q: %s", ct, res.Body)
	}
	again := postComment(bruno, post, "chave-1", map[string]any{"content": xss})
	var c2 engagement.Comment
	again.JSON(t, &c2)
	if again.Status != http.StatusOK || c2.ID != c.ID {
		t.Fatalf("retry: %d %s", again.Status, again.Body)
	}

	// The list's exact shape.
	res = carla.Do("GET", "/api/community/posts/"+post+"/comments", nil)
	var raw struct {
		Items []map[string]any `json:"items"`
	}
	res.JSON(t, &raw)
	if res.Status != http.StatusOK || len(raw.Items) != 1 {
		t.Fatalf("list: %d %s", res.Status, res.Body)
	}
	var keys []string
	for k := range raw.Items[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"author", "content", "created_at", "dislikes", "id", "is_disliked", "is_edited", "is_liked", "is_mine", "item_id",
		"likes", "parent_id", "replies", "updated_at"}
	if !slices.Equal(keys, want) || raw.Items[0]["content"] != xss || raw.Items[0]["is_mine"] != false {
		t.Fatalf("comment keys %v: %s", keys, res.Body)
	}
	author := raw.Items[0]["author"].(map[string]any)
	if len(author) != 6 || author["avatar_url"] != nil || author["title"] != nil || author["verified"] != false {
		t.Fatalf("author %v", author)
	}
	// Community posts are served through their own API: the generic
	// content route does not reach them (members get 404, visitors are
	// asked to sign in first).
	if res := carla.Do("GET", "/api/content/posts/"+post+"/comments", nil); res.Status != http.StatusNotFound || bytes.Contains(res.Body, []byte(c.ID)) {
		t.Fatalf("generic list: %d %s", res.Status, res.Body)
	}
	if res := srv.Client(t).Do("GET", "/api/content/posts/"+post+"/comments", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor on the generic route: %d", res.Status)
	}
	if res := srv.Client(t).Do("POST", "/api/content/posts/"+post+"/comments", map[string]any{"content": "x"}); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor comment: %d", res.Status)
	}

	// Someone else's edit or delete: 403 with the members' pt-BR words.
	res = carla.Do("PUT", "/api/comments/"+c.ID, map[string]any{"content": "invadido"})
	if res.Status != http.StatusForbidden || res.ErrorMessage() != "Apenas o autor pode editar este comentário" {
		t.Fatalf("foreign edit: %d %s", res.Status, res.Body)
	}
	res = carla.Do("DELETE", "/api/comments/"+c.ID, nil)
	if res.Status != http.StatusForbidden || res.ErrorMessage() != "Apenas o autor pode excluir este comentário" {
		t.Fatalf("foreign delete: %d %s", res.Status, res.Body)
	}
	// The post's author is not the comment's author either.
	if res := ana.Do("DELETE", "/api/comments/"+c.ID, nil); res.Status != http.StatusForbidden {
		t.Fatalf("post author deleting a comment: %d", res.Status)
	}
	// The author's unchanged edit keeps is_edited false; a change sets it.
	res = bruno.Do("PUT", "/api/comments/"+c.ID, map[string]any{"content": "\n" + xss + " "})
	var e engagement.Comment
	res.JSON(t, &e)
	if res.Status != http.StatusOK || e.IsEdited {
		t.Fatalf("unchanged edit: %d %s", res.Status, res.Body)
	}
	res = bruno.Do("PUT", "/api/comments/"+c.ID, map[string]any{"content": "Corrigido"})
	res.JSON(t, &e)
	if res.Status != http.StatusOK || !e.IsEdited || e.Content != "Corrigido" {
		t.Fatalf("edit: %d %s", res.Status, res.Body)
	}

	// Replies: one level; empty text refused.
	res = postComment(carla, post, "", map[string]any{"content": "Resposta", "parent_id": c.ID})
	var reply engagement.Comment
	res.JSON(t, &reply)
	if res.Status != http.StatusCreated || reply.ParentID == nil || *reply.ParentID != c.ID {
		t.Fatalf("reply: %d %s", res.Status, res.Body)
	}
	res = postComment(ana, post, "", map[string]any{"content": "Tréplica", "parent_id": reply.ID})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Respostas só podem ser feitas a comentários principais" {
		t.Fatalf("reply to a reply: %d %s", res.Status, res.Body)
	}
	res = postComment(ana, post, "", map[string]any{"content": "   "})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "O comentário não pode estar vazio" {
		t.Fatalf("empty: %d %s", res.Status, res.Body)
	}

	// Reactions.
	res = ana.Do("PUT", "/api/comments/"+c.ID+"/reaction", map[string]any{"reaction": "like"})
	var r map[string]any
	res.JSON(t, &r)
	if res.Status != http.StatusOK || len(r) != 4 || r["likes"] != 1.0 || r["dislikes"] != 0.0 || r["is_liked"] != true || r["is_disliked"] != false {
		t.Fatalf("like: %d %s", res.Status, res.Body)
	}
	res = ana.Do("PUT", "/api/comments/"+c.ID+"/reaction", map[string]any{"reaction": "dislike"})
	res.JSON(t, &r)
	if r["likes"] != 0.0 || r["dislikes"] != 1.0 || r["is_liked"] != false || r["is_disliked"] != true {
		t.Fatalf("dislike: %s", res.Body)
	}
	if res := ana.Do("PUT", "/api/comments/"+c.ID+"/reaction", map[string]any{"reaction": "love"}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad reaction: %d", res.Status)
	}

	// A moderator and a super admin delete anyone's comment; the reply goes
	// with its parent.
	if res := mod.Do("DELETE", "/api/comments/"+c.ID, nil); res.Status != http.StatusNoContent {
		t.Fatalf("moderator delete: %d %s", res.Status, res.Body)
	}
	if res := carla.Do("PUT", "/api/comments/"+reply.ID, map[string]any{"content": "x"}); res.Status != http.StatusNotFound {
		t.Fatalf("reply of a deleted comment: %d", res.Status)
	}
	other := postComment(ana, post, "", map[string]any{"content": "Mais um"})
	var oc engagement.Comment
	other.JSON(t, &oc)
	if res := boss.Do("DELETE", "/api/comments/"+oc.ID, nil); res.Status != http.StatusNoContent {
		t.Fatalf("super admin delete: %d %s", res.Status, res.Body)
	}
	var count int64
	_ = srv.App.Pool.QueryRow(context.Background(), `SELECT comments FROM engagement_counters WHERE item_id = $1`, post).Scan(&count)
	if count != 0 {
		t.Fatalf("comments counter %d after deleting everything", count)
	}
}

func TestCommentRateLimitOverHTTP(t *testing.T) {
	srv := startCommunity(t)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	post := publishPost(t, srv, anaID)
	for i := range engagement.DefaultCommentRate.Max {
		if res := postComment(ana, post, "", map[string]any{"content": "Comentário " + strconv.Itoa(i)}); res.Status != http.StatusCreated {
			t.Fatalf("comment %d: %d %s", i, res.Status, res.Body)
		}
	}
	res := postComment(ana, post, "", map[string]any{"content": "spam"})
	after, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if res.Status != http.StatusTooManyRequests || res.ErrorMessage() != "Você está comentando rápido demais. Aguarde um momento." ||
		err != nil || after < 1 || after > 60 {
		t.Fatalf("burst: %d %q %s", res.Status, res.Header.Get("Retry-After"), res.Body)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
