package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/roles"
)

// newsTestType is a content type registered by the tests only: the core
// registers none of its own.
func newsTestType() content.Type {
	return content.Type{
		ID: "noticias", Singular: "Notícia", Plural: "Notícias", Icon: "newspaper", Route: "/noticias-veterinarias",
		Fields: []content.Field{
			{Name: "body", Label: "Texto", Kind: content.KindLongText, Required: true, Searchable: true},
			{Name: "category", Label: "Categoria", Kind: content.KindSelect, Required: true, Listed: true, Filterable: true,
				Options: []content.Option{{Value: "clinica", Label: "Clínica"}, {Value: "cirurgia", Label: "Cirurgia"}}},
		},
		List: content.ListSettings{PageSize: 10},
	}
}

// bearer is a client authenticated with an access token (no cookies).
type bearer struct {
	t     *testing.T
	base  string
	token string
	id    string
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r reply) message() string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	_ = json.Unmarshal(r.body, &e)
	return e.Error.Message
}

func (c bearer) do(method, path string, body any, header ...string) reply {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return reply{status: res.StatusCode, header: res.Header, body: b}
}

type contentEnv struct {
	srv                              *apptest.Server
	visitor, member, editor, revisor bearer
	admin, editor2                   bearer
}

func newContentEnv(t *testing.T) *contentEnv {
	t.Helper()
	return newContentEnvWith(t, nil)
}

func newContentEnvWith(t *testing.T, env map[string]string) *contentEnv {
	t.Helper()
	srv := apptest.Start(t, env)
	if err := srv.App.Content.Registry.Register(newsTestType()); err != nil {
		t.Fatal(err)
	}
	user := func(email string, roles ...string) bearer {
		_, id := srv.SignedIn(t, email, roles...)
		tokens, err := srv.App.Auth.StartVerifiedSession(context.Background(), id, "content-test")
		if err != nil {
			t.Fatal(err)
		}
		return bearer{t: t, base: srv.URL, token: tokens.Access, id: id}
	}
	return &contentEnv{srv: srv, visitor: bearer{t: t, base: srv.URL},
		member: user("leitora@example.com"), editor: user("editora@example.com", "editor"),
		editor2: user("editor2@example.com", "editor"), revisor: user("revisora@example.com", "revisor"),
		admin: user("chefe@example.com", "super_admin")}
}

type adminItem struct {
	content.Item
	Actions []struct{ Action string } `json:"actions"`
}

func (e *contentEnv) create(t *testing.T, title string) adminItem {
	t.Helper()
	res := e.editor.do("POST", "/api/admin/content/noticias", map[string]any{"title": title, "summary": "Resumo",
		"fields": map[string]any{"body": "Texto da notícia " + title, "category": "clinica"}})
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	var it adminItem
	res.json(t, &it)
	return it
}

func (e *contentEnv) act(t *testing.T, c bearer, it adminItem, action string, extra ...any) (adminItem, reply) {
	t.Helper()
	body := map[string]any{"version": it.Version, "reason": "Ajuste o título, por favor.",
		"publish_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	res := c.do("POST", "/api/admin/content/noticias/"+it.ID+"/actions/"+action, body)
	var next adminItem
	if res.status == http.StatusOK {
		res.json(t, &next)
	}
	return next, res
}

// to brings a new item to state through the super admin's actions.
func (e *contentEnv) to(t *testing.T, state content.Status) adminItem {
	t.Helper()
	it := e.create(t, "Item em "+string(state))
	var path []string
	switch state {
	case content.StatusInReview:
		path = []string{"submit"}
	case content.StatusChangesRequested:
		path = []string{"submit", "request_changes"}
	case content.StatusApproved:
		path = []string{"submit", "approve"}
	case content.StatusScheduled:
		path = []string{"submit", "approve", "schedule"}
	case content.StatusPublished:
		path = []string{"submit", "approve", "publish"}
	case content.StatusArchived:
		path = []string{"submit", "approve", "publish", "archive"}
	}
	for _, a := range path {
		next, res := e.act(t, e.admin, it, a)
		if res.status != http.StatusOK {
			t.Fatalf("to %s: %s: %d %s", state, a, res.status, res.body)
		}
		it = next
	}
	if it.Status != state {
		t.Fatalf("to %s: reached %s", state, it.Status)
	}
	return it
}

// TestContentWorkflowTriplesOverHTTP takes every action in every state as
// each workflow role through the API and checks the answer against the
// engine's own decision: 200 with the decided state, 403 for a role that may
// not act, 409 for a state that does not allow it, each with its pt-BR reason.
func TestContentWorkflowTriplesOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	callers := map[editorial.Role]bearer{editorial.RoleEditor: e.editor, editorial.RoleRevisor: e.revisor, editorial.RoleSuperAdmin: e.admin}
	n := 0
	for _, state := range content.Statuses {
		for _, action := range editorial.Actions {
			for role, c := range callers {
				it := e.to(t, state)
				move, decided := editorial.Decide(editorial.Item{Status: it.Status, Published: it.Published}, action, []editorial.Role{role})
				next, res := e.act(t, c, it, string(action))
				n++
				name := fmt.Sprintf("%s/%s/%s", state, action, role)
				if decided != nil {
					want := http.StatusForbidden
					if core.ErrorCode(decided) == core.ECONFLICT {
						want = http.StatusConflict
					}
					if res.status != want || res.message() != core.ErrorMessage(decided) {
						t.Errorf("%s: %d %q, want %d %q", name, res.status, res.message(), want, core.ErrorMessage(decided))
					}
					continue
				}
				if move.Discard {
					// Discarding needs a draft over a published snapshot.
					if res.status != http.StatusConflict || res.message() != content.MsgNoDraft {
						t.Errorf("%s: %d %s", name, res.status, res.body)
					}
					continue
				}
				if res.status != http.StatusOK || next.Status != move.To {
					t.Errorf("%s: %d %s, want %s", name, res.status, res.body, move.To)
				}
			}
		}
	}
	// A reader without a backoffice role is refused by the route policy.
	it := e.to(t, content.StatusInReview)
	if _, res := e.act(t, e.member, it, "approve"); res.status != http.StatusForbidden {
		t.Errorf("member approving: %d", res.status)
	}
	if _, res := e.act(t, e.admin, it, "fly"); res.status != http.StatusNotFound {
		t.Errorf("unknown action: %d", res.status)
	}
	t.Logf("%d (state, action, role) triples over HTTP", n)
}

