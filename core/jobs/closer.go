package jobs

import (
	"context"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// EditorialCloser is the Closer on the content platform: it sets a job's
// unpublish moment to the end of its closing day through the editorial
// workflow (the system acting as super admin), so the publication timer
// (workflows.ContentSchedule) takes it offline exactly once. A moment
// already set there changes nothing (no version bump under an editor); a
// closing day already over takes the job offline now.
func EditorialCloser(store *content.Store, wf *editorial.Workflow, now func() time.Time) Closer {
	return func(ctx context.Context, itemID string, at time.Time) error {
		it, err := store.Get(ctx, itemID)
		if core.ErrorCode(err) == core.ENOTFOUND {
			return nil
		}
		if err != nil || !it.Published {
			return err
		}
		if it.UnpublishAt != nil && it.UnpublishAt.Equal(at) {
			return nil
		}
		system := content.Actor{Channel: content.ChannelSystem}
		roles := []editorial.Role{editorial.RoleSuperAdmin}
		if !at.After(now()) {
			_, err = wf.Act(ctx, system, roles, itemID, it.Version, editorial.ActionUnpublish, "")
			return err
		}
		_, err = wf.ScheduleUnpublish(ctx, system, roles, itemID, it.Version, &at)
		return err
	}
}
