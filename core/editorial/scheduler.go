package editorial

import (
	"context"
	"time"
)

// Scheduler runs the durable timers of scheduled publishing and unpublishing
// (workflows.PublishingScheduler on Temporal). It is told after a schedule,
// reschedule or cancel has committed; the timer then calls PublishScheduled
// or UnpublishScheduled, which re-read the item, so a timer told late, twice
// or not at all (the catch-up at start restores it) never publishes twice.
type Scheduler interface {
	// SchedulePublish sets or moves the moment item itemID is published.
	SchedulePublish(ctx context.Context, itemID string, at time.Time) error
	// CancelPublish drops it (the item left agendado).
	CancelPublish(ctx context.Context, itemID string) error
	// ScheduleUnpublish sets or moves the moment item itemID goes offline.
	ScheduleUnpublish(ctx context.Context, itemID string, at time.Time) error
	// CancelUnpublish drops it.
	CancelUnpublish(ctx context.Context, itemID string) error
}
