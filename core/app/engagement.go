package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/workflows"
)

// Engagement is VetCoins, check-in, subscriptions, notifications and the
// live event stream, with the Temporal client that drives their workflows
// (nil when TEMPORAL_ADDRESS is empty: then the streak bonus is credited in
// the check-in transaction and no reminders or trial clocks run).
type Engagement struct {
	Points        *points.Ledger
	Checkin       *checkin.Service
	Subscriptions *subscriptions.Service
	Notifications *notifications.Service
	Events        *events.Hub
	Temporal      client.Client

	// Push is Web Push (VAPID keys, devices, delivery); see notifications.go.
	Push *push.Service
}

// eventRetention is how far back a reconnecting stream can resume.
const eventRetention = 24 * time.Hour

func (a *App) buildEngagement(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	e := &a.Engagement
	e.Points = points.New(pool)
	// e.Notifications and e.Push are built earlier (buildNotifications).

	var checkinWF checkin.Workflows = checkin.Direct{}
	var subsWF subscriptions.Workflows = subscriptions.NoWorkflows{}
	if cfg.TemporalAddress != "" {
		c, err := workflows.Dial(ctx, cfg.TemporalAddress, cfg.TemporalNamespace, log)
		if err != nil {
			return err
		}
		a.onClose(func() error { c.Close(); return nil })
		e.Temporal = c
		if err := a.startPushDelivery(ctx, c, cfg.TemporalWorker); err != nil {
			return err
		}
		engine := workflows.Engine{Client: c}
		checkinWF, subsWF = engine, engine
	} else {
		log.Warn("TEMPORAL_ADDRESS is empty: streak bonuses are credited inline; streak reminders and trial clocks do not run")
	}
	e.Checkin = checkin.New(pool, checkin.Options{Workflows: checkinWF, Zone: profiles.ChosenZone(pool), ZoneQuery: profiles.ChosenZoneQuery, Log: log})
	if e.Temporal != nil {
		// Every instance relays the check-in outbox to Temporal: claims
		// lock rows with SKIP LOCKED, so instances share the work, and a
		// check-in's request never waits for Temporal.
		relay := checkin.NewRelay(pool, checkinWF, checkin.RelayOptions{Log: log})
		relayCtx, stopRelay := context.WithCancel(context.WithoutCancel(ctx))
		relayDone := make(chan struct{})
		go func() { defer close(relayDone); relay.Run(relayCtx) }()
		a.onClose(func() error { stopRelay(); <-relayDone; return nil })
	}
	e.Subscriptions = subscriptions.New(pool, subscriptions.Options{
		Workflows:     subsWF,
		TrialDuration: cfg.TrialDuration,
		BillingGrace:  cfg.BillingGrace,
		Limits:        cfg.TrialLimits,
		Log:           log,
	})
	a.Auth.AddRoleSource(e.Subscriptions.Roles)
	a.Auth.AddEmailConfirmedHook(e.Subscriptions.StartTrial)

	if e.Temporal != nil && cfg.TemporalWorker {
		w := workflows.NewWorker(e.Temporal, &workflows.Activities{
			Pool:          pool,
			Checkin:       e.Checkin,
			Notifications: e.Notifications,
			Subscriptions: e.Subscriptions,
			Mailer:        a.Auth.Mailer(),
			Recipient:     a.Auth.Email,
			PublicURL:     cfg.PublicURL,
		})
		if err := w.Start(); err != nil {
			return fmt.Errorf("start workflow worker: %w", err)
		}
		a.onClose(func() error { w.Stop(); return nil })
		sweepCtx, cancelSweep := context.WithTimeout(ctx, 30*time.Second)
		err := workflows.EnsureStreakReminderSweep(sweepCtx, e.Temporal, workflows.ReminderSweepInput{})
		cancelSweep()
		if err != nil {
			return fmt.Errorf("start streak reminder sweep: %w", err)
		}
		// Every pending entitlement moment gets its workflow at start; an
		// overdue one (its notice lost) is woken every minute after.
		entCtx, stopEnt := context.WithCancel(context.WithoutCancel(ctx))
		entDone := make(chan struct{})
		go func() {
			defer close(entDone)
			if n, err := e.Subscriptions.ResumeEntitlements(entCtx); err != nil && entCtx.Err() == nil {
				log.Warn("resume entitlement workflows", "members", n, "err", err)
			}
			for {
				select {
				case <-entCtx.Done():
					return
				case <-time.After(time.Minute):
				}
				if n, err := e.Subscriptions.ResumeOverdueEntitlements(entCtx); err != nil && entCtx.Err() == nil {
					log.Warn("resume overdue entitlements", "members", n, "err", err)
				}
			}
		}()
		a.onClose(func() error { stopEnt(); <-entDone; return nil })
		// A streak bonus is started by the outbox relay after its check-in
		// commits. This sweep is the safety net for a completed streak with
		// neither a credit nor an outbox row (streaks completed before the
		// outbox existed): at start and then every minute.
		resume, stopResume := context.WithCancel(context.WithoutCancel(ctx))
		resumed := make(chan struct{})
		go func() {
			defer close(resumed)
			for {
				if n, err := e.Checkin.ResumeStreakBonuses(resume, e.Points); err != nil && resume.Err() == nil {
					log.Warn("resume streak bonuses", "started", n, "err", err)
				}
				select {
				case <-resume.Done():
					return
				case <-time.After(time.Minute):
				}
			}
		}()
		a.onClose(func() error { stopResume(); <-resumed; return nil })
	}

	e.Events = events.StartHub(context.WithoutCancel(ctx), pool, log)
	a.onClose(e.Events.Close)
	pruneCtx, stopPrune := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		t := time.NewTicker(time.Hour)
		defer t.Stop()
		for {
			if err := events.Prune(pruneCtx, pool, eventRetention); err != nil {
				log.Warn("prune live events", "err", err)
			}
			select {
			case <-pruneCtx.Done():
				return
			case <-t.C:
			}
		}
	}()
	a.onClose(func() error { stopPrune(); return nil })
	return nil
}
