package app

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/signups"
	"github.com/vetclube/vetclube/workflows"
)

// eventSyncEvery is how often queued event changes are passed to the
// timers; resumeOffersEvery how often pending offers are given a timer
// again (one lost to a crash between commit and start).
const (
	eventSyncEvery    = time.Second
	resumeOffersEvery = time.Minute
)

// buildEvents wires the events (core/eventos, core/signups) after the
// content platform: their timers run on Temporal when it is configured.
func (a *App) buildEvents(ctx context.Context, cfg config.Config, pool *pgxpool.Pool) error {
	seats := signups.New(pool, signups.Options{Now: a.Content.Now, Hold: cfg.EventSeatOfferHold})
	svc, err := eventos.New(pool, eventos.Options{
		Signups: seats, Notify: a.Engagement.Notifications, Now: a.Content.Now, Log: a.Log,
		AutoUnpublish: a.autoUnpublishEvent,
	})
	if err != nil {
		return err
	}
	a.Eventos = svc
	// Readers see events only through /api/eventos, which shows the
	// meeting link to participants alone and only near the start; the
	// generic content reads would hand every published field, the link
	// included, to anyone.
	a.Content.Registry.ServeOwnAPI(eventos.TypeID)
	if t := a.Engagement.Temporal; t != nil {
		svc.SetTimers(&workflows.EventTimers{Client: t})
		if cfg.TemporalWorker {
			w := workflows.NewEventWorker(t, &workflows.EventActivities{Events: svc})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start event timer worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
		}
	}
	keep, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); svc.KeepSynced(keep, eventSyncEvery, resumeOffersEvery) }()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}

// autoUnpublishEvent takes an ended event offline through the editorial
// workflow's own unpublish action (the system acting as super admin), 24 h
// after its end when the event's timer fires; already offline is fine.
func (a *App) autoUnpublishEvent(ctx context.Context, itemID string) error {
	it, err := a.Content.Store.Get(ctx, itemID)
	if err != nil || !it.Published {
		return err
	}
	_, err = a.Content.Workflow.Act(ctx, content.Actor{Channel: content.ChannelSystem},
		[]editorial.Role{editorial.RoleSuperAdmin}, itemID, 0, editorial.ActionUnpublish, "")
	return err
}
