package app

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/workflows"
)

// challengeSyncEvery is how often queued challenge changes are passed to
// the timers.
const challengeSyncEvery = time.Second

// buildChallenges wires the challenges (core/challenges) after the content
// platform, the courses and the community (measured challenges count their
// lessons and accepted answers): their timers run on Temporal when it is
// configured.
func (a *App) buildChallenges(ctx context.Context, cfg config.Config, pool *pgxpool.Pool) error {
	svc, err := challenges.New(pool, challenges.Options{
		Subscriptions: a.Engagement.Subscriptions, Notify: a.Engagement.Notifications, Lessons: a.Courses, Answers: a.Community,
		Now: a.Content.Now, Log: a.Log,
	})
	if err != nil {
		return err
	}
	a.Challenges = svc
	// Members read challenges only through /api/desafios: the generic
	// content reads would hand the expected answers to anyone.
	a.Content.Registry.ServeOwnAPI(challenges.TypeID)
	if t := a.Engagement.Temporal; t != nil {
		timers := &workflows.ChallengeTimers{Client: t}
		svc.SetTimers(timers)
		if cfg.TemporalWorker {
			w := workflows.NewChallengeWorker(t, &workflows.ChallengeActivities{Challenges: svc})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start challenge timer worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
			next := svc.WeekStart(a.Content.Now()).AddDate(0, 0, 7)
			if err := timers.StartWeeklyRanking(ctx, next); err != nil {
				a.Log.Warn("challenges: weekly ranking not started", "err", err)
			}
		}
	}
	keep, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); svc.KeepSynced(keep, challengeSyncEvery) }()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}
