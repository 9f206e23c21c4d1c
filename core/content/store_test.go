package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

type fixture struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	store *content.Store
	clock *atomic.Int64 // unix nanoseconds
	user  string
}

func (f *fixture) now() time.Time { return time.Unix(0, f.clock.Load()).UTC() }

func (f *fixture) advance(d time.Duration) { f.clock.Add(int64(d)) }

func newFixture(t *testing.T, types ...content.Type) *fixture {
	t.Helper()
	if len(types) == 0 {
		types = []content.Type{newsType()}
	}
	f := &fixture{ctx: context.Background(), pool: pgtest.New(t), clock: &atomic.Int64{}}
	f.clock.Store(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixNano())
	f.store = content.New(f.pool, registered(t, types...), content.Options{Now: f.now})
	f.user = newUser(t, f.pool)
	return f
}

func newUser(t testing.TB, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("u%d@example.com", rand.Int64())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *fixture) editor() content.Actor {
	return content.Actor{UserID: f.user, Channel: content.ChannelBackoffice}
}

func newsInput(title string) content.Input {
	return content.Input{Title: title, Summary: "Resumo de " + title, Fields: map[string]any{
		"body": "Corpo da notícia " + title + ", com texto suficiente.", "category": "clinica", "tags": []any{"geral"},
	}}
}

func (f *fixture) create(t *testing.T, in content.Input) content.Item {
	t.Helper()
	it, created, err := f.store.Create(f.ctx, f.editor(), "noticias", in, "")
	if err != nil || !created {
		t.Fatalf("create %q: created=%v err=%v", in.Title, created, err)
	}
	return it
}

func (f *fixture) publish(t *testing.T, it content.Item) content.Item {
	t.Helper()
	p, err := f.store.Publish(f.ctx, f.editor(), it.ID, it.Version)
	if err != nil {
		t.Fatalf("publish %s: %v", it.Title, err)
	}
	return p
}

func code(err error) string {
	if err == nil {
		return "nil"
	}
	return core.ErrorCode(err)
}

func publicJSON(t *testing.T, f *fixture, id string) string {
	t.Helper()
	p, err := f.store.GetPublished(f.ctx, "noticias", id, "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	return string(b)
}

func TestDraftOverPublishedKeepsThePublicSnapshot(t *testing.T) {
	f := newFixture(t)
	it := f.create(t, newsInput("Cirurgia em cães idosos"))
	if it.Status != content.StatusDraft || it.Version != 1 || it.Published || it.Slug != "cirurgia-em-caes-idosos" {
		t.Fatalf("new item: %+v", it)
	}
	if _, err := f.store.GetPublished(f.ctx, "noticias", it.ID, ""); code(err) != core.ENOTFOUND {
		t.Fatalf("a draft is visible to readers: %v", err)
	}
	f.advance(time.Minute)
	it = f.publish(t, it)
	if !it.Published || it.HasDraft || it.Status != content.StatusPublished || it.Version != 2 {
		t.Fatalf("published item: %+v", it)
	}
	before := publicJSON(t, f, it.ID)

	f.advance(time.Minute)
	edited := newsInput("Cirurgia em cães idosos: novos dados")
	edited.Fields["category"] = "cirurgia"
	it, err := f.store.Update(f.ctx, f.editor(), it.ID, it.Version, edited)
	if err != nil {
		t.Fatal(err)
	}
	if !it.HasDraft || !it.Published || it.Status != content.StatusDraft || it.Title != edited.Title || it.Slug != "cirurgia-em-caes-idosos" {
		t.Fatalf("edited item: %+v", it)
	}
	if after := publicJSON(t, f, it.ID); after != before {
		t.Fatalf("readers see the draft:\nbefore %s\nafter  %s", before, after)
	}
	if bySlug := publicJSON(t, f, "cirurgia-em-caes-idosos"); bySlug != before {
		t.Fatalf("detail by slug differs: %s", bySlug)
	}
	page, err := f.store.List(f.ctx, content.ListQuery{Type: "noticias"})
	if err != nil || len(page.Items) != 1 || page.Items[0].Title != "Cirurgia em cães idosos" {
		t.Fatalf("list shows the draft: %+v err=%v", page, err)
	}

	// Discarding goes back to the public snapshot, as a new revision.
	it, err = f.store.DiscardDraft(f.ctx, f.editor(), it.ID, it.Version)
	if err != nil || it.HasDraft || it.Title != "Cirurgia em cães idosos" || it.Version != 4 || it.Status != content.StatusPublished {
		t.Fatalf("discard: %+v err=%v", it, err)
	}
	if _, err := f.store.DiscardDraft(f.ctx, f.editor(), it.ID, it.Version); code(err) != core.ECONFLICT {
		t.Fatalf("discard without a draft: %v", err)
	}
	if after := publicJSON(t, f, it.ID); after != before {
		t.Fatalf("discard changed the public snapshot")
	}

	// Republishing shows the new version; the first publication date stays.
	it, err = f.store.Update(f.ctx, f.editor(), it.ID, it.Version, edited)
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Hour)
	it = f.publish(t, it)
	pub, err := f.store.GetPublished(f.ctx, "noticias", it.ID, "")
	if err != nil || pub.Title != edited.Title || !pub.UpdatedAt.Equal(f.now()) || !pub.PublishedAt.Equal(f.now().Add(-time.Hour-time.Minute)) {
		t.Fatalf("republished: %+v err=%v", pub, err)
	}
	var fields map[string]any
	if err := json.Unmarshal(pub.Fields, &fields); err != nil || fields["category"] != "cirurgia" {
		t.Fatalf("republished fields: %s", pub.Fields)
	}

	// Unpublishing hides it from readers at once.
	it, err = f.store.Transition(f.ctx, f.editor(), content.Transition{ID: it.ID, Version: it.Version, To: content.StatusArchived, Effect: content.EffectUnpublish})
	if err != nil || it.Published || it.Status != content.StatusArchived {
		t.Fatalf("archive: %+v err=%v", it, err)
	}
	if _, err := f.store.GetPublished(f.ctx, "noticias", it.ID, ""); code(err) != core.ENOTFOUND {
		t.Fatalf("archived item still public: %v", err)
	}
}

