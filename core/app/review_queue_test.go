package app_test

import (
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

type queueItem struct {
	ID, Title, Status, Reason string
}

type workQueue struct {
	AwaitingMyReview []queueItem `json:"awaiting_my_review"`
	ChangesRequested []queueItem `json:"changes_requested"`
	Scheduled        []queueItem `json:"scheduled"`
}

func ids(items []queueItem) map[string]bool {
	out := map[string]bool{}
	for _, it := range items {
		out[it.ID] = true
	}
	return out
}

// The review loop: the reviewer's request for changes is on the item itself
// (who, when, what) until the item moves on, and each role's dashboard
// queue lists what waits for them.
func TestReviewLoopQueuesAndOpenRequest(t *testing.T) {
	e := newContentEnv(t)
	queue := func(c bearer) workQueue {
		t.Helper()
		res := c.do("GET", "/api/admin/queue", nil)
		if res.status != http.StatusOK {
			t.Fatalf("queue: %d %s", res.status, res.body)
		}
		var q workQueue
		res.json(t, &q)
		return q
	}
	// The editor writes two items and sends both for review.
	a, b := e.create(t, "Primeira pauta"), e.create(t, "Segunda pauta")
	a, _ = e.act(t, e.editor, a, "submit")
	b, _ = e.act(t, e.editor, b, "submit")
	if q := queue(e.revisor); !ids(q.AwaitingMyReview)[a.ID] || !ids(q.AwaitingMyReview)[b.ID] {
		t.Fatalf("revisor's queue: %+v", q)
	}
	if q := queue(e.editor); len(q.AwaitingMyReview) != 0 {
		t.Errorf("an editor reviews nothing: %+v", q.AwaitingMyReview)
	}
	// Assigned to the super admin, b leaves the revisor's queue.
	if res := e.admin.do("PUT", "/api/admin/content/noticias/"+b.ID+"/reviewer", map[string]any{"reviewer_id": e.admin.id}); res.status != http.StatusOK {
		t.Fatalf("assign: %d %s", res.status, res.body)
	}
	if q := queue(e.revisor); ids(q.AwaitingMyReview)[b.ID] || !ids(queue(e.admin).AwaitingMyReview)[b.ID] {
		t.Errorf("assigned item: revisor %+v", q.AwaitingMyReview)
	}

	// The revisor asks for changes on a: the item page carries the request.
	a, res := e.act(t, e.revisor, a, "request_changes", "reason", "Cite a fonte do estudo no segundo parágrafo.")
	if res.status != http.StatusOK {
		t.Fatalf("request changes: %d %s", res.status, res.body)
	}
	var page struct {
		Status        content.Status
		ChangeRequest *editorial.ChangeRequest `json:"change_request"`
	}
	e.editor.do("GET", "/api/admin/content/noticias/"+a.ID, nil).json(t, &page)
	if page.ChangeRequest == nil || page.ChangeRequest.Reason != "Cite a fonte do estudo no segundo parágrafo." ||
		page.ChangeRequest.ByID != e.revisor.id || page.ChangeRequest.ByName == "" || page.ChangeRequest.At.IsZero() {
		t.Fatalf("open request: %+v", page.ChangeRequest)
	}
	q := queue(e.editor)
	if len(q.ChangesRequested) != 1 || q.ChangesRequested[0].ID != a.ID || q.ChangesRequested[0].Reason != "Cite a fonte do estudo no segundo parágrafo." {
		t.Errorf("editor's changes requested: %+v", q.ChangesRequested)
	}
	if q := queue(e.editor2); len(q.ChangesRequested) != 0 {
		t.Errorf("another editor's queue: %+v", q.ChangesRequested)
	}
	// Sent again, the request is closed.
	a, _ = e.act(t, e.editor, a, "submit")
	page.ChangeRequest = nil
	e.editor.do("GET", "/api/admin/content/noticias/"+a.ID, nil).json(t, &page)
	if page.ChangeRequest != nil || len(queue(e.editor).ChangesRequested) != 0 {
		t.Errorf("after resubmitting: %+v", page.ChangeRequest)
	}
	// Scheduled: the revisor sees every scheduled item, the editor their own.
	a, _ = e.act(t, e.revisor, a, "approve")
	a, res = e.act(t, e.revisor, a, "schedule")
	if res.status != http.StatusOK {
		t.Fatalf("schedule: %d %s", res.status, res.body)
	}
	other := e.to(t, content.StatusScheduled) // written by the editor, moved by the super admin
	if q := queue(e.revisor); !ids(q.Scheduled)[a.ID] || !ids(q.Scheduled)[other.ID] {
		t.Errorf("revisor's scheduled: %+v", q.Scheduled)
	}
	if q := queue(e.editor2); len(q.Scheduled) != 0 {
		t.Errorf("editor2 wrote nothing scheduled: %+v", q.Scheduled)
	}
	if res := e.member.do("GET", "/api/admin/queue", nil); res.status != http.StatusForbidden {
		t.Errorf("a member has no queue: %d", res.status)
	}
}

// Sending for review releases the sender's edit lock, so the reviewer opens
// the item at once; a lock held says by whom.
func TestSubmitReleasesTheEditLock(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Pauta travada")
	base := "/api/admin/content/noticias/" + it.ID
	var mine, seen content.Lock
	e.editor.do("POST", base+"/lock", nil).json(t, &mine)
	e.revisor.do("POST", base+"/lock", nil).json(t, &seen)
	if seen.Mine || seen.HolderName == "" || seen.HolderID != e.editor.id {
		t.Fatalf("the revisor sees who holds the lock: %+v", seen)
	}
	res := e.editor.do("POST", base+"/actions/submit", map[string]any{"version": it.Version}, editorial.LockHeader, mine.Token)
	if res.status != http.StatusOK {
		t.Fatalf("submit: %d %s", res.status, res.body)
	}
	e.revisor.do("POST", base+"/lock", nil).json(t, &seen)
	if !seen.Mine {
		t.Errorf("after submitting, the revisor gets the lock: %+v", seen)
	}
}
