package workflows_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/workflows"
)

func at(d time.Duration) *time.Time {
	v := t0.Add(d)
	return &v
}

type firing struct {
	kind workflows.ScheduleKind
	at   time.Time
}

// timerEnv runs the publication timer of item "i1" with mocked activities
// that record when they ran; results are answered in turn by publishResults
// (Fired when exhausted).
func timerEnv(t *testing.T, publishResults ...workflows.FireResult) (*testsuite.TestWorkflowEnvironment, *[]firing) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(t0)
	var a *workflows.PublishingActivities
	env.RegisterActivity(a)
	var fired []firing
	env.OnActivity(a.PublishScheduledContent, mock.Anything, "i1").Return(func(context.Context, string) (workflows.FireResult, error) {
		fired = append(fired, firing{workflows.KindPublish, env.Now()})
		if len(publishResults) > 0 {
			r := publishResults[0]
			publishResults = publishResults[1:]
			return r, nil
		}
		return workflows.FireResult{Fired: true}, nil
	}).Maybe()
	env.OnActivity(a.UnpublishScheduledContent, mock.Anything, "i1").Return(func(context.Context, string) (workflows.FireResult, error) {
		fired = append(fired, firing{workflows.KindUnpublish, env.Now()})
		return workflows.FireResult{Fired: true}, nil
	}).Maybe()
	return env, &fired
}

func query(t *testing.T, env *testsuite.TestWorkflowEnvironment) workflows.ContentScheduleState {
	t.Helper()
	v, err := env.QueryWorkflow(workflows.QueryContentSchedule)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.ContentScheduleState
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func signal(env *testsuite.TestWorkflowEnvironment, after time.Duration, c workflows.ScheduleChange) {
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(workflows.SignalContentSchedule, c) }, after)
}