func TestStaleSaveConflictsAndTransitionsCheckTheState(t *testing.T) {
	f := newFixture(t)
	it := f.create(t, newsInput("Vacinação de gatos"))
	if _, err := f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Vacinação de gatos 2")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Vacinação de gatos 3")); code(err) != core.ECONFLICT ||
		core.ErrorMessage(err) != content.MsgStaleVersion {
		t.Fatalf("stale save: %v", err)
	}
	if _, err := f.store.Update(f.ctx, f.editor(), "not-a-uuid", 1, newsInput("x")); code(err) != core.ENOTFOUND {
		t.Fatalf("bad id: %v", err)
	}
	cur, _ := f.store.Get(f.ctx, it.ID)
	_, err := f.store.Transition(f.ctx, f.editor(), content.Transition{ID: it.ID, Version: cur.Version,
		From: []content.Status{content.StatusApproved}, To: content.StatusPublished, Effect: content.EffectPublish})
	if code(err) != core.ECONFLICT || core.ErrorMessage(err) != "Este conteúdo está em “Rascunho” e não pode passar para “Publicado”." {
		t.Fatalf("publish from draft with approval required: %v", err)
	}

	// Concurrent saves from the same version: exactly one wins.
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.store.Update(f.ctx, f.editor(), it.ID, cur.Version, newsInput(fmt.Sprintf("Versão %d", i)))
			switch code(err) {
			case "nil":
				wins.Add(1)
			case core.ECONFLICT:
				conflicts.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != 7 {
		t.Fatalf("wins=%d conflicts=%d", wins.Load(), conflicts.Load())
	}

	// Field errors come back per field; a taken slug is a field error too.
	bad := newsInput("Outra")
	bad.Slug = cur.Slug
	delete(bad.Fields, "category")
	_, _, err = f.store.Create(f.ctx, f.editor(), "noticias", bad, "")
	var e *core.Error
	if code(err) != core.EINVALID || !asError(err, &e) || e.Fields["category"] != "Escolha uma opção no campo Categoria." {
		t.Fatalf("invalid create: %v", err)
	}
	bad.Fields["category"] = "mercado"
	_, _, err = f.store.Create(f.ctx, f.editor(), "noticias", bad, "")
	if !asError(err, &e) || e.Fields["slug"] != content.MsgSlugTaken {
		t.Fatalf("taken slug: %v", err)
	}
	// Two items with the same title get distinct slugs.
	a := f.create(t, newsInput("Mesmo título"))
	b := f.create(t, newsInput("Mesmo título"))
	if a.Slug != "mesmo-titulo" || b.Slug != "mesmo-titulo-2" {
		t.Fatalf("slugs %q %q", a.Slug, b.Slug)
	}
	if _, _, err := f.store.Create(f.ctx, f.editor(), "receitas", newsInput("x"), ""); code(err) != core.ENOTFOUND {
		t.Fatalf("unknown type: %v", err)
	}
}