// TestContentApprovalGateOverHTTP publishes a mixed selection one by one,
// as the backoffice's bulk action does: only the approved items go out.
func TestContentApprovalGateOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	items := []adminItem{e.to(t, content.StatusDraft), e.to(t, content.StatusInReview), e.to(t, content.StatusChangesRequested),
		e.to(t, content.StatusApproved), e.to(t, content.StatusApproved)}
	published := 0
	for _, it := range items {
		_, res := e.act(t, e.revisor, it, "publish")
		switch {
		case it.Status == content.StatusApproved && res.status == http.StatusOK:
			published++
		case it.Status != content.StatusApproved && res.status == http.StatusConflict && res.message() != "":
		default:
			t.Errorf("publish from %s: %d %s", it.Status, res.status, res.body)
		}
	}
	var page content.Page
	e.visitor.do("GET", "/api/content/noticias", nil).json(t, &page)
	if published != 2 || len(page.Items) != 2 {
		t.Errorf("published %d, public list %d", published, len(page.Items))
	}
}

// Bulk publishing passes the same approval gate as one by one: approved
// items publish, the others stay as they were with the reason.
func TestContentBulkPublishOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	items := []adminItem{e.to(t, content.StatusApproved), e.to(t, content.StatusInReview), e.to(t, content.StatusApproved), e.to(t, content.StatusDraft)}
	refs := []map[string]any{}
	for _, it := range items {
		refs = append(refs, map[string]any{"id": it.ID, "version": it.Version})
	}
	refs = append(refs, map[string]any{"id": "00000000-0000-0000-0000-000000000000", "version": 1})
	if res := e.editor.do("POST", "/api/admin/content/noticias/bulk/publish", map[string]any{"items": refs}); res.status != http.StatusOK {
		t.Fatalf("editor bulk: %d %s", res.status, res.body)
	} else {
		var out []editorial.BulkResult
		res.json(t, &out)
		for _, r := range out {
			if r.OK {
				t.Fatalf("an editor published in bulk: %+v", out)
			}
		}
	}
	var out []editorial.BulkResult
	res := e.revisor.do("POST", "/api/admin/content/noticias/bulk/publish", map[string]any{"items": refs})
	if res.json(t, &out); res.status != http.StatusOK || len(out) != 5 {
		t.Fatalf("bulk: %d %s", res.status, res.body)
	}
	for i, r := range out {
		want := i == 0 || i == 2
		if r.OK != want || (want && r.Status != content.StatusPublished) || (!want && r.Error == "") {
			t.Errorf("item %d: %+v", i, r)
		}
	}
	var page content.Page
	e.visitor.do("GET", "/api/content/noticias", nil).json(t, &page)
	if len(page.Items) != 2 {
		t.Errorf("public list after bulk: %d", len(page.Items))
	}
	if res := e.revisor.do("POST", "/api/admin/content/noticias/bulk/schedule", map[string]any{"items": refs}); res.status != http.StatusNotFound {
		t.Errorf("bulk schedule: %d", res.status)
	}
	if res := e.revisor.do("POST", "/api/admin/content/noticias/bulk/publish", map[string]any{"items": []any{}}); res.status != http.StatusUnprocessableEntity {
		t.Errorf("empty bulk: %d", res.status)
	}
}

// The reader's app finds the pages of every registered type, visitors too.
func TestContentTypesForReaders(t *testing.T) {
	e := newContentEnv(t)
	var types []content.Type
	e.visitor.do("GET", "/api/content/types", nil).json(t, &types)
	if len(types) != 1 || types[0].ID != "noticias" || types[0].Route != "/noticias-veterinarias" || len(types[0].Fields) != 2 {
		t.Fatalf("types: %+v", types)
	}
}

// TestContentDraftOverPublishedOverHTTP edits a published item: readers get
// byte-identical JSON until the edit is published again.
func TestContentDraftOverPublishedOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusPublished)
	path := "/api/content/noticias/" + it.Slug
	before := e.visitor.do("GET", path, nil)
	if before.status != http.StatusOK || before.header.Get("Cache-Control") != "public, max-age=30" {
		t.Fatalf("public get: %d %q %s", before.status, before.header.Get("Cache-Control"), before.body)
	}
	if cc := e.member.do("GET", path, nil).header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("signed-in reader's Cache-Control %q", cc)
	}
	res := e.editor.do("PUT", "/api/admin/content/noticias/"+it.ID, map[string]any{"version": it.Version,
		"title": "Título corrigido", "summary": "Resumo", "fields": map[string]any{"body": "Texto novo e revisado", "category": "cirurgia"}})
	if res.status != http.StatusOK {
		t.Fatalf("update: %d %s", res.status, res.body)
	}
	var draft adminItem
	res.json(t, &draft)
	if draft.Status != content.StatusDraft || !draft.Published || !draft.HasDraft {
		t.Fatalf("after edit: %+v", draft.Item)
	}
	if after := e.visitor.do("GET", path, nil); !bytes.Equal(after.body, before.body) {
		t.Errorf("public JSON changed before republish:\n%s\n%s", before.body, after.body)
	}
	// A stale save (the version before the edit) by a co-editor is refused.
	e.share(t, it.ID, e.editor2)
	res = e.editor2.do("PUT", "/api/admin/content/noticias/"+it.ID, map[string]any{"version": it.Version,
		"title": "Outra versão", "fields": map[string]any{"body": "Texto concorrente", "category": "clinica"}})
	if res.status != http.StatusConflict || res.message() != content.MsgStaleVersion {
		t.Errorf("stale save: %d %s", res.status, res.body)
	}
	for _, a := range []string{"submit", "approve", "publish"} {
		var r reply
		if draft, r = e.act(t, e.admin, draft, a); r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", a, r.status, r.body)
		}
	}
	var pub content.PublicItem
	after := e.visitor.do("GET", "/api/content/noticias/"+it.ID, nil)
	if after.json(t, &pub); pub.Title != "Título corrigido" {
		t.Errorf("after republish: %s", after.body)
	}
	// Revisions, diff and restore (as a new revision).
	var revs []content.Revision
	e.editor.do("GET", "/api/admin/content/noticias/"+it.ID+"/revisions", nil).json(t, &revs)
	if len(revs) < 2 {
		t.Fatalf("revisions: %d", len(revs))
	}
	first := revs[len(revs)-1].Revision
	var changes []content.Change
	res = e.editor.do("GET", fmt.Sprintf("/api/admin/content/noticias/%s/revisions/diff?from=%d&to=%d", it.ID, first, revs[0].Revision), nil)
	if res.json(t, &changes); len(changes) == 0 {
		t.Errorf("diff: %s", res.body)
	}
	res = e.editor.do("POST", fmt.Sprintf("/api/admin/content/noticias/%s/revisions/%d/restore", it.ID, first), map[string]any{"version": draft.Version})
	var restored adminItem
	if res.json(t, &restored); res.status != http.StatusOK || restored.Title != "Item em publicado" || restored.Version <= draft.Version {
		t.Errorf("restore: %d %s", res.status, res.body)
	}
	if res := e.editor.do("GET", "/api/admin/content/noticias/"+it.ID+"/revisions/diff?from=x&to=1", nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("bad diff: %d", res.status)
	}
}

