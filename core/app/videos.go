package app

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/videos"
)

// buildVideos wires the exclusive videos (core/videos) after the content
// platform. Videos are read and engaged with through /api/videos only: it
// applies the premium/trial access rule, which the generic content routes
// do not.
func (a *App) buildVideos(pool *pgxpool.Pool) {
	a.Videos = videos.New(pool, videos.Options{Base: a.videoContentBase(), Subscriptions: a.Engagement.Subscriptions})
	a.Content.Registry.ServeOwnAPI(videos.TypeVideo)
}

// engagementAccess is, per type served through its own API, the feature's
// rule for reading and engaging with an item through the generic
// engagement and comment routes (core/httpapi): the video player's premium
// rule, the lesson page's enrolment and premium rule. Other own-API types
// (community posts, events, courses) are engaged with through their own
// routes only.
func (a *App) engagementAccess() map[string]func(ctx context.Context, idOrSlug, userID string) (string, error) {
	access := map[string]func(ctx context.Context, idOrSlug, userID string) (string, error){}
	if a.Videos != nil {
		access[videos.TypeVideo] = a.Videos.Engageable
	}
	if a.Courses != nil {
		access[courses.TypeLesson] = a.Courses.LessonEngageable
	}
	return access
}
