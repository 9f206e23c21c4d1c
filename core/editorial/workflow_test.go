package editorial_test

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
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func newUser(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("u%d@example.com", rand.Int64())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func newsStore(t *testing.T) (*content.Store, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.New(t)
	reg := content.NewRegistry()
	err := reg.Register(content.Type{ID: "noticias", Singular: "Notícia", Plural: "Notícias",
		Fields: []content.Field{{Name: "body", Label: "Texto", Kind: content.KindLongText, Required: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return content.New(pool, reg, content.Options{}), pool
}

func TestEditorialStoryAgainstTheStore(t *testing.T) {
	ctx := context.Background()
	store, pool := newsStore(t)
	wf := editorial.New(store, editorial.Options{})
	editorRoles, revisorRoles := []editorial.Role{editorial.RoleEditor}, []editorial.Role{editorial.RoleRevisor}
	editor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	revisor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}

	it, _, err := store.Create(ctx, editor, "noticias", content.Input{Title: "Surto de cinomose", Fields: map[string]any{"body": "Primeira versão."}}, "")
	if err != nil {
		t.Fatal(err)
	}
	reason := ""
	step := func(a content.Actor, roles []editorial.Role, action editorial.Action, want content.Status) {
		t.Helper()
		next, err := wf.Act(ctx, a, roles, it.ID, it.Version, action, reason)
		if err != nil || next.Status != want {
			t.Fatalf("%s: %+v %v", action, next, err)
		}
		it = next
	}
	schedule := func(at time.Time) {
		t.Helper()
		next, err := wf.Schedule(ctx, revisor, revisorRoles, it.ID, it.Version, at)
		if err != nil || next.Status != content.StatusScheduled || next.PublishAt == nil || !next.PublishAt.Equal(at.UTC().Truncate(time.Microsecond)) {
			t.Fatalf("schedule at %v: %+v %v", at, next, err)
		}
		it = next
	}
	refused := func(a content.Actor, roles []editorial.Role, action editorial.Action, code string) {
		t.Helper()
		if _, err := wf.Act(ctx, a, roles, it.ID, it.Version, action, reason); core.ErrorCode(err) != code {
			t.Fatalf("%s: %v, want %s", action, err, code)
		}
	}
	refused(editor, editorRoles, editorial.ActionPublish, core.EFORBIDDEN)
	refused(revisor, revisorRoles, editorial.ActionPublish, core.ECONFLICT) // not approved
	step(editor, editorRoles, editorial.ActionSubmit, content.StatusInReview)
	refused(revisor, revisorRoles, editorial.ActionRequestChanges, core.EINVALID) // no comment
	reason = "Cite a fonte oficial."
	step(revisor, revisorRoles, editorial.ActionRequestChanges, content.StatusChangesRequested)
	reason = ""
	if it, err = store.Update(ctx, editor, it.ID, it.Version, content.Input{Title: "Surto de cinomose no RS", Fields: map[string]any{"body": "Versão corrigida."}}); err != nil {
		t.Fatal(err)
	}
	if it.Status != content.StatusChangesRequested {
		t.Fatalf("an edit in alteracoes_solicitadas changed the state: %s", it.Status)
	}
	step(editor, editorRoles, editorial.ActionSubmit, content.StatusInReview)
	stale := it.Version
	step(revisor, revisorRoles, editorial.ActionApprove, content.StatusApproved)
	if _, err := wf.Act(ctx, revisor, revisorRoles, it.ID, stale, editorial.ActionSchedule, ""); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("acting on a stale version: %v", err)
	}
	refused(revisor, revisorRoles, editorial.ActionSchedule, core.EINVALID) // no moment
	if _, err := wf.Schedule(ctx, revisor, revisorRoles, it.ID, it.Version, time.Now().Add(-time.Second)); core.ErrorCode(err) != core.EINVALID ||
		core.ErrorMessage(err) != editorial.MsgScheduleInPast {
		t.Fatalf("schedule in the past: %v", err)
	}
	if _, err := wf.Schedule(ctx, editor, editorRoles, it.ID, it.Version, time.Now().Add(time.Hour)); core.ErrorCode(err) != core.EFORBIDDEN {
		t.Fatalf("an editor scheduling: %v", err)
	}
	schedule(time.Now().Add(time.Hour))
	schedule(time.Now().Add(time.Minute)) // rescheduled
	agenda, err := store.Scheduled(ctx, time.Time{}, time.Now().Add(2*time.Minute))
	if err != nil || len(agenda) != 1 || agenda[0].ID != it.ID {
		t.Fatalf("agenda: %+v %v", agenda, err)
	}
	if later, _ := store.Scheduled(ctx, time.Now().Add(2*time.Minute), time.Now().Add(2*time.Hour)); len(later) != 0 {
		t.Fatalf("the old moment is still on the agenda: %+v", later)
	}

	// A timer that fires before the stored moment (it read an older one, or
	// fired early) publishes nothing.
	if _, ok, err := wf.PublishScheduled(ctx, it.ID); err != nil || ok {
		t.Fatalf("early fire: published=%v err=%v", ok, err)
	}
	if cur, err := store.Get(ctx, it.ID); err != nil || cur.Status != content.StatusScheduled || cur.Published {
		t.Fatalf("after an early fire: %+v %v", cur, err)
	}

	// The timer fires at the moment: published once, even if it fires again.
	atTheMoment := editorial.New(store, editorial.Options{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
	var fired atomic.Int32
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := atTheMoment.PublishScheduled(ctx, it.ID)
			if err != nil {
				t.Error(err)
			} else if ok {
				fired.Add(1)
			}
		}()
	}
	wg.Wait()
	if fired.Load() != 1 {
		t.Fatalf("the schedule published %d times", fired.Load())
	}
	it, _ = store.Get(ctx, it.ID)
	if !it.Published || it.Status != content.StatusPublished || it.PublishAt != nil {
		t.Fatalf("after the schedule: %+v", it)
	}
	public := func() string {
		p, err := store.GetPublished(ctx, "noticias", it.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(p)
		return string(b)
	}
	live := public()

	// Editing afterwards does not change what readers see until the edit is
	// approved and published again.
	if it, err = store.Update(ctx, editor, it.ID, it.Version, content.Input{Title: "Surto de cinomose no RS: atualização", Fields: map[string]any{"body": "Terceira versão."}}); err != nil {
		t.Fatal(err)
	}
	if it.Status != content.StatusDraft || !it.Published || public() != live {
		t.Fatalf("edit of a published item: %+v", it)
	}
	refused(revisor, revisorRoles, editorial.ActionPublish, core.ECONFLICT) // the edit is not approved
	step(editor, editorRoles, editorial.ActionSubmit, content.StatusInReview)
	step(revisor, revisorRoles, editorial.ActionApprove, content.StatusApproved)
	schedule(time.Now().Add(time.Minute))
	// An edit after scheduling sends it back to draft; the timer then does nothing.
	if it, err = store.Update(ctx, editor, it.ID, it.Version, content.Input{Title: "Surto de cinomose no RS: atualização 2", Fields: map[string]any{"body": "Quarta versão."}}); err != nil {
		t.Fatal(err)
	}
	if it.PublishAt != nil {
		t.Fatalf("an edit kept the publication moment: %v", it.PublishAt)
	}
	if agenda, _ := store.Scheduled(ctx, time.Time{}, time.Now().Add(24*time.Hour)); len(agenda) != 0 {
		t.Fatalf("an edited item is still on the agenda: %+v", agenda)
	}
	if _, ok, err := wf.PublishScheduled(ctx, it.ID); err != nil || ok || public() != live {
		t.Fatalf("a schedule fired for an edited item: ok=%v err=%v", ok, err)
	}
	step(editor, editorRoles, editorial.ActionDiscard, content.StatusPublished)
	if it.Title != "Surto de cinomose no RS" || public() != live {
		t.Fatalf("discard: %+v", it)
	}
	step(revisor, revisorRoles, editorial.ActionUnpublish, content.StatusDraft)
	if _, err := store.GetPublished(ctx, "noticias", it.ID, ""); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("unpublished item still public: %v", err)
	}
	step(revisor, revisorRoles, editorial.ActionArchive, content.StatusArchived)

	if got := editorial.RolesFrom([]string{"user", "editor", "super_admin"}); len(got) != 2 || got[0] != editorial.RoleEditor {
		t.Fatalf("roles from names: %v", got)
	}
}