// TestContentLockTakeOverOverHTTP: after a take-over the first editor's
// save and heartbeat are refused with 409.
func TestContentLockTakeOverOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Com trava")
	base := "/api/admin/content/noticias/" + it.ID
	var mine, seen, taken content.Lock
	e.share(t, it.ID, e.editor2)
	e.editor.do("POST", base+"/lock", nil).json(t, &mine)
	e.editor2.do("POST", base+"/lock", nil).json(t, &seen)
	if !mine.Mine || mine.Token == "" || seen.Mine || seen.HolderID != e.editor.id || seen.Token != "" {
		t.Fatalf("locks: %+v %+v", mine, seen)
	}
	e.editor2.do("POST", base+"/lock/takeover", nil).json(t, &taken)
	if !taken.Mine || taken.Token == mine.Token {
		t.Fatalf("take-over: %+v", taken)
	}
	res := e.editor.do("PUT", base, map[string]any{"version": it.Version, "title": "Salvo por cima",
		"fields": map[string]any{"body": "Texto de quem perdeu a trava", "category": "clinica"}}, editorial.LockHeader, mine.Token)
	if res.status != http.StatusConflict || res.message() != content.MsgSaveTakenOver {
		t.Errorf("stale holder's save: %d %s", res.status, res.body)
	}
	if res := e.editor.do("POST", base+"/lock/heartbeat", nil, editorial.LockHeader, mine.Token); res.status != http.StatusConflict {
		t.Errorf("stale heartbeat: %d %s", res.status, res.body)
	}
	res = e.editor2.do("PUT", base, map[string]any{"version": it.Version, "title": "Salvo pela nova dona",
		"fields": map[string]any{"body": "Texto de quem tem a trava", "category": "clinica"}}, editorial.LockHeader, taken.Token)
	if res.status != http.StatusOK {
		t.Errorf("holder's save: %d %s", res.status, res.body)
	}
	if res := e.editor2.do("DELETE", base+"/lock", nil, editorial.LockHeader, taken.Token); res.status != http.StatusNoContent {
		t.Errorf("release: %d", res.status)
	}
}

// TestContentPreviewOverHTTP: a preview link shows the working copy to
// anyone holding it, and is refused with 403 once 15 minutes have passed.
func TestContentPreviewOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Rascunho secreto")
	var link struct {
		Token string `json:"token"`
		URL   string `json:"url"`
	}
	e.editor.do("POST", "/api/admin/content/noticias/"+it.ID+"/preview", nil).json(t, &link)
	res := e.visitor.do("GET", link.URL, nil)
	var shown struct {
		Title   string `json:"title"`
		Preview bool   `json:"preview"`
	}
	if res.json(t, &shown); res.status != http.StatusOK || shown.Title != "Rascunho secreto" || !shown.Preview ||
		res.header.Get("X-Robots-Tag") == "" {
		t.Fatalf("preview: %d %s", res.status, res.body)
	}
	if res := e.visitor.do("GET", "/api/content/noticias/"+it.ID, nil); res.status != http.StatusNotFound {
		t.Errorf("draft in the public API: %d", res.status)
	}
	later := time.Now().Add(content.PreviewTTL + time.Second)
	e.srv.App.Content.SetClock(func() time.Time { return later })
	defer e.srv.App.Content.SetClock(time.Now)
	if res := e.visitor.do("GET", link.URL, nil); res.status != http.StatusForbidden || res.message() != content.MsgPreviewExpired {
		t.Errorf("expired preview: %d %s", res.status, res.body)
	}
	if res := e.visitor.do("GET", "/api/preview/forjado.abc", nil); res.status != http.StatusForbidden {
		t.Errorf("forged preview: %d", res.status)
	}
}

