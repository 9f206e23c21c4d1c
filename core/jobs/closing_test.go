package jobs_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/jobs"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/workflows"
)

type quiet struct{}

func (quiet) Debug(string, ...interface{}) {}
func (quiet) Info(string, ...interface{})  {}
func (quiet) Warn(string, ...interface{})  {}
func (quiet) Error(string, ...interface{}) {}

// jobType is the vagas type as the core registers it from plugins/vagas
// (the fields the projection reads).
func jobType() content.Type {
	text := func(name string) content.Field { return content.Field{Name: name, Label: name, Kind: content.KindText} }
	return content.Type{ID: jobs.TypeID, Singular: "Vaga", Plural: "Vagas", Fields: []content.Field{
		text("organization"), text("city"), text("state"), text("workplace"), text("contract"), text("area"), text("specialty"),
		{Name: "salary_min", Label: "min", Kind: content.KindNumber}, {Name: "salary_max", Label: "max", Kind: content.KindNumber},
		{Name: "requirements", Label: "req", Kind: content.KindLongText}, {Name: "crmv_required", Label: "crmv", Kind: content.KindBoolean},
		text("apply_kind"), text("apply_value"), {Name: "closes_at", Label: "closes", Kind: content.KindDate},
		{Name: "featured", Label: "featured", Kind: content.KindBoolean},
	}}
}

// recorder is the editorial workflow's Scheduler: it records the unpublish
// moments the timers are told.
type recorder struct {
	mu        sync.Mutex
	unpublish map[string][]time.Time
}

func (r *recorder) SchedulePublish(context.Context, string, time.Time) error { return nil }
func (r *recorder) CancelPublish(context.Context, string) error              { return nil }
func (r *recorder) CancelUnpublish(context.Context, string) error            { return nil }
func (r *recorder) ScheduleUnpublish(_ context.Context, id string, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unpublish[id] = append(r.unpublish[id], at)
	return nil
}

func user(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("j%d@example.com", rand.Int64())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A job closing on 10 December goes offline at the end of that day in
// Brasília (11 December 03:00 UTC) through the content platform's
// publication timer, exactly once: the timer is told once however often
// the job's changes are synced, fires at that moment on the simulated
// clock, the item leaves the published state, the projection and the
// list follow, and a second firing does nothing.
func TestClosingDayUnpublishesTheJobOnce(t *testing.T) {
	pool := pgtest.New(t)
	var s testsuite.WorkflowTestSuite
	s.SetLogger(quiet{})
	env := s.NewTestWorkflowEnvironment()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env.SetStartTime(t0)
	clock := func() time.Time { return env.Now() }

	reg := content.NewRegistry()
	if err := reg.Register(jobType()); err != nil {
		t.Fatal(err)
	}
	store := content.New(pool, reg, content.Options{Now: clock, Recorder: editorial.NewAudit(pool)})
	rec := &recorder{unpublish: map[string][]time.Time{}}
	wf := editorial.New(store, editorial.Options{Now: clock, Scheduler: rec})
	svc := jobs.New(pool, jobs.Options{Closer: jobs.EditorialCloser(store, wf, clock), Now: clock})

	ctx := context.Background()
	editor := content.Actor{UserID: user(t, pool), Channel: content.ChannelBackoffice}
	revisor := content.Actor{UserID: user(t, pool), Channel: content.ChannelBackoffice}
	it, _, err := store.Create(ctx, editor, jobs.TypeID, content.Input{Title: "Clínico geral de pequenos animais", Fields: map[string]any{
		"organization": "Clínica Patas", "city": "Campinas", "state": "SP", "workplace": "presencial", "contract": "clt",
		"area": "pequenos_animais", "requirements": "CRMV ativo e experiência em clínica.", "apply_kind": "vetclube",
		"closes_at": "2026-12-10"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		a    content.Actor
		r    editorial.Role
		what editorial.Action
	}{{editor, editorial.RoleEditor, editorial.ActionSubmit}, {revisor, editorial.RoleRevisor, editorial.ActionApprove},
		{revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
		if it, err = wf.Act(ctx, step.a, []editorial.Role{step.r}, it.ID, it.Version, step.what, ""); err != nil {
			t.Fatalf("%s: %v", step.what, err)
		}
	}
	closesAt := time.Date(2026, 12, 11, 3, 0, 0, 0, time.UTC)
	for range 3 { // repeated syncs (a requeued change, a restart) tell the timer once
		if _, err := svc.SyncPending(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO job_sync_queue (item_id) VALUES ($1) ON CONFLICT DO NOTHING`, it.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.unpublish[it.ID]; len(got) != 1 || !got[0].Equal(closesAt) {
		t.Fatalf("unpublish moments told to the timer: %v, want once at %s", got, closesAt)
	}
	page, err := svc.List(ctx, "", jobs.Filter{State: "SP"}, "", 1)
	if err != nil || page.Total != 1 {
		t.Fatalf("open jobs before closing: %+v %v", page, err)
	}

	acts := &workflows.PublishingActivities{Store: store, Editorial: wf, Now: clock}
	env.RegisterWorkflow(workflows.ContentSchedule)
	env.RegisterActivity(acts)
	var listedJustBefore int
	env.RegisterDelayedCallback(func() {
		p, err := svc.List(ctx, "", jobs.Filter{}, "", 1)
		if err != nil {
			t.Error(err)
		}
		listedJustBefore = p.Total
	}, closesAt.Sub(t0)-time.Minute)
	unpublishAt := rec.unpublish[it.ID][0]
	env.ExecuteWorkflow(workflows.ContentSchedule, workflows.ContentScheduleInput{ItemID: it.ID, UnpublishAt: &unpublishAt})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("timer: completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if listedJustBefore != 1 {
		t.Fatalf("a minute before closing the job was listed %d times, want 1", listedJustBefore)
	}

	var events int
	var at time.Time
	if err := pool.QueryRow(ctx, `SELECT count(*), coalesce(max(created_at), 'epoch') FROM editorial_events
		WHERE item_id = $1 AND action = 'scheduled_unpublish'`, it.ID).Scan(&events, &at); err != nil {
		t.Fatal(err)
	}
	if events != 1 || !at.Equal(closesAt) {
		t.Fatalf("scheduled unpublish: %d events, last at %s; want one at %s", events, at, closesAt)
	}
	cur, err := store.Get(ctx, it.ID)
	if err != nil || cur.Published {
		t.Fatalf("item after closing: published=%v %v", cur.Published, err)
	}
	var published bool
	if err := pool.QueryRow(ctx, `SELECT published FROM job_listings WHERE item_id = $1`, it.ID).Scan(&published); err != nil || published {
		t.Fatalf("projection after closing: published=%v %v", published, err)
	}
	page, err = svc.List(ctx, "", jobs.Filter{}, "", 1)
	if err != nil || page.Total != 0 {
		t.Fatalf("open jobs after closing: %+v %v", page, err)
	}
	// The timer firing again (a retry, a duplicate) unpublishes nothing more.
	res, err := acts.UnpublishScheduledContent(ctx, it.ID)
	if err != nil || res.Fired {
		t.Fatalf("second firing: %+v %v", res, err)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM editorial_events WHERE item_id = $1 AND action = 'scheduled_unpublish'`, it.ID).
		Scan(&events); err != nil || events != 1 {
		t.Fatalf("after a second firing: %d events %v", events, err)
	}
}
