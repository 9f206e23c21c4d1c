package workflows_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/workflows"
)

// publishingOnDevServer starts the embedded server and a client on it; the
// worker is started by the test (startPublishingWorker) when it wants one.
func publishingOnDevServer(t *testing.T) (client.Client, *pgxpool.Pool, *content.Store, *editorial.Workflow) {
	t.Helper()
	pool := pgtest.New(t)
	dev := devServer(t, "")
	c, err := client.Dial(client.Options{HostPort: dev.Addr, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	store, wf := newsEditorial(t, pool, time.Now)
	return c, pool, store, wf
}

func startPublishingWorker(t *testing.T, c client.Client, store *content.Store, wf *editorial.Workflow) worker.Worker {
	t.Helper()
	w := workflows.NewPublishingWorker(c, &workflows.PublishingActivities{Store: store, Editorial: wf})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

// An item scheduled a few seconds ahead on the real server is published
// when its timer fires (the query showed that moment), once; an unpublish
// moment set afterwards takes it offline.
func TestE2EScheduledItemPublishesAndUnpublishes(t *testing.T) {
	ctx := context.Background()
	c, pool, store, wf := publishingOnDevServer(t)
	startPublishingWorker(t, c, store, wf)
	sched := workflows.NewPublishingScheduler(c, "")

	it := scheduleItems(t, pool, store, wf, 1, func(int) time.Time { return time.Now().Add(3 * time.Second) })[0]
	if err := sched.SchedulePublish(ctx, it.ID, *it.PublishAt); err != nil {
		t.Fatal(err)
	}
	// Scheduling again (a retried request) reuses the running timer.
	if err := sched.SchedulePublish(ctx, it.ID, *it.PublishAt); err != nil {
		t.Fatal(err)
	}
	st, err := sched.Next(ctx, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Next == nil {
		// A slow machine: the moment came before the query; then the timer
		// has fired and the item is out.
		if cur, err := store.Get(ctx, it.ID); err != nil || !cur.Published {
			t.Fatalf("no next firing and not published: %+v %v", cur, err)
		}
	} else if !st.Next.Equal(*it.PublishAt) || st.NextKind != workflows.KindPublish {
		t.Fatalf("next firing %+v, want %s", st, it.PublishAt)
	}
	eventually(t, 30*time.Second, "the scheduled item to be published", func() bool {
		cur, err := store.Get(ctx, it.ID)
		return err == nil && cur.Published
	})
	if p := publications(t, pool)[it.ID]; p.events != 1 || p.revisions != 1 || p.at.Before(*it.PublishAt) {
		t.Fatalf("publication %+v, want once at or after %s", p, it.PublishAt)
	}

	cur, err := store.Get(ctx, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	off := time.Now().Add(2 * time.Second)
	revisor := content.Actor{UserID: newUser(t, pool), Channel: content.ChannelBackoffice}
	if cur, err = wf.ScheduleUnpublish(ctx, revisor, []editorial.Role{editorial.RoleRevisor}, it.ID, cur.Version, &off); err != nil {
		t.Fatal(err)
	}
	if err := sched.ScheduleUnpublish(ctx, it.ID, *cur.UnpublishAt); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the item to go offline", func() bool {
		cur, err := store.Get(ctx, it.ID)
		return err == nil && !cur.Published
	})
}

// Items whose moments pass while no worker runs — half with a timer
// waiting on the server, half whose timer was lost — are published once
// each as soon as a worker starts and the catch-up runs.
func TestE2EOverdueItemsPublishAfterWorkerOutage(t *testing.T) {
	ctx := context.Background()
	c, pool, store, wf := publishingOnDevServer(t)
	sched := workflows.NewPublishingScheduler(c, "")
	w := startPublishingWorker(t, c, store, wf)

	const n = 20
	// Each moment is margin after its own scheduling: time for the first
	// half's timers to start and the worker to stop before any comes.
	// Generous: a loaded CI machine (two test binaries plus Temporal on two
	// CPUs) takes seconds to start ten timers.
	const margin = 8 * time.Second
	items := scheduleItems(t, pool, store, wf, n, func(int) time.Time { return time.Now().Add(margin) })
	first := *items[0].PublishAt
	for _, it := range items[:n/2] {
		if err := sched.SchedulePublish(ctx, it.ID, *it.PublishAt); err != nil {
			t.Fatal(err)
		}
		first = minTime(first, *it.PublishAt)
	}
	for _, it := range items[:n/2] {
		eventually(t, 10*time.Second, "a timer to start", func() bool {
			return historyHas(t, c, workflows.ContentScheduleID(it.ID), enumspb.EVENT_TYPE_TIMER_STARTED)
		})
	}
	w.Stop()
	if !time.Now().Before(first) {
		t.Fatalf("setup took over %s: a moment may have come before the worker stopped", margin)
	}

	// The server fires each waiting timer, and the catch-up's own query
	// finds every moment overdue; no worker acts on either.
	for _, it := range items[:n/2] {
		eventually(t, 30*time.Second, "a timer to fire", func() bool {
			return historyHas(t, c, workflows.ContentScheduleID(it.ID), enumspb.EVENT_TYPE_TIMER_FIRED)
		})
	}
	eventually(t, 30*time.Second, "every moment to be overdue", func() bool {
		overdue, err := store.Scheduled(ctx, time.Time{}, time.Now())
		if err != nil {
			return false
		}
		if len(overdue) == n {
			return true
		}
		// An item no longer agendado ends the wait: the check below names it.
		for _, p := range publications(t, pool) {
			if p.status != content.StatusScheduled {
				return true
			}
		}
		return false
	})
	for id, p := range publications(t, pool) {
		if p.events != 0 || p.status != content.StatusScheduled {
			t.Fatalf("item %s published with no worker: %+v", id, p)
		}
	}
	for _, it := range items[:n/2] {
		if historyHas(t, c, workflows.ContentScheduleID(it.ID), enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
			t.Fatalf("item %s: publication activity scheduled with no worker", it.ID)
		}
	}

	// The catch-up runs before the worker is back, so what it counts does
	// not race the timers the worker then fires.
	if signalled, err := sched.ResyncOverdue(ctx, store, time.Hour); err != nil || signalled != 0 {
		t.Fatalf("overdue by an hour: %d err %v", signalled, err)
	}
	signalled, err := sched.Resync(ctx, store)
	if err != nil || signalled != n {
		t.Fatalf("resync signalled %d err %v, want %d", signalled, err, n)
	}
	startPublishingWorker(t, c, store, wf)
	eventually(t, 60*time.Second, "every overdue item to be published", func() bool {
		for _, p := range publications(t, pool) {
			if p.status != content.StatusPublished {
				return false
			}
		}
		return true
	})
	// A second catch-up finds nothing left to do.
	if signalled, err := sched.Resync(ctx, store); err != nil || signalled != 0 {
		t.Fatalf("second resync signalled %d err %v", signalled, err)
	}
	for _, it := range items {
		getCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := c.GetWorkflow(getCtx, workflows.ContentScheduleID(it.ID), "").Get(getCtx, nil)
		cancel()
		if err != nil {
			t.Fatalf("timer of %s: %v", it.ID, err)
		}
	}
	for _, it := range items {
		if p := publications(t, pool)[it.ID]; p.events != 1 || p.revisions != 1 || p.at.Before(*it.PublishAt) {
			t.Fatalf("item %s: %+v, want published once after %s", it.ID, p, it.PublishAt)
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// A schedule whose timer was never told (the signal failed after the move
// committed) is found by the periodic catch-up and published once.
func TestE2ELostTimerIsFoundByThePeriodicCatchUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, pool, store, wf := publishingOnDevServer(t)
	startPublishingWorker(t, c, store, wf)
	sched := workflows.NewPublishingScheduler(c, "")
	done := make(chan struct{})
	go func() { defer close(done); sched.KeepUp(ctx, store, time.Second, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() { cancel(); <-done })

	it := scheduleItems(t, pool, store, wf, 1, func(int) time.Time { return time.Now().Add(2 * time.Second) })[0]
	eventually(t, 60*time.Second, "the untold schedule to publish", func() bool {
		p := publications(t, pool)[it.ID]
		return p.status == content.StatusPublished
	})
	if p := publications(t, pool)[it.ID]; p.events != 1 || p.revisions != 1 {
		t.Fatalf("publication %+v, want once", p)
	}
}