// TestContentAuditOverHTTP: transitions and backoffice writes are in the
// global log and the item's timeline; no route changes or deletes them.
func TestContentAuditOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusApproved)
	var events []editorial.Event
	filter := url.QueryEscape(`{"item_id":"` + it.ID + `"}`)
	res := e.revisor.do("GET", "/api/admin/audit?filter="+filter, nil)
	if res.json(t, &events); res.status != http.StatusOK || len(events) != 3 || res.header.Get("Content-Range") != "events 0-2/3" {
		t.Fatalf("audit: %d %q %s", res.status, res.header.Get("Content-Range"), res.body)
	}
	if events[0].Action != "approve" || events[0].From != content.StatusInReview || events[0].To != content.StatusApproved || events[0].ActorID != e.admin.id {
		t.Errorf("newest event: %+v", events[0])
	}
	var timeline []editorial.Event
	if e.editor.do("GET", "/api/admin/content/noticias/"+it.ID+"/timeline", nil).json(t, &timeline); len(timeline) != 3 {
		t.Errorf("timeline: %d", len(timeline))
	}
	for _, m := range []string{"PUT", "DELETE", "POST"} {
		if res := e.admin.do(m, "/api/admin/audit", map[string]any{}); res.status != http.StatusMethodNotAllowed {
			t.Errorf("%s /api/admin/audit: %d", m, res.status)
		}
	}
	if res := e.member.do("GET", "/api/admin/audit", nil); res.status != http.StatusForbidden {
		t.Errorf("member reading the audit log: %d", res.status)
	}
	if res := e.admin.do("GET", "/api/admin/audit?filter="+url.QueryEscape(`{"item_id":"x"}`), nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("bad item filter: %d", res.status)
	}
	if res := e.admin.do("GET", "/api/admin/audit?sort="+url.QueryEscape(`["reason","ASC"]`), nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("sort by an unsortable field: %d", res.status)
	}

	// Every kind of write lands in the log, oldest first when asked: publish,
	// an edit over the published item, discard, restore, unpublish, archive.
	it, _ = e.act(t, e.admin, it, "publish")
	res = e.editor.do("PUT", "/api/admin/content/noticias/"+it.ID, map[string]any{"version": it.Version, "title": "Título revisto",
		"summary": "Resumo", "fields": map[string]any{"body": "Texto revisto", "category": "clinica"}})
	if res.status != http.StatusOK {
		t.Fatalf("edit over published: %d %s", res.status, res.body)
	}
	res.json(t, &it)
	it, _ = e.act(t, e.revisor, it, "discard")
	res = e.editor.do("POST", fmt.Sprintf("/api/admin/content/noticias/%s/revisions/1/restore", it.ID), map[string]any{"version": it.Version})
	if res.status != http.StatusOK {
		t.Fatalf("restore: %d %s", res.status, res.body)
	}
	res.json(t, &it)
	it, _ = e.act(t, e.revisor, it, "unpublish")
	if it, _ = e.act(t, e.revisor, it, "archive"); it.Status != content.StatusArchived {
		t.Fatalf("archive: reached %q", it.Status)
	}
	res = e.admin.do("GET", "/api/admin/audit?sort="+url.QueryEscape(`["created_at","ASC"]`)+"&filter="+filter, nil)
	events = nil
	res.json(t, &events)
	var actions []string
	for _, ev := range events {
		actions = append(actions, ev.Action)
	}
	want := []string{"create", "submit", "approve", "publish", "update", "discard", "restore", "unpublish", "archive"}
	if !slices.Equal(actions, want) {
		t.Errorf("audit actions oldest first: %v, want %v", actions, want)
	}
	if last := events[len(events)-1]; last.From == "" || last.To != content.StatusArchived || last.ActorID != e.revisor.id {
		t.Errorf("archive event: %+v", last)
	}
}

// TestContentEngagementOverHTTP: signed-in only, idempotent, counters
// exact, and the reader's flags in the public list.
func TestContentEngagementOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusPublished)
	base := "/api/content/noticias/" + it.ID
	var sum struct {
		Favorites, Likes, Dislikes, Views, Enrolments int64
		Favorited                                     bool
		Reaction                                      string
		Enrolled                                      bool
	}
	step := func(method, path string, body any) {
		t.Helper()
		res := e.member.do(method, base+path, body)
		if res.status != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, res.status, res.body)
		}
		res.json(t, &sum)
	}
	step("PUT", "/favorite", nil)
	step("PUT", "/favorite", nil)
	if sum.Favorites != 1 || !sum.Favorited {
		t.Errorf("favorite twice: %+v", sum)
	}
	step("PUT", "/reaction", map[string]any{"value": "like"})
	step("PUT", "/reaction", map[string]any{"value": "dislike"})
	if sum.Likes != 0 || sum.Dislikes != 1 || sum.Reaction != "dislike" {
		t.Errorf("like then dislike: %+v", sum)
	}
	step("PUT", "/reaction", map[string]any{"value": nil})
	if sum.Dislikes != 0 || sum.Reaction != "" {
		t.Errorf("reaction removed: %+v", sum)
	}
	step("POST", "/view", nil)
	step("POST", "/view", nil)
	if sum.Views != 1 {
		t.Errorf("views: %+v", sum)
	}
	step("PUT", "/enrolment", nil)
	step("PUT", "/progress", map[string]any{"percent": 40})
	if sum.Enrolments != 1 || !sum.Enrolled {
		t.Errorf("enrolment: %+v", sum)
	}
	var page content.Page
	e.member.do("GET", "/api/content/noticias?favorites=1", nil).json(t, &page)
	if len(page.Items) != 1 || !page.Items[0].Engagement.Favorited || page.Items[0].Engagement.Favorites != 1 {
		t.Errorf("reader's list: %+v", page)
	}
	step("DELETE", "/favorite", nil)
	step("DELETE", "/favorite", nil)
	step("DELETE", "/enrolment", nil)
	if sum.Favorites != 0 || sum.Enrolments != 0 {
		t.Errorf("after removing: %+v", sum)
	}
	if res := e.member.do("PUT", base+"/reaction", map[string]any{"value": "love"}); res.status != http.StatusUnprocessableEntity || res.message() == "" {
		t.Errorf("bad reaction: %d %s", res.status, res.body)
	}
	if res := e.visitor.do("PUT", base+"/favorite", nil); res.status != http.StatusUnauthorized {
		t.Errorf("visitor favorite: %d", res.status)
	}
	draft := e.create(t, "Não publicado")
	if res := e.member.do("PUT", "/api/content/noticias/"+draft.ID+"/favorite", nil); res.status != http.StatusNotFound {
		t.Errorf("favorite on a draft: %d", res.status)
	}
	if res := e.member.do("PUT", "/api/content/outro/"+it.ID+"/favorite", nil); res.status != http.StatusNotFound {
		t.Errorf("favorite under an unknown type: %d", res.status)
	}
}

