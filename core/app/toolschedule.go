package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/workflows"
)

// startToolSchedule delivers the notifications tools schedule
// (host.ScheduleNotification, core/toolschedule): with Temporal, one sweep
// workflow for the whole deployment (workflows.ToolNotificationSweep, its
// own worker, started by every instance that runs workers; a running one
// is kept); without it, a sweep every minute in this process (rows are
// claimed with SKIP LOCKED, so several instances never deliver one twice).
func (a *App) startToolSchedule(cfg config.Config, log *slog.Logger) error {
	svc := a.ToolSchedule
	if c := a.Engagement.Temporal; c != nil {
		if !cfg.TemporalWorker {
			return nil
		}
		w := workflows.NewToolScheduleWorker(c, &workflows.ToolScheduleActivities{Schedule: svc})
		if err := w.Start(); err != nil {
			return fmt.Errorf("start tool notifications worker: %w", err)
		}
		a.onClose(func() error { w.Stop(); return nil })
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := workflows.EnsureToolNotificationSweep(ctx, c, workflows.ToolSweepInput{}); err != nil {
			return fmt.Errorf("start tool notifications sweep: %w", err)
		}
		return nil
	}
	sweep, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if n, _, err := svc.DeliverDue(sweep, time.Now(), 500); err != nil && sweep.Err() == nil {
				log.Warn("deliver tool notifications", "delivered", n, "err", err)
			}
			select {
			case <-sweep.Done():
				return
			case <-time.After(time.Minute):
			}
		}
	}()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}

// publishedForTools is the content store as the plugins' host API reads
// it (host.PublishedContent). The store is built after the plugins start,
// so it is looked up on each call; until then the calls fail.
type publishedForTools struct{ a *App }

func (p publishedForTools) store() (*content.Store, error) {
	if p.a.Content.Store == nil {
		return nil, fmt.Errorf("content store not ready")
	}
	return p.a.Content.Store, nil
}

func (p publishedForTools) List(ctx context.Context, q content.ListQuery) (content.Page, error) {
	s, err := p.store()
	if err != nil {
		return content.Page{}, err
	}
	return s.List(ctx, q)
}

func (p publishedForTools) GetPublished(ctx context.Context, typeID, idOrSlug, readerID string) (content.PublicItem, error) {
	s, err := p.store()
	if err != nil {
		return content.PublicItem{}, err
	}
	return s.GetPublished(ctx, typeID, idOrSlug, readerID)
}

func (p publishedForTools) Types() *content.Registry { return p.a.Content.Registry }