func checkFirings(t *testing.T, env *testsuite.TestWorkflowEnvironment, got []firing, want ...firing) {
	t.Helper()
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if len(got) != len(want) {
		t.Fatalf("firings %v, want %v", got, want)
	}
	for i := range want {
		if got[i].kind != want[i].kind || !got[i].at.Equal(want[i].at) {
			t.Fatalf("firing %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func TestPublishTimerFiresOnceAtItsMomentAndAnswersTheQuery(t *testing.T) {
	env, fired := timerEnv(t)
	var before workflows.ContentScheduleState
	env.RegisterDelayedCallback(func() { before = query(t, env) }, time.Hour)
	env.ExecuteWorkflow(workflows.ContentSchedule, workflows.ContentScheduleInput{ItemID: "i1", PublishAt: at(2 * time.Hour)})
	checkFirings(t, env, *fired, firing{workflows.KindPublish, t0.Add(2 * time.Hour)})
	if before.Next == nil || !before.Next.Equal(t0.Add(2*time.Hour)) || before.NextKind != workflows.KindPublish || before.ItemID != "i1" {
		t.Fatalf("query before firing: %+v", before)
	}
	if st := query(t, env); st.Next != nil || st.PublishAt != nil {
		t.Fatalf("query after firing: %+v", st)
	}
}

func TestPublishTimerReschedulesAndCancels(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change workflows.ScheduleChange
		want   []firing
	}{
		{"earlier", workflows.ScheduleChange{Kind: workflows.KindPublish, At: at(time.Hour)}, []firing{{workflows.KindPublish, t0.Add(time.Hour)}}},
		{"later", workflows.ScheduleChange{Kind: workflows.KindPublish, At: at(5 * time.Hour)}, []firing{{workflows.KindPublish, t0.Add(5 * time.Hour)}}},
		{"cancelled", workflows.ScheduleChange{Kind: workflows.KindPublish}, nil},
		// A catch-up hint never delays a moment, and fills a missing one.
		{"hint later ignored", workflows.ScheduleChange{Kind: workflows.KindPublish, At: at(5 * time.Hour), Hint: true}, []firing{{workflows.KindPublish, t0.Add(2 * time.Hour)}}},
		{"hint earlier taken", workflows.ScheduleChange{Kind: workflows.KindPublish, At: at(time.Hour), Hint: true}, []firing{{workflows.KindPublish, t0.Add(time.Hour)}}},
		{"unpublish added", workflows.ScheduleChange{Kind: workflows.KindUnpublish, At: at(3 * time.Hour)},
			[]firing{{workflows.KindPublish, t0.Add(2 * time.Hour)}, {workflows.KindUnpublish, t0.Add(3 * time.Hour)}}},
		{"unpublish first", workflows.ScheduleChange{Kind: workflows.KindUnpublish, At: at(90 * time.Minute)},
			[]firing{{workflows.KindUnpublish, t0.Add(90 * time.Minute)}, {workflows.KindPublish, t0.Add(2 * time.Hour)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env, fired := timerEnv(t)
			signal(env, 30*time.Minute, tt.change)
			var after workflows.ContentScheduleState
			env.RegisterDelayedCallback(func() { after = query(t, env) }, 45*time.Minute)
			env.ExecuteWorkflow(workflows.ContentSchedule, workflows.ContentScheduleInput{ItemID: "i1", PublishAt: at(2 * time.Hour)})
			checkFirings(t, env, *fired, tt.want...)
			if len(tt.want) == 0 {
				if after.Next != nil {
					t.Fatalf("query after cancel: %+v", after)
				}
			} else if after.Next == nil || !after.Next.Equal(tt.want[0].at) || after.NextKind != tt.want[0].kind {
				t.Fatalf("query after the change: %+v, want next %v", after, tt.want[0])
			}
		})
	}
}

// The database moved the moment later without the signal reaching the
// timer: the activity says so and the timer sleeps again.
func TestPublishTimerSleepsAgainWhenTheStoredMomentIsLater(t *testing.T) {
	env, fired := timerEnv(t, workflows.FireResult{Later: at(3 * time.Hour)})
	env.ExecuteWorkflow(workflows.ContentSchedule, workflows.ContentScheduleInput{ItemID: "i1", PublishAt: at(2 * time.Hour)})
	checkFirings(t, env, *fired, firing{workflows.KindPublish, t0.Add(2 * time.Hour)}, firing{workflows.KindPublish, t0.Add(3 * time.Hour)})
}

// A moment already past when the timer starts (the catch-up) fires at once.
func TestPublishTimerFiresAPastMomentAtOnce(t *testing.T) {
	env, fired := timerEnv(t)
	env.ExecuteWorkflow(workflows.ContentSchedule, workflows.ContentScheduleInput{ItemID: "i1", PublishAt: at(-time.Hour)})
	checkFirings(t, env, *fired, firing{workflows.KindPublish, t0})
}

// newsEditorial is a content store with the news type, its audit log and
// the editorial workflow, all on clock.
func newsEditorial(t *testing.T, pool *pgxpool.Pool, clock func() time.Time) (*content.Store, *editorial.Workflow) {
	t.Helper()
	reg := content.NewRegistry()
	if err := reg.Register(content.Type{ID: "noticias", Singular: "Notícia", Plural: "Notícias",
		Fields: []content.Field{{Name: "body", Label: "Texto", Kind: content.KindLongText, Required: true}}}); err != nil {
		t.Fatal(err)
	}
	store := content.New(pool, reg, content.Options{Now: clock, Recorder: editorial.NewAudit(pool)})
	return store, editorial.New(store, editorial.Options{Now: clock})
}

// scheduleItems creates n approved news items and schedules each at
// moment(i), the way the backoffice does (editor submits, revisor approves
// and schedules).
func scheduleItems(t *testing.T, pool *pgxpool.Pool, store *content.Store, wf *editorial.Workflow, n int, moment func(i int) time.Time) []content.Item {
	t.Helper()
	ctx := context.Background()
	editor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	revisor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	items := make([]content.Item, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			it, _, err := store.Create(ctx, editor, "noticias", content.Input{Title: fmt.Sprintf("Notícia %d", i), Fields: map[string]any{"body": "Texto."}}, "")
			if err == nil {
				it, err = wf.Act(ctx, editor, []editorial.Role{editorial.RoleEditor}, it.ID, it.Version, editorial.ActionSubmit, "")
			}
			if err == nil {
				it, err = wf.Act(ctx, revisor, []editorial.Role{editorial.RoleRevisor}, it.ID, it.Version, editorial.ActionApprove, "")
			}
			if err == nil {
				it, err = wf.Schedule(ctx, revisor, []editorial.Role{editorial.RoleRevisor}, it.ID, it.Version, moment(i))
			}
			if err != nil {
				errs <- fmt.Errorf("item %d: %w", i, err)
				return
			}
			items[i] = it
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return items
}

// publications reads, per item, how often it was published by a fired
// schedule (audit events and revisions) and when.
type publication struct {
	events, revisions int
	at                time.Time
	status            content.Status
}

func publications(t *testing.T, pool *pgxpool.Pool) map[string]publication {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT i.id::text, i.status,
			(SELECT count(*) FROM editorial_events e WHERE e.item_id = i.id AND e.action = 'scheduled_publish'),
			(SELECT count(*) FROM content_revisions r WHERE r.item_id = i.id AND r.action = 'publish'),
			coalesce((SELECT min(e.created_at) FROM editorial_events e WHERE e.item_id = i.id AND e.action = 'scheduled_publish'), 'epoch')
		FROM content_items i`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]publication{}
	for rows.Next() {
		var id string
		var p publication
		if err := rows.Scan(&id, &p.status, &p.events, &p.revisions, &p.at); err != nil {
			t.Fatal(err)
		}
		out[id] = p
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// startTimers starts one child publication timer per item: the same
// workflow the scheduler starts, all on one simulated clock.
func startTimers(ctx workflow.Context, ins []workflows.ContentScheduleInput) error {
	futures := make([]workflow.ChildWorkflowFuture, 0, len(ins))
	for _, in := range ins {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: workflows.ContentScheduleID(in.ItemID)})
		futures = append(futures, workflow.ExecuteChildWorkflow(cctx, workflows.ContentSchedule, in))
	}
	for _, f := range futures {
		if err := f.Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// 1,000 items scheduled at random moments over a simulated day are each
// published exactly once, at their moment, through the real activities,
// editorial workflow and PostgreSQL; 100 of them are rescheduled later
// halfway through (the stored moment and a signal) and publish at the new
// moment. Counted from the audit log and the revisions.
func TestScheduledPublishingOfAThousandItemsExactlyOnce(t *testing.T) {
	const n, window = 1000, 24 * time.Hour
	pool := pgtest.New(t)
	var s testsuite.WorkflowTestSuite
	s.SetLogger(quiet{})
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(t0)
	env.SetTestTimeout(5 * time.Minute)
	store, wf := newsEditorial(t, pool, env.Now)
	rng := rand.New(rand.NewPCG(1, 2))
	moments := make([]time.Time, n)
	for i := range moments {
		moments[i] = t0.Add(time.Minute + time.Duration(rng.Int64N(int64(window)))).Truncate(time.Microsecond)
	}
	items := scheduleItems(t, pool, store, wf, n, func(i int) time.Time { return moments[i] })
	want := map[string]time.Time{}
	ins := make([]workflows.ContentScheduleInput, n)
	for i, it := range items {
		want[it.ID] = moments[i]
		ins[i] = workflows.ContentScheduleInput{ItemID: it.ID, PublishAt: it.PublishAt}
	}

	acts := &workflows.PublishingActivities{Store: store, Editorial: wf, Now: env.Now}
	env.RegisterWorkflow(startTimers)
	env.RegisterWorkflow(workflows.ContentSchedule)
	env.RegisterActivity(acts)
	rescheduled := 0
	env.RegisterDelayedCallback(func() {
		ctx := context.Background()
		revisor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
		for i, it := range items {
			if rescheduled == 100 || !moments[i].After(env.Now().Add(time.Minute)) {
				continue
			}
			cur, err := store.Get(ctx, it.ID)
			if err != nil {
				t.Error(err)
				return
			}
			later := moments[i].Add(time.Duration(rng.Int64N(int64(6 * time.Hour)))).Truncate(time.Microsecond)
			if _, err := wf.Schedule(ctx, revisor, []editorial.Role{editorial.RoleRevisor}, it.ID, cur.Version, later); err != nil {
				t.Error(err)
				return
			}
			if err := env.SignalWorkflowByID(workflows.ContentScheduleID(it.ID), workflows.SignalContentSchedule,
				workflows.ScheduleChange{Kind: workflows.KindPublish, At: &later}); err != nil {
				t.Error(err)
				return
			}
			want[it.ID] = later
			rescheduled++
		}
	}, window/2)

	env.ExecuteWorkflow(startTimers, ins)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if rescheduled != 100 {
		t.Fatalf("rescheduled %d items, want 100", rescheduled)
	}
	got := publications(t, pool)
	for id, moment := range want {
		p := got[id]
		if p.events != 1 || p.revisions != 1 || p.status != content.StatusPublished || !p.at.Equal(moment) {
			t.Fatalf("item %s: %+v, want published once at %s", id, p, moment)
		}
	}

	// A timer firing again (a retry, a duplicate) publishes nothing more.
	for _, it := range items[:20] {
		res, err := acts.PublishScheduledContent(context.Background(), it.ID)
		if err != nil || res.Fired {
			t.Fatalf("second firing of %s: %+v %v", it.ID, res, err)
		}
	}
	if again := publications(t, pool); again[items[0].ID].events != 1 || again[items[19].ID].revisions != 1 {
		t.Fatalf("a second firing published again: %+v", again[items[0].ID])
	}
}