// TestContentBackofficeListsOverHTTP: types, the admin list with
// Content-Range and filters, and the agenda with its overdue list.
func TestContentBackofficeListsOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	var types []content.Type
	if e.editor.do("GET", "/api/admin/content/types", nil).json(t, &types); len(types) != 1 || types[0].ID != "noticias" {
		t.Errorf("types: %+v", types)
	}
	e.to(t, content.StatusDraft)
	e.to(t, content.StatusInReview)
	scheduled := e.to(t, content.StatusScheduled)
	q := "?range=" + url.QueryEscape("[0,9]") + "&sort=" + url.QueryEscape(`["title","ASC"]`) + "&filter=" + url.QueryEscape(`{"status":["em_revisao","agendado"]}`)
	res := e.revisor.do("GET", "/api/admin/content/noticias"+q, nil)
	var items []adminItem
	if res.json(t, &items); res.status != http.StatusOK || len(items) != 2 || res.header.Get("Content-Range") != "noticias 0-1/2" {
		t.Errorf("admin list: %d %q %s", res.status, res.header.Get("Content-Range"), res.body)
	}
	if res := e.revisor.do("GET", "/api/admin/content/noticias?filter="+url.QueryEscape(`{"status":["voando"]}`), nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown status filter: %d", res.status)
	}
	if res := e.revisor.do("GET", "/api/admin/content/outro", nil); res.status != http.StatusNotFound {
		t.Errorf("unknown type: %d", res.status)
	}
	var agenda struct{ Publish, Overdue []content.Item }
	e.revisor.do("GET", "/api/admin/agenda", nil).json(t, &agenda)
	if len(agenda.Publish) != 1 || agenda.Publish[0].ID != scheduled.ID || len(agenda.Overdue) != 0 {
		t.Errorf("agenda: %+v", agenda)
	}
	late := scheduled.PublishAt.Add(editorial.OverdueAfter + time.Minute)
	e.srv.App.Content.SetClock(func() time.Time { return late })
	defer e.srv.App.Content.SetClock(time.Now)
	e.revisor.do("GET", "/api/admin/agenda", nil).json(t, &agenda)
	if len(agenda.Overdue) != 1 || agenda.Overdue[0].ID != scheduled.ID {
		t.Errorf("overdue: %+v", agenda.Overdue)
	}
	if res := e.revisor.do("GET", "/api/admin/agenda?from=ontem", nil); res.status != http.StatusUnprocessableEntity {
		t.Errorf("bad from: %d", res.status)
	}
}

// TestContentHostileInput sends hostile path and query values to the content
// routes of a REGISTERED type (the generic walk of core/httpapi only reaches
// an unknown type): every answer is a 4xx in the error shape or a success,
// never a 5xx.
func TestContentHostileInput(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusPublished)
	hostile := []string{"..%2F..%2Fetc%2Fpasswd", "%00", "a%00b", "%ff%fe", "-1", "0", "99999999999999999999999",
		"00000000-0000-0000-0000-000000000000", "%27%20OR%201=1--", "%25", "%20", "x.y", it.Slug}
	queries := []string{"limit=-1", "limit=101", "limit=1e3", "offset=9999999999", "cursor=%00", "cursor=abc", "sort=-nada",
		"sort=relevance", "q=%00", "q=" + url.QueryEscape(`"a" -b or`), "favorites=2", "favorites=1", "f.nada=1", "f.category.foo=1",
		"f.category=%ff", "range=" + url.QueryEscape("[5,1]"), "filter=" + url.QueryEscape(`{"nada":1}`), "from=1&to=1",
		"from=" + url.QueryEscape("2026-01-02T00:00:00Z") + "&to=" + url.QueryEscape("2026-01-01T00:00:00Z"), "before=-4", "from=0&to=0"}
	routes := []struct{ method, path string }{
		{"GET", "/api/content/noticias"}, {"GET", "/api/content/noticias/{id}"}, {"PUT", "/api/content/noticias/{id}/favorite"},
		{"PUT", "/api/content/noticias/{id}/reaction"}, {"PUT", "/api/content/noticias/{id}/progress"}, {"POST", "/api/content/noticias/{id}/view"},
		{"GET", "/api/preview/{id}"}, {"GET", "/api/admin/content/noticias"}, {"GET", "/api/admin/content/noticias/{id}"},
		{"PUT", "/api/admin/content/noticias/{id}"}, {"POST", "/api/admin/content/noticias/{id}/actions/{id}"},
		{"POST", "/api/admin/content/noticias/" + it.ID + "/actions/{id}"}, {"GET", "/api/admin/content/noticias/{id}/revisions"},
		{"GET", "/api/admin/content/noticias/{id}/revisions/diff"}, {"POST", "/api/admin/content/noticias/" + it.ID + "/revisions/{id}/restore"},
		{"GET", "/api/admin/content/noticias/{id}/timeline"}, {"POST", "/api/admin/content/noticias/{id}/lock"},
		{"POST", "/api/admin/content/noticias/" + it.ID + "/lock/heartbeat"}, {"DELETE", "/api/admin/content/noticias/" + it.ID + "/lock"},
		{"POST", "/api/admin/content/noticias/{id}/preview"}, {"GET", "/api/admin/agenda"}, {"GET", "/api/admin/audit"},
		{"PUT", "/api/admin/content/noticias/{id}/reviewer"}, {"GET", "/api/admin/content/noticias/{id}/comments"},
		{"POST", "/api/admin/content/noticias/{id}/comments"}, {"PUT", "/api/admin/content/noticias/{id}/unpublish_at"},
		{"PUT", "/api/admin/content/noticias/" + it.ID + "/unpublish_at"}, {"PUT", "/api/admin/content/noticias/" + it.ID + "/reviewer"},
	}
	bodies := []any{nil, map[string]any{"version": -1, "value": "x", "percent": 1e308, "title": "\u0000", "reviewer_id": "x", "body": "\u0000"},
		map[string]any{"version": it.Version, "publish_at": "9999-99-99"}, map[string]any{"version": 1 << 40}}
	for _, c := range []bearer{e.visitor, e.member, e.admin} {
		for _, r := range routes {
			// Each hostile value and each hostile query appear at least once
			// per route and caller, paired in turn.
			for i := range max(len(hostile), len(queries)) {
				h, q := hostile[i%len(hostile)], queries[i%len(queries)]
				path := strings.ReplaceAll(r.path, "{id}", h) + "?" + q
				res := c.do(r.method, path, bodies[i%len(bodies)], editorial.LockHeader, h)
				if res.status >= 500 {
					t.Fatalf("%s %s: %d %s", r.method, path, res.status, res.body)
				}
				if res.status >= 400 && res.message() == "" {
					t.Errorf("%s %s: %d without a message: %s", r.method, path, res.status, res.body)
				}
			}
		}
	}
}

