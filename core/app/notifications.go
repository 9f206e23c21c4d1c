package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/workflows"
)

// vapidKeys is the configured VAPID pair; in development without one, the
// pair kept under DATA_DIR (generated on first start). nil: push is off
// (the public key endpoint answers 503).
func vapidKeys(cfg config.Config, log *slog.Logger) (*push.Keys, error) {
	if cfg.VAPIDPublicKey != "" || cfg.VAPIDPrivateKey != "" {
		k, err := push.ParseKeys(cfg.VAPIDPublicKey, cfg.VAPIDPrivateKey)
		if err != nil {
			return nil, err
		}
		return &k, nil
	}
	if !cfg.Development() {
		log.Warn("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are empty: Web Push is off")
		return nil, nil
	}
	path := filepath.Join(cfg.DataDir, "vapid.json")
	k, created, err := push.LoadOrCreateKeys(path)
	if err != nil {
		return nil, err
	}
	if created {
		log.Info("generated a development VAPID key pair", "path", path)
	}
	return &k, nil
}

// buildNotifications creates Web Push and the notifications service every
// producer sends through. It runs before the plugin host and the other
// services so that each is handed the one service.
func (a *App) buildNotifications(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	keys, err := vapidKeys(cfg, log)
	if err != nil {
		return fmt.Errorf("web push: %w", err)
	}
	a.Engagement.Push = push.New(pool, push.Options{
		Keys:               keys,
		Subject:            cfg.VAPIDSubject,
		AllowLocalServices: cfg.PushAllowLocalServices,
		Log:                log.With("component", "push"),
	})
	a.Engagement.Notifications = notifications.NewService(pool, notifications.Options{
		Push:     a.Engagement.Push,
		Profiles: a.Profiles,
		// Comments are built later with the content platform; the lookup
		// runs only when notifications are listed, after Build.
		CommentPost: func(ctx context.Context, commentID string) (string, error) {
			return a.Content.Engagement.CommentItem(ctx, commentID)
		},
		Log: log.With("component", "notifications"),
	})
	return nil
}

// startPushDelivery points push at Temporal and, on a worker, runs the
// delivery worker and the resumer of messages whose start was lost.
func (a *App) startPushDelivery(ctx context.Context, c client.Client, worker bool) error {
	a.Engagement.Push.SetStarter(workflows.Engine{Client: c})
	if !worker {
		return nil
	}
	w := workflows.NewPushWorker(c, &workflows.PushActivities{Push: a.Engagement.Push})
	if err := w.Start(); err != nil {
		return fmt.Errorf("start push worker: %w", err)
	}
	a.onClose(func() error { w.Stop(); return nil })
	resume, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if _, err := a.Engagement.Push.Resume(resume, 30*time.Second); err != nil && resume.Err() == nil {
				a.Log.Warn("resume push deliveries", "err", err)
			}
			select {
			case <-resume.Done():
				return
			case <-time.After(time.Minute):
			}
		}
	}()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}
