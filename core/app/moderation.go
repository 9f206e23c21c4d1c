package app

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/moderation"
)

// buildModeration wires reports and the moderation queue (core/moderation)
// after the content platform and the community: posts are found through the
// content store, comments through engagement, and a removed comment is
// deleted (its post's comment count follows). A removed post stays archived
// out of sight by moderation.VisibleSQL, kept for the queue's history.
func (a *App) buildModeration(pool *pgxpool.Pool) {
	resolve := func(ctx context.Context, targetType, targetID string) (moderation.Target, error) {
		notFound := core.Errorf(core.ENOTFOUND, moderation.MsgTargetNotFound)
		switch targetType {
		case moderation.TargetPost:
			it, err := a.Content.Store.Get(ctx, targetID)
			if core.ErrorCode(err) == core.ENOTFOUND || (err == nil && (it.Type != community.TypeID || !it.Published)) {
				return moderation.Target{}, notFound
			}
			if err != nil {
				return moderation.Target{}, err
			}
			var f struct {
				Content string `json:"content"`
			}
			_ = json.Unmarshal(it.Fields, &f)
			if f.Content == "" {
				f.Content = it.Title
			}
			return moderation.Target{AuthorID: it.AuthorID, ItemID: it.ID, Text: f.Content}, nil
		case moderation.TargetComment:
			c, err := a.Content.Engagement.CommentInfo(ctx, targetID)
			if err != nil {
				return moderation.Target{}, err
			}
			return moderation.Target{AuthorID: c.AuthorID, ItemID: c.ItemID, Text: c.Content}, nil
		}
		return moderation.Target{}, notFound
	}
	a.Moderation = moderation.New(pool, moderation.Options{
		Resolve: resolve,
		Notify:  a.Engagement.Notifications,
		OnRemoved: func(ctx context.Context, targetType, targetID string) error {
			if targetType != moderation.TargetComment {
				return nil
			}
			return a.Content.Engagement.DeleteComment(ctx, "", targetID, true)
		},
		Reporter: func(ctx context.Context, userID string) (moderation.Reporter, error) {
			created, confirmed, err := a.Auth.AccountFacts(ctx, userID)
			return moderation.Reporter{CreatedAt: created, Confirmed: confirmed}, err
		},
		Now: a.Content.Now,
		Log: a.Log.With("component", "moderation"),
	})
}