// TestContentReviewOverHTTP: a reviewer is assigned and told on submit, the
// author is told when changes are requested, review comments are kept per
// revision, and an unpublish moment is set and cancelled by a revisor only.
func TestContentReviewOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Para revisar")
	base := "/api/admin/content/noticias/" + it.ID
	if res := e.editor.do("PUT", base+"/reviewer", map[string]any{"reviewer_id": e.editor2.id}); res.status != http.StatusUnprocessableEntity || res.message() == "" {
		t.Errorf("assigning an editor as reviewer: %d %s", res.status, res.body)
	}
	if res := e.editor.do("PUT", base+"/reviewer", map[string]any{"reviewer_id": e.revisor.id}); res.status != http.StatusOK {
		t.Fatalf("assign: %d %s", res.status, res.body)
	}
	it, res := e.act(t, e.editor, it, "submit")
	if res.status != http.StatusOK {
		t.Fatalf("submit: %d %s", res.status, res.body)
	}
	type notes struct {
		Notifications []struct{ Type, Message string } `json:"notifications"`
	}
	var n notes
	e.revisor.do("GET", "/api/notifications", nil).json(t, &n)
	if len(n.Notifications) != 1 || n.Notifications[0].Type != "editorial.submitted" {
		t.Errorf("reviewer's notifications: %+v", n)
	}
	if res := e.revisor.do("POST", base+"/comments", map[string]any{"body": "O segundo parágrafo precisa de fonte."}); res.status != http.StatusCreated {
		t.Fatalf("comment: %d %s", res.status, res.body)
	}
	if res := e.revisor.do("POST", base+"/comments", map[string]any{"body": "   "}); res.status != http.StatusUnprocessableEntity || res.message() == "" {
		t.Errorf("empty comment: %d %s", res.status, res.body)
	}
	var comments []editorial.Comment
	e.editor.do("GET", fmt.Sprintf("%s/comments?revision=%d", base, it.Version), nil).json(t, &comments)
	if len(comments) != 1 || comments[0].AuthorID != e.revisor.id {
		t.Errorf("comments: %+v", comments)
	}
	if it, res = e.act(t, e.revisor, it, "request_changes", "reason", "Inclua a fonte."); res.status != http.StatusOK {
		t.Fatalf("request changes: %d %s", res.status, res.body)
	}
	e.editor.do("GET", "/api/notifications", nil).json(t, &n)
	if len(n.Notifications) != 1 || n.Notifications[0].Type != "editorial.changes_requested" || !strings.Contains(n.Notifications[0].Message, "Inclua a fonte.") {
		t.Errorf("author's notifications: %+v", n)
	}

	pub := e.to(t, content.StatusPublished)
	at := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	path := "/api/admin/content/noticias/" + pub.ID + "/unpublish_at"
	if res := e.editor.do("PUT", path, map[string]any{"version": pub.Version, "unpublish_at": at}); res.status != http.StatusForbidden {
		t.Errorf("editor scheduling unpublish: %d %s", res.status, res.body)
	}
	res = e.revisor.do("PUT", path, map[string]any{"version": pub.Version, "unpublish_at": at})
	var got adminItem
	if res.json(t, &got); res.status != http.StatusOK || got.UnpublishAt == nil || !got.UnpublishAt.Equal(at) {
		t.Fatalf("unpublish at: %d %s", res.status, res.body)
	}
	res = e.revisor.do("PUT", path, map[string]any{"version": got.Version, "unpublish_at": nil})
	got = adminItem{}
	if res.json(t, &got); res.status != http.StatusOK || got.UnpublishAt != nil {
		t.Errorf("cancel unpublish: %d %s", res.status, res.body)
	}
	if res := e.revisor.do("PUT", path, map[string]any{"version": got.Version, "unpublish_at": time.Now().Add(-time.Hour)}); res.status != http.StatusUnprocessableEntity {
		t.Errorf("unpublish in the past: %d", res.status)
	}
}

// share makes who a co-editor of the item, as its author.
func (e *contentEnv) share(t *testing.T, id string, who bearer) {
	t.Helper()
	if res := e.editor.do("PUT", "/api/admin/content/noticias/"+id+"/editors/"+who.id, nil); res.status != http.StatusOK {
		t.Fatalf("share: %d %s", res.status, res.body)
	}
}

