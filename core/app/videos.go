package app

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/videos"
)

// buildVideos wires the exclusive videos (core/videos) after the content
// platform. Videos are read and engaged with through /api/videos only: it
// applies the premium/trial access rule, which the generic content routes
// do not.
func (a *App) buildVideos(pool *pgxpool.Pool) {
	a.Videos = videos.New(pool, videos.Options{
		Engagement:    a.Content.Engagement,
		Subscriptions: a.Engagement.Subscriptions,
		Now:           a.Content.Now,
		Log:           a.Log,
	})
	a.Content.Registry.ServeOwnAPI(videos.TypeVideo)
}
