package community_test

import (
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/engagement"
)

// A post's author accepts a colleague's comment as the answer: only the
// author, only a colleague's comment on that post; accepting again (or at
// once from many requests) keeps one acceptance and one notice; another
// comment replaces it; clearing removes it; a deleted comment takes its
// acceptance along. AcceptedAnswers counts what a member gave in a period.
func TestAcceptedAnswer(t *testing.T) {
	e := newEnv(t)
	authorC, author := e.member(t, "autora")
	colleagueC, colleague := e.member(t, "colega")
	_, third := e.member(t, "terceira")
	post := e.post(t, author, "Alguém já tratou otite por Pseudomonas resistente?")
	other := e.post(t, author, "Outra publicação")
	eng := e.srv.App.Content.Engagement
	comment := func(user, item, parent, text string) string {
		t.Helper()
		c, _, err := eng.CreateComment(e.ctx, user, item, engagement.NewComment{Content: text, ParentID: parent})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	answer := comment(colleague, post.ID, "", "Cultura e antibiograma, e limpeza com tris-EDTA antes do tópico.")
	own := comment(author, post.ID, "", "Obrigada a todos!")
	elsewhere := comment(colleague, other.ID, "", "Comentário em outra publicação.")
	reply := comment(third, post.ID, answer, "Concordo, e enrofloxacino tópico só com antibiograma.")

	path := "/api/community/posts/" + post.ID + "/resposta-aceita"
	for _, tc := range []struct {
		name   string
		by     string
		body   any
		status int
		msg    string
	}{
		{"a colleague", "colega", map[string]string{"comment_id": answer}, 403, community.MsgNotAuthorAccept},
		{"the author's own comment", "autora", map[string]string{"comment_id": own}, 422, community.MsgAcceptOwn},
		{"a comment of another post", "autora", map[string]string{"comment_id": elsewhere}, 422, community.MsgCommentNotOnPost},
		{"not an id", "autora", map[string]string{"comment_id": "' OR 1=1 --"}, 422, community.MsgCommentGone},
		{"an unknown comment", "autora", map[string]string{"comment_id": "00000000-0000-4000-8000-000000000000"}, 422, community.MsgCommentGone},
	} {
		c := authorC
		if tc.by == "colega" {
			c = colleagueC
		}
		res := c.Do("PUT", path, tc.body)
		if res.Status != tc.status || errorOf(t, res).Error.Message != tc.msg {
			t.Errorf("%s: %d %s, want %d %q", tc.name, res.Status, res.Body, tc.status, tc.msg)
		}
	}
	if res := authorC.Do("PUT", "/api/community/posts/00000000-0000-4000-8000-000000000000/resposta-aceita", map[string]string{"comment_id": answer}); res.Status != 404 {
		t.Errorf("unknown post: %d %s", res.Status, res.Body)
	}

	// Ten acceptances at once: one row, one notice.
	var wg sync.WaitGroup
	statuses := make([]int, 10)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = authorC.Do("PUT", path, map[string]string{"comment_id": answer}).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != 200 {
			t.Fatalf("acceptance %d: %d", i, s)
		}
	}
	var got struct {
		AcceptedCommentID *string `json:"accepted_comment_id"`
	}
	authorC.Do("GET", "/api/community/posts/"+post.ID, nil).JSON(t, &got)
	if got.AcceptedCommentID == nil || *got.AcceptedCommentID != answer {
		t.Fatalf("the post's accepted answer: %v", got.AcceptedCommentID)
	}
	if n := e.notices(t, colleague, "Resposta aceita"); n != 1 {
		t.Fatalf("%d notices to the colleague, want 1", n)
	}
	from, to := e.now().Add(-time.Hour), e.now().Add(time.Hour)
	count := func(user string) int {
		t.Helper()
		n, err := e.svc().AcceptedAnswers(e.ctx, user, from, to)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(colleague) != 1 || count(third) != 0 {
		t.Fatalf("accepted answers: colleague %d, third %d", count(colleague), count(third))
	}

	// A reply replaces it; clearing removes it.
	if res := authorC.Do("PUT", path, map[string]string{"comment_id": reply}); res.Status != 200 {
		t.Fatalf("accept the reply: %d %s", res.Status, res.Body)
	}
	if count(colleague) != 0 || count(third) != 1 || e.notices(t, third, "Resposta aceita") != 1 {
		t.Fatalf("after replacing: colleague %d, third %d", count(colleague), count(third))
	}
	if res := colleagueC.Do("DELETE", path, nil); res.Status != 403 {
		t.Fatalf("a colleague clears: %d", res.Status)
	}
	for range 2 {
		if res := authorC.Do("DELETE", path, nil); res.Status != 200 {
			t.Fatalf("clear: %d %s", res.Status, res.Body)
		}
	}
	if count(third) != 0 {
		t.Fatalf("cleared, still counted")
	}

	// A deleted comment takes its acceptance along.
	if res := authorC.Do("PUT", path, map[string]string{"comment_id": answer}); res.Status != 200 {
		t.Fatalf("accept again: %d", res.Status)
	}
	if err := eng.DeleteComment(e.ctx, colleague, answer, false); err != nil {
		t.Fatal(err)
	}
	authorC.Do("GET", "/api/community/posts/"+post.ID, nil).JSON(t, &got)
	if got.AcceptedCommentID != nil || count(colleague) != 0 {
		t.Fatalf("deleted comment still accepted: %v", got.AcceptedCommentID)
	}
}

// notices counts userID's notifications titled title.
func (e *env) notices(t *testing.T, userID, title string) int {
	t.Helper()
	var n int
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND title = $2`, userID, title).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