// An editor sees and edits only own and shared items; revisors see all;
// only the author (or a revisor or super admin) shares; sharing is audited.
func TestContentEditorsSeeOwnAndSharedOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Pauta da editora")
	base := "/api/admin/content/noticias/" + it.ID
	count := func(c bearer) int {
		var list []adminItem
		c.do("GET", "/api/admin/content/noticias", nil).json(t, &list)
		return len(list)
	}
	if res := e.editor2.do("GET", base, nil); res.status != http.StatusNotFound || count(e.editor2) != 0 {
		t.Fatalf("another editor reaches the item: %d, list %d", res.status, count(e.editor2))
	}
	if count(e.revisor) != 1 || count(e.admin) != 1 || count(e.editor) != 1 {
		t.Fatalf("lists: revisor %d, admin %d, author %d", count(e.revisor), count(e.admin), count(e.editor))
	}
	e.share(t, it.ID, e.editor2)
	e.share(t, it.ID, e.editor2) // idempotent
	var editors []content.CoEditor
	e.editor.do("GET", base+"/editors", nil).json(t, &editors)
	if len(editors) != 1 || editors[0].UserID != e.editor2.id {
		t.Fatalf("co-editors: %+v", editors)
	}
	if res := e.editor2.do("GET", base, nil); res.status != http.StatusOK || count(e.editor2) != 1 {
		t.Fatalf("co-editor: %d, list %d", res.status, count(e.editor2))
	}
	if res := e.editor2.do("PUT", base+"/editors/"+e.member.id, nil); res.status != http.StatusForbidden || res.message() != editorial.MsgShareNotAllowed {
		t.Fatalf("a co-editor shared further: %d %s", res.status, res.body)
	}
	if res := e.editor.do("PUT", base+"/editors/"+e.editor.id, nil); res.status != http.StatusUnprocessableEntity {
		t.Fatalf("shared with its own author: %d %s", res.status, res.body)
	}
	if res := e.editor.do("DELETE", base+"/editors/"+e.editor2.id, nil); res.status != http.StatusOK {
		t.Fatalf("unshare: %d %s", res.status, res.body)
	}
	if res := e.editor2.do("GET", base, nil); res.status != http.StatusNotFound {
		t.Fatalf("after unshare: %d", res.status)
	}
	var events []struct{ Action string }
	e.revisor.do("GET", base+"/timeline", nil).json(t, &events)
	shares := 0
	for _, ev := range events {
		if ev.Action == "share" || ev.Action == "unshare" {
			shares++
		}
	}
	if shares != 2 {
		t.Fatalf("audit events for sharing: %d in %+v", shares, events)
	}
}

// The backoffice chooses a reviewer from the editorial team and shows who it is.
func TestContentReviewerAssignmentOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Com revisor")
	var team []roles.Member
	e.editor.do("GET", "/api/admin/team", nil).json(t, &team)
	found := false
	for _, m := range team {
		if m.ID == e.member.id {
			t.Fatalf("a reader is listed in the team: %+v", m)
		}
		found = found || (m.ID == e.revisor.id && slices.Contains(m.Roles, "revisor"))
	}
	if !found {
		t.Fatalf("the reviewer is not in the team: %+v", team)
	}
	base := "/api/admin/content/noticias/" + it.ID + "/reviewer"
	var got struct {
		ReviewerID string `json:"reviewer_id"`
	}
	e.editor.do("GET", base, nil).json(t, &got)
	if got.ReviewerID != "" {
		t.Fatalf("reviewer before any assignment: %q", got.ReviewerID)
	}
	if res := e.editor.do("PUT", base, map[string]any{"reviewer_id": e.revisor.id}); res.status != http.StatusOK {
		t.Fatalf("assign: %d %s", res.status, res.body)
	}
	e.editor.do("GET", base, nil).json(t, &got)
	if got.ReviewerID != e.revisor.id {
		t.Fatalf("reviewer %q, want %q", got.ReviewerID, e.revisor.id)
	}
	if res := e.member.do("GET", "/api/admin/team", nil); res.status != http.StatusForbidden {
		t.Fatalf("a reader sees the team: %d", res.status)
	}
}

// A co-editor is a member of the editorial team: a member's (or an
// unknown) id is refused alike, and the answers carry names, never e-mails.
func TestContentCoEditorsAreStaffAndNamedOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.create(t, "Pauta compartilhada")
	base := "/api/admin/content/noticias/" + it.ID
	for _, id := range []string{e.member.id, "00000000-0000-4000-8000-000000000000"} {
		res := e.editor.do("PUT", base+"/editors/"+id, nil)
		if res.status != http.StatusNotFound || res.message() != editorial.MsgShareNotStaff || strings.Contains(string(res.body), "@") {
			t.Errorf("shared with a non-staff id %s: %d %s", id, res.status, res.body)
		}
	}
	if _, err := e.srv.App.Pool.Exec(context.Background(), `INSERT INTO profiles (user_id, first_name, last_name) VALUES ($1, 'Edna', 'Souza')
		ON CONFLICT (user_id) DO UPDATE SET first_name = 'Edna', last_name = 'Souza'`, e.revisor.id); err != nil {
		t.Fatal(err)
	}
	for _, c := range []bearer{e.editor2, e.revisor} {
		res := e.editor.do("PUT", base+"/editors/"+c.id, nil)
		if res.status != http.StatusOK {
			t.Fatalf("share with staff: %d %s", res.status, res.body)
		}
		if strings.Contains(string(res.body), "@") || strings.Contains(string(res.body), "email") {
			t.Errorf("share answer names an e-mail: %s", res.body)
		}
	}
	res := e.editor.do("GET", base+"/editors", nil)
	var editors []map[string]any
	res.json(t, &editors)
	if len(editors) != 2 || strings.Contains(string(res.body), "@") {
		t.Fatalf("co-editors: %s", res.body)
	}
	if editors[1]["user_id"] != e.revisor.id || editors[1]["name"] != "Edna Souza" {
		t.Errorf("co-editor by name: %+v", editors[1])
	}
	if _, ok := editors[0]["email"]; ok {
		t.Errorf("co-editor carries an email field: %+v", editors[0])
	}
}