func asError(err error, target **core.Error) bool {
	e, ok := err.(*core.Error)
	if ok {
		*target = e
	}
	return ok
}

func TestCreateIsIdempotent(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	ids := make([]string, 10)
	created := make([]bool, 10)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it, c, err := f.store.Create(f.ctx, f.editor(), "noticias", newsInput("Importada"), "import:42")
			if err != nil {
				t.Error(err)
				return
			}
			ids[i], created[i] = it.ID, c
		}()
	}
	wg.Wait()
	n := 0
	for i := range ids {
		if ids[i] != ids[0] {
			t.Fatalf("retries created different items: %v", ids)
		}
		if created[i] {
			n++
		}
	}
	var count int
	if err := f.pool.QueryRow(f.ctx, `SELECT count(*) FROM content_items`).Scan(&count); err != nil || n != 1 || count != 1 {
		t.Fatalf("created=%d rows=%d err=%v", n, count, err)
	}
	other := content.Actor{UserID: newUser(t, f.pool), Channel: content.ChannelAPI}
	if _, _, err := f.store.Create(f.ctx, other, "noticias", newsInput("Importada"), "import:42"); code(err) != core.ECONFLICT {
		t.Fatalf("key reused by another author: %v", err)
	}
}

func TestPublishOnCreateAndReferences(t *testing.T) {
	posts := content.Type{ID: "posts", Singular: "Publicação", Plural: "Publicações", Workflow: content.WorkflowPublishOnCreate,
		Fields: []content.Field{
			{Name: "text", Label: "Texto", Kind: content.KindLongText, Required: true},
			{Name: "about", Label: "Notícia comentada", Kind: content.KindReference, Target: "noticias"},
			{Name: "parts", Label: "Partes", Kind: content.KindChildren, Target: "noticias"},
		}}
	f := newFixture(t, newsType(), posts)
	news := f.create(t, newsInput("Base"))
	actor := content.Actor{UserID: f.user, Channel: content.ChannelAPI}
	p, _, err := f.store.Create(f.ctx, actor, "posts", content.Input{Title: "Comentário", Fields: map[string]any{
		"text": "Ótima notícia", "about": news.ID, "parts": []any{news.ID}}}, "")
	if err != nil || !p.Published || p.Status != content.StatusPublished || p.PublishedAt == nil {
		t.Fatalf("publish on create: %+v err=%v", p, err)
	}
	if _, err := f.store.GetPublished(f.ctx, "posts", p.Slug, ""); err != nil {
		t.Fatal(err)
	}
	var e *core.Error
	_, _, err = f.store.Create(f.ctx, actor, "posts", content.Input{Title: "Outro", Fields: map[string]any{
		"text": "x", "about": "6f1c8f0e-9a55-4c1e-8a43-5b0f4c4f4a11", "parts": []any{p.ID}}}, "")
	if !asError(err, &e) || e.Fields["about"] != "O item escolhido no campo Notícia comentada não existe mais." ||
		e.Fields["parts"] != "O item escolhido no campo Partes não existe mais." {
		t.Fatalf("dangling or wrong-type references: %v", err)
	}
}

func TestConcurrentCreatesWithOneTitleGetDistinctSlugs(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	slugs := make([]string, 4)
	for i := range slugs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it, _, err := f.store.Create(f.ctx, f.editor(), "noticias", newsInput("Mesmo título ao mesmo tempo"), "")
			if err != nil {
				t.Error(err)
				return
			}
			slugs[i] = it.Slug
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, s := range slugs {
		if s == "" || seen[s] {
			t.Fatalf("slugs %v", slugs)
		}
		seen[s] = true
	}
}
