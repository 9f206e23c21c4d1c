package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/roles"
	"github.com/vetclube/vetclube/workflows"
)

// Content is the content platform: the type registry (no type is registered
// by the core itself; content plugins and tests register theirs), items,
// readers' engagement, the editorial workflow with its audit log and
// reviews, and preview links. The scheduler (workflows/) reaches
// Workflow.PublishScheduled through it.
type Content struct {
	Registry   *content.Registry
	Store      *content.Store
	Engagement *engagement.Service
	Workflow   *editorial.Workflow
	Audit      *editorial.Audit
	Reviews    *editorial.Reviews
	Previews   *content.Previews
	// Uploads stores the images and files of content fields (the
	// backoffice's uploads, the dev seed's course pictures).
	Uploads *content.Uploads
	// Gates are the core's own checks on workflow moves, per type, run after
	// the type plugin's BeforeTransition (core/courses adds the course's).
	Gates *content.GatedHooks
	// Timers are the publication timers on Temporal (nil when
	// TEMPORAL_ADDRESS is empty: scheduled moments are then stored and shown
	// in the agenda but nothing fires them).
	Timers *workflows.PublishingScheduler

	// clock is the content platform's time (time.Now unless a test sets it
	// with SetClock).
	clock atomic.Pointer[func() time.Time]
}

// SetClock replaces the clock of the store, the workflow and the preview
// links (tests only: expiring a preview link without waiting).
func (c *Content) SetClock(now func() time.Time) { c.clock.Store(&now) }

// Now is the content platform's current time.
func (c *Content) Now() time.Time {
	if f := c.clock.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// keepUpEvery is how often the catch-up looks for moments whose timer was
// lost, so an overdue item publishes within about two intervals.
const keepUpEvery = 20 * time.Second

func (a *App) buildContent(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, rs *roles.Service) error {
	c := &a.Content
	secret, err := content.PreviewSecret(ctx, pool)
	if err != nil {
		return err
	}
	if c.Previews, err = content.NewPreviews(secret, c.Now); err != nil {
		return err
	}
	c.Audit = editorial.NewAudit(pool)
	// The plugins' hooks plus the core's own gates (a course's curriculum).
	c.Gates = content.WithGates(a.Tools.ContentHooks())
	// Outermost, the assets each video and file field points at, so both
	// the plugin and the core's gates see them.
	hooks := content.WithMedia(c.Gates, c.Registry, mediaLookup{a})
	c.Store = content.New(pool, c.Registry, content.Options{Now: c.Now, Recorder: c.Audit, Hooks: hooks})
	c.Engagement = engagement.New(pool, engagement.Options{Now: c.Now, Notify: a.Engagement.Notifications,
		Profiles: a.Profiles, Rules: community.CommentRules(), Log: a.Log})
	c.Reviews = editorial.NewReviews(pool, rs.IsReviewer, c.Now)
	opts := editorial.Options{
		Reviews: c.Reviews,
		Notify:  editorial.NotifyWith(a.Engagement.Notifications),
		Log:     a.Log,
		Now:     c.Now,
	}
	if t := a.Engagement.Temporal; t != nil {
		c.Timers = workflows.NewPublishingScheduler(t, workflows.ContentTaskQueue)
		opts.Scheduler = c.Timers
	}
	c.Workflow = editorial.New(c.Store, opts)
	// Revisions past the retention rule (older than 180 days and beyond the
	// newest 100 of an item) are pruned once at start and then daily.
	prune, stopPrune := context.WithCancel(context.WithoutCancel(ctx))
	pruned := make(chan struct{})
	go func() { defer close(pruned); c.pruneRevisions(prune, pruneEvery, a.Log) }()
	a.onClose(func() error { stopPrune(); <-pruned; return nil })
	if c.Timers != nil && cfg.TemporalWorker {
		w := workflows.NewPublishingWorker(a.Engagement.Temporal, &workflows.PublishingActivities{
			Store: c.Store, Editorial: c.Workflow, Now: c.Now,
		})
		if err := w.Start(); err != nil {
			return fmt.Errorf("start publication timer worker: %w", err)
		}
		a.onClose(func() error { w.Stop(); return nil })
		// Moments that passed while the worker or the server was down fire
		// at once; lost timers are found again every keepUpEvery.
		keepUp, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() { defer close(done); c.Timers.KeepUp(keepUp, c.Store, keepUpEvery, a.Log) }()
		a.onClose(func() error { stop(); <-done; return nil })
	}
	return nil
}

// mediaLookup answers the content hooks' asset lookups from the media
// library (App.Media). The library is built after the content platform (it
// asks content which items use an asset), so it is read at call time; before
// it exists no asset is known and a plugin's upload gate refuses.
type mediaLookup struct{ a *App }

func (m mediaLookup) Lookup(ctx context.Context, ids []string) (map[string]content.MediaInfo, error) {
	lib := m.a.Media
	if lib == nil {
		return nil, nil
	}
	found, err := lib.Summaries(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]content.MediaInfo, len(found))
	for id, a := range found {
		out[id] = content.MediaInfo{ID: a.ID, Kind: string(a.Kind), State: string(a.State),
			ProgressPercent: a.ProgressPercent, DurationSeconds: a.DurationSeconds, Error: a.Error}
	}
	return out, nil
}

// pruneEvery is how often old revisions are pruned.
const pruneEvery = 24 * time.Hour

func (c *Content) pruneRevisions(ctx context.Context, every time.Duration, log *slog.Logger) {
	for {
		n, err := c.Store.PruneRevisions(ctx, c.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("prune content revisions", "err", err)
		case n > 0:
			log.Info("pruned content revisions", "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