// The agenda and the audit log follow the lists' rule: an editor sees only
// the items they wrote or had shared with them (and their events); staff
// IPs are for super admins only.
func TestContentAgendaAndAuditFollowVisibilityOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusScheduled) // written by e.editor
	type agenda struct{ Publish, Unpublish, Overdue []content.Item }
	seen := func(c bearer) (int, int) {
		var a agenda
		if res := c.do("GET", "/api/admin/agenda", nil); res.status != http.StatusOK {
			t.Fatalf("agenda: %d %s", res.status, res.body)
		} else {
			res.json(t, &a)
		}
		var events []editorial.Event
		if res := c.do("GET", "/api/admin/audit", nil); res.status != http.StatusOK {
			t.Fatalf("audit: %d %s", res.status, res.body)
		} else {
			res.json(t, &events)
		}
		n := 0
		for _, ev := range events {
			if ev.ItemID == it.ID {
				n++
			}
		}
		return len(a.Publish), n
	}
	if agendaN, auditN := seen(e.editor2); agendaN != 0 || auditN != 0 {
		t.Fatalf("another editor sees the item: agenda %d, audit %d events", agendaN, auditN)
	}
	filter := url.QueryEscape(`{"item_id":"` + it.ID + `"}`)
	var events []editorial.Event
	e.editor2.do("GET", "/api/admin/audit?filter="+filter, nil).json(t, &events)
	if len(events) != 0 {
		t.Fatalf("another editor reads the item's events by id: %d", len(events))
	}
	if agendaN, auditN := seen(e.editor); agendaN != 1 || auditN != 4 {
		t.Fatalf("the author: agenda %d, audit %d events", agendaN, auditN)
	}
	if agendaN, auditN := seen(e.revisor); agendaN != 1 || auditN != 4 {
		t.Fatalf("a revisor: agenda %d, audit %d events", agendaN, auditN)
	}
	e.share(t, it.ID, e.editor2)
	if agendaN, auditN := seen(e.editor2); agendaN != 1 || auditN != 5 {
		t.Fatalf("a co-editor: agenda %d, audit %d events", agendaN, auditN)
	}

	ips := func(c bearer, path string) int {
		var events []editorial.Event
		c.do("GET", path, nil).json(t, &events)
		n := 0
		for _, ev := range events {
			if ev.IP != "" {
				n++
			}
		}
		return n
	}
	timeline := "/api/admin/content/noticias/" + it.ID + "/timeline"
	if n := ips(e.admin, "/api/admin/audit?filter="+filter); n == 0 {
		t.Fatal("a super admin sees no IPs (the test would prove nothing)")
	}
	for name, c := range map[string]bearer{"editor": e.editor, "revisor": e.revisor} {
		if n := ips(c, "/api/admin/audit?filter="+filter) + ips(c, timeline); n != 0 {
			t.Errorf("%s sees %d staff IPs", name, n)
		}
	}
}

// A member's community post is written through /api/community only: the
// backoffice's generic writes (edit, workflow actions, archive, bulk,
// restore, create) refuse the type, whoever asks, and change nothing.
func TestContentMembersPostsRefuseBackofficeWritesOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	if _, ok := e.srv.App.Content.Registry.Get("posts"); !ok {
		// The comunidade plugin's declaration, without starting the plugin.
		if err := e.srv.App.Content.Registry.Register(content.Type{ID: "posts", Singular: "Publicação", Plural: "Publicações",
			Workflow: content.WorkflowPublishOnCreate, Fields: []content.Field{
				{Name: "content", Label: "Texto", Kind: content.KindLongText, Searchable: true},
				{Name: "media", Label: "Imagens", Kind: content.KindTags}}}); err != nil {
			t.Fatal(err)
		}
	}
	res := e.member.do("POST", "/api/community/posts", map[string]any{"content": "Caso clínico de um membro"})
	if res.status != http.StatusCreated {
		t.Fatalf("member post: %d %s", res.status, res.body)
	}
	var post struct {
		ID string `json:"id"`
	}
	res.json(t, &post)
	base := "/api/admin/content/posts/" + post.ID
	var before adminItem
	if res := e.revisor.do("GET", base, nil); res.status != http.StatusOK {
		t.Fatalf("a revisor reads the post: %d %s", res.status, res.body)
	} else {
		res.json(t, &before)
	}
	body := map[string]any{"version": before.Version, "title": "Reescrito", "summary": "", "fields": map[string]any{}, "reason": "x",
		"items": []map[string]any{{"id": post.ID, "version": before.Version}}, "reviewer_id": e.revisor.id, "body": "Comentário"}
	writes := []struct{ method, path string }{
		{"PUT", base}, {"POST", base + "/actions/archive"}, {"POST", base + "/actions/unpublish"}, {"POST", base + "/actions/submit"},
		{"POST", "/api/admin/content/posts/bulk/archive"}, {"POST", base + "/revisions/1/restore"}, {"POST", "/api/admin/content/posts"},
		{"PUT", base + "/unpublish_at"}, {"PUT", base + "/editors/" + e.editor2.id}, {"POST", base + "/lock"},
	}
	for _, c := range []bearer{e.revisor, e.admin, e.editor} {
		for _, w := range writes {
			res := c.do(w.method, w.path, body)
			if res.status != http.StatusForbidden || res.message() != editorial.MsgMembersWrite {
				t.Errorf("%s %s: %d %s", w.method, w.path, res.status, res.body)
			}
		}
	}
	var after adminItem
	e.admin.do("GET", base, nil).json(t, &after)
	if after.Version != before.Version || after.Title != before.Title || after.Status != before.Status {
		t.Errorf("the post changed: %+v, was %+v", after.Item, before.Item)
	}
}

// A workflow action must say which version it acts on: without it the
// staleness check cannot run, so it is refused and nothing moves.
func TestContentActionsRequireVersionOverHTTP(t *testing.T) {
	e := newContentEnv(t)
	it := e.to(t, content.StatusApproved)
	for _, body := range []map[string]any{{}, {"version": 0}, {"version": -1}} {
		res := e.admin.do("POST", "/api/admin/content/noticias/"+it.ID+"/actions/publish", body)
		if res.status != http.StatusUnprocessableEntity || res.message() != content.MsgVersionRequired {
			t.Errorf("publish with %v: %d %s", body, res.status, res.body)
		}
	}
	res := e.admin.do("POST", "/api/admin/content/noticias/bulk/publish", map[string]any{"items": []map[string]any{{"id": it.ID}}})
	var results []editorial.BulkResult
	res.json(t, &results)
	if len(results) != 1 || results[0].OK || results[0].Error != content.MsgVersionRequired {
		t.Errorf("bulk without a version: %d %s", res.status, res.body)
	}
	var now adminItem
	e.admin.do("GET", "/api/admin/content/noticias/"+it.ID, nil).json(t, &now)
	if now.Status != content.StatusApproved || now.Version != it.Version {
		t.Errorf("the item moved: %s v%d", now.Status, now.Version)
	}
}
