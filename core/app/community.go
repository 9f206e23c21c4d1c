package app

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/moderation"
	"github.com/vetclube/vetclube/core/storage"
)

// pruneCommunityPicturesEvery is how often uploads no post took are removed.
const pruneCommunityPicturesEvery = time.Hour

// buildCommunity wires the community feed (core/community) after the content
// platform: posts are content items of the comunidade plugin's type, likes
// engagement reactions, and the feed hides what moderation hid.
func (a *App) buildCommunity(ctx context.Context, pool *pgxpool.Pool, uploads storage.Store) error {
	svc, err := community.New(pool, community.Options{
		Content:    a.Content.Store,
		Engagement: a.Content.Engagement,
		Notify:     a.Engagement.Notifications,
		Profiles:   a.Profiles,
		Storage:    uploads,
		Now:        a.Content.Now,
		Log:        a.Log,
		Visible: func(idColumn string) string {
			return moderation.VisibleSQL(moderation.TargetPost, idColumn)
		},
		ReportedBy: func(idColumn, readerExpr string) string {
			return moderation.ReportedBySQL(moderation.TargetPost, idColumn, readerExpr)
		},
	})
	if err != nil {
		return err
	}
	a.Community = svc
	// Posts are read through the feed only (blocks and moderation apply)
	// and written by members through /api/community only (its limits
	// apply); the backoffice moderates them through core/moderation.
	a.Content.Registry.ServeMembersWrites(community.TypeID)
	keep, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); svc.KeepPruned(keep, pruneCommunityPicturesEvery) }()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}
