package editorial_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// recordingScheduler records what the workflow tells the timers; with fail
// set it refuses every call.
type recordingScheduler struct {
	calls []string
	fail  bool
}

func (r *recordingScheduler) record(s string) error {
	r.calls = append(r.calls, s)
	if r.fail {
		return errors.New("temporal unavailable")
	}
	return nil
}
func (r *recordingScheduler) SchedulePublish(_ context.Context, id string, at time.Time) error {
	return r.record(fmt.Sprintf("publish %s %s", id, at.Format(time.RFC3339Nano)))
}
func (r *recordingScheduler) CancelPublish(_ context.Context, id string) error {
	return r.record("cancel publish " + id)
}
func (r *recordingScheduler) ScheduleUnpublish(_ context.Context, id string, at time.Time) error {
	return r.record(fmt.Sprintf("unpublish %s %s", id, at.Format(time.RFC3339Nano)))
}
func (r *recordingScheduler) CancelUnpublish(_ context.Context, id string) error {
	return r.record("cancel unpublish " + id)
}

// The timers are told each committed schedule, reschedule and cancel, with
// the stored moment; a refused or failed move tells them nothing, and a
// scheduler that fails does not undo the committed move.
func TestWorkflowTellsTheTimers(t *testing.T) {
	ctx := context.Background()
	store, pool := newsStore(t)
	rec := &recordingScheduler{}
	wf := editorial.New(store, editorial.Options{Scheduler: rec})
	editor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	revisor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	eds, revs := []editorial.Role{editorial.RoleEditor}, []editorial.Role{editorial.RoleRevisor}

	it, _, err := store.Create(ctx, editor, "noticias", content.Input{Title: "Vacinação", Fields: map[string]any{"body": "Texto."}}, "")
	if err != nil {
		t.Fatal(err)
	}
	must := func(next content.Item, err error) content.Item {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return next
	}
	it = must(wf.Act(ctx, editor, eds, it.ID, it.Version, editorial.ActionSubmit, ""))
	it = must(wf.Act(ctx, revisor, revs, it.ID, it.Version, editorial.ActionApprove, ""))
	if len(rec.calls) != 0 {
		t.Fatalf("timers told before any schedule: %v", rec.calls)
	}
	first := must(wf.Schedule(ctx, revisor, revs, it.ID, it.Version, time.Now().Add(time.Hour)))
	if _, err := wf.Schedule(ctx, revisor, revs, it.ID, it.Version, time.Now().Add(2*time.Hour)); err == nil {
		t.Fatal("a stale reschedule was accepted")
	}
	second := must(wf.Schedule(ctx, revisor, revs, it.ID, first.Version, time.Now().Add(30*time.Minute)))
	it = must(wf.Act(ctx, revisor, revs, it.ID, second.Version, editorial.ActionPublish, ""))
	off := time.Now().Add(time.Hour)
	withOff := must(wf.ScheduleUnpublish(ctx, revisor, revs, it.ID, it.Version, &off))
	it = must(wf.ScheduleUnpublish(ctx, revisor, revs, it.ID, withOff.Version, nil))

	want := []string{
		"publish " + it.ID + " " + first.PublishAt.Format(time.RFC3339Nano),
		"publish " + it.ID + " " + second.PublishAt.Format(time.RFC3339Nano),
		"cancel publish " + it.ID,
		"unpublish " + it.ID + " " + withOff.UnpublishAt.Format(time.RFC3339Nano),
		"cancel unpublish " + it.ID,
	}
	if !slices.Equal(rec.calls, want) {
		t.Fatalf("timers told %q\nwant %q", rec.calls, want)
	}

	rec.fail = true
	next, err := wf.ScheduleUnpublish(ctx, revisor, revs, it.ID, it.Version, &off)
	if err != nil || next.UnpublishAt == nil {
		t.Fatalf("a failing scheduler undid the committed move: %+v %v", next, err)
	}
}
