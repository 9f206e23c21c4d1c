package editorial_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

func TestScheduledUnpublish(t *testing.T) {
	ctx := context.Background()
	store, pool := newsStore(t)
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	wf := editorial.New(store, editorial.Options{Now: now})
	super := []editorial.Role{editorial.RoleSuperAdmin}
	admin := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}

	publish := func(title string) content.Item {
		t.Helper()
		it, _, err := store.Create(ctx, admin, "noticias", content.Input{Title: title, Fields: map[string]any{"body": "Texto."}}, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []editorial.Action{editorial.ActionSubmit, editorial.ActionApprove, editorial.ActionPublish} {
			if it, err = wf.Act(ctx, admin, super, it.ID, it.Version, a, ""); err != nil {
				t.Fatal(err)
			}
		}
		return it
	}
	draft, _, err := store.Create(ctx, admin, "noticias", content.Input{Title: "Rascunho", Fields: map[string]any{"body": "Texto."}}, "")
	if err != nil {
		t.Fatal(err)
	}
	in := func(d time.Duration) *time.Time { at := now().Add(d); return &at }
	if _, err := wf.ScheduleUnpublish(ctx, admin, super, draft.ID, draft.Version, in(time.Hour)); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("unpublish moment for a draft: %v", err)
	}

	it := publish("Campanha de vacinação até sexta")
	if _, err := wf.ScheduleUnpublish(ctx, admin, []editorial.Role{editorial.RoleEditor}, it.ID, it.Version, in(time.Hour)); core.ErrorCode(err) != core.EFORBIDDEN {
		t.Fatalf("an editor: %v", err)
	}
	if _, err := wf.ScheduleUnpublish(ctx, admin, super, it.ID, it.Version, in(-time.Minute)); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("a past moment: %v", err)
	}
	if it, err = wf.ScheduleUnpublish(ctx, admin, super, it.ID, it.Version, in(time.Hour)); err != nil || it.UnpublishAt == nil {
		t.Fatalf("schedule unpublish: %+v %v", it, err)
	}
	if agenda, _ := store.ScheduledUnpublish(ctx, time.Time{}, now().Add(2*time.Hour)); len(agenda) != 1 || agenda[0].ID != it.ID {
		t.Fatalf("unpublish agenda: %+v", agenda)
	}
	if _, fired, err := wf.UnpublishScheduled(ctx, it.ID); err != nil || fired {
		t.Fatalf("fired early: %v %v", fired, err)
	}
	clock.Add(int64(time.Hour))
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, fired, err := wf.UnpublishScheduled(ctx, it.ID); err != nil {
				t.Error(err)
			} else if fired {
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	it, _ = store.Get(ctx, it.ID)
	if n.Load() != 1 || it.Published || it.Status != content.StatusDraft || it.UnpublishAt != nil {
		t.Fatalf("after the timer: fired %d times, %+v", n.Load(), it)
	}

	// Cancelled: the timer finds nothing to do.
	other := publish("Outra campanha")
	if other, err = wf.ScheduleUnpublish(ctx, admin, super, other.ID, other.Version, in(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if other, err = wf.ScheduleUnpublish(ctx, admin, super, other.ID, other.Version, nil); err != nil || other.UnpublishAt != nil {
		t.Fatalf("cancel: %+v %v", other, err)
	}
	clock.Add(int64(time.Hour))
	if _, fired, err := wf.UnpublishScheduled(ctx, other.ID); err != nil || fired {
		t.Fatalf("a cancelled moment fired: %v %v", fired, err)
	}
	if got, _ := store.Get(ctx, other.ID); !got.Published {
		t.Fatal("a cancelled unpublish took the item offline")
	}
}
