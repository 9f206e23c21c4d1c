package workflows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// Publication timers. One workflow per content item holds both of its
// moments (publish and unpublish): they are two facts about the same item,
// so one id, one query and one signal path cover rescheduling and cancelling
// either, and the item never has two timers racing each other.
//
// The database is the source of truth; the workflow is an alarm clock. When
// a moment comes the activity reads the item again: a moment moved later
// (a signal that never arrived) sends the workflow back to sleep, an item no
// longer agendado is left alone, and editorial's PublishScheduled and
// UnpublishScheduled act at most once per moment. So a timer that fires
// early, late or twice never publishes twice or publishes the wrong thing;
// only a timer that fires late would be a fault, which is why catch-up
// signals (Resync) may only move a moment earlier.

// ContentTaskQueue is the queue of the publication timers, apart from
// TaskQueue so their worker can start once the content services exist.
const ContentTaskQueue = "vetclube-content"

// ContentScheduleID is the workflow id of item itemID's publication timer.
func ContentScheduleID(itemID string) string { return "content-schedule/" + itemID }

// SignalContentSchedule changes one of an item's moments; QueryContentSchedule
// answers its ContentScheduleState.
const (
	SignalContentSchedule = "content-schedule"
	QueryContentSchedule  = "content-schedule"
)

// ScheduleKind names one of an item's two moments.
type ScheduleKind string

const (
	KindPublish   ScheduleKind = "publish"
	KindUnpublish ScheduleKind = "unpublish"
)

// ScheduleChange sets (At) or cancels (nil At) one moment. A Hint comes from
// the catch-up and only moves a moment earlier (or sets a missing one): it
// was read from the database before the last user change may have reached
// the workflow, and an early firing is harmless while a late one is not.
type ScheduleChange struct {
	Kind ScheduleKind
	At   *time.Time
	Hint bool
}

// ContentScheduleInput starts an item's timer; its moments usually arrive by
// the start signal instead.
type ContentScheduleInput struct {
	ItemID      string
	PublishAt   *time.Time
	UnpublishAt *time.Time
}

// ContentScheduleState is what the query answers: the moments the timer
// holds and the next one it will fire (nil when none).
type ContentScheduleState struct {
	ItemID      string
	PublishAt   *time.Time
	UnpublishAt *time.Time
	Next        *time.Time
	NextKind    ScheduleKind
}

// FireResult is what a fired moment did: Fired when the item was published
// (or unpublished) by this call; Later when the database holds a later moment
// for it, to sleep until.
type FireResult struct {
	Fired bool
	Later *time.Time
}

func (s *ContentScheduleState) apply(c ScheduleChange) {
	slot := &s.PublishAt
	if c.Kind == KindUnpublish {
		slot = &s.UnpublishAt
	} else if c.Kind != KindPublish {
		return
	}
	if c.Hint && (c.At == nil || (*slot != nil && !c.At.Before(**slot))) {
		return
	}
	if c.At == nil {
		*slot = nil
		return
	}
	at := c.At.UTC()
	*slot = &at
}

func (s *ContentScheduleState) next() {
	s.Next, s.NextKind = nil, ""
	if s.PublishAt != nil {
		s.Next, s.NextKind = s.PublishAt, KindPublish
	}
	if s.UnpublishAt != nil && (s.Next == nil || s.UnpublishAt.Before(*s.Next)) {
		s.Next, s.NextKind = s.UnpublishAt, KindUnpublish
	}
}

// ContentSchedule is an item's publication timer (the updatable-timer
// pattern): it sleeps until the earlier of its moments; a signal moves or
// cancels a moment and restarts the sleep; when a moment comes it runs the
// matching activity. It ends when no moment is left, and a later schedule
// starts it again (SignalWithStart).
func ContentSchedule(ctx workflow.Context, in ContentScheduleInput) error {
	st := ContentScheduleState{ItemID: in.ItemID, PublishAt: in.PublishAt, UnpublishAt: in.UnpublishAt}
	if err := workflow.SetQueryHandler(ctx, QueryContentSchedule, func() (ContentScheduleState, error) {
		st.next()
		return st, nil
	}); err != nil {
		return err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		// Retried until the database answers: giving up would leave an item
		// unpublished with nobody told.
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
	})
	signals := workflow.GetSignalChannel(ctx, SignalContentSchedule)
	var a *PublishingActivities
	for {
		for {
			var c ScheduleChange
			if !signals.ReceiveAsync(&c) {
				break
			}
			st.apply(c)
		}
		st.next()
		if st.Next == nil {
			return nil
		}
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return workflow.NewContinueAsNewError(ctx, ContentSchedule,
				ContentScheduleInput{ItemID: in.ItemID, PublishAt: st.PublishAt, UnpublishAt: st.UnpublishAt})
		}
		kind, at := st.NextKind, *st.Next
		timerCtx, cancel := workflow.WithCancel(ctx)
		timer := workflow.NewTimer(timerCtx, max(at.Sub(workflow.Now(ctx)), 0))
		fired := false
		sel := workflow.NewSelector(ctx)
		sel.AddFuture(timer, func(f workflow.Future) { fired = f.Get(ctx, nil) == nil })
		sel.AddReceive(signals, func(ch workflow.ReceiveChannel, _ bool) {
			var c ScheduleChange
			ch.Receive(ctx, &c)
			st.apply(c)
		})
		sel.Select(ctx)
		if !fired {
			cancel()
			continue
		}
		var res FireResult
		act := a.PublishScheduledContent
		if kind == KindUnpublish {
			act = a.UnpublishScheduledContent
		}
		if err := workflow.ExecuteActivity(ctx, act, in.ItemID).Get(ctx, &res); err != nil {
			return err
		}
		// Signals are only taken in the loop, so the moment is still at.
		st.apply(ScheduleChange{Kind: kind, At: res.Later})
		cancel()
	}
}

// PublishingActivities fire an item's moments through the editorial
// workflow (never the tables directly).
type PublishingActivities struct {
	Store     *content.Store
	Editorial *editorial.Workflow
	// Now judges whether a moment has come (time.Now when nil); it must be
	// the editorial workflow's clock.
	Now func() time.Time
}

func (a *PublishingActivities) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// PublishScheduledContent publishes item id if it is still agendado and its
// moment has come; a moment moved later is returned in Later.
func (a *PublishingActivities) PublishScheduledContent(ctx context.Context, id string) (FireResult, error) {
	if a.Store == nil || a.Editorial == nil {
		return FireResult{}, errMissingDependency
	}
	it, err := a.Store.Get(ctx, id)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return FireResult{}, nil
	}
	if err != nil {
		return FireResult{}, err
	}
	if it.Status == content.StatusScheduled && it.PublishAt != nil && it.PublishAt.After(a.now()) {
		return FireResult{Later: it.PublishAt}, nil
	}
	_, fired, err := a.Editorial.PublishScheduled(ctx, id)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return FireResult{}, nil
	}
	return FireResult{Fired: fired}, err
}

// UnpublishScheduledContent takes item id offline if its unpublish moment
// has come; a moment moved later is returned in Later.
func (a *PublishingActivities) UnpublishScheduledContent(ctx context.Context, id string) (FireResult, error) {
	if a.Editorial == nil {
		return FireResult{}, errMissingDependency
	}
	it, fired, err := a.Editorial.UnpublishScheduled(ctx, id)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return FireResult{}, nil
	}
	if err != nil {
		return FireResult{}, err
	}
	if !fired && it.Published && it.UnpublishAt != nil && it.UnpublishAt.After(a.now()) {
		return FireResult{Later: it.UnpublishAt}, nil
	}
	return FireResult{Fired: fired}, nil
}

// RegisterPublishing adds the publication timer and its activities to w.
func RegisterPublishing(w worker.Registry, acts *PublishingActivities) {
	w.RegisterWorkflow(ContentSchedule)
	w.RegisterActivity(acts)
}

// PublishingScheduler starts, moves and cancels items' publication timers on
// a Temporal client; it implements editorial.Scheduler.
type PublishingScheduler struct {
	client    client.Client
	taskQueue string
}

var _ editorial.Scheduler = (*PublishingScheduler)(nil)

// NewPublishingScheduler returns a scheduler whose timers run on taskQueue
// (ContentTaskQueue when empty).
func NewPublishingScheduler(c client.Client, taskQueue string) *PublishingScheduler {
	if taskQueue == "" {
		taskQueue = ContentTaskQueue
	}
	return &PublishingScheduler{client: c, taskQueue: taskQueue}
}

// signal delivers change to the item's timer, starting it when none runs:
// scheduling twice never makes two timers, and an item whose timer finished
// can be scheduled again.
func (s *PublishingScheduler) signal(ctx context.Context, itemID string, change ScheduleChange) error {
	_, err := s.client.SignalWithStartWorkflow(ctx, ContentScheduleID(itemID), SignalContentSchedule, change,
		client.StartWorkflowOptions{
			TaskQueue:                s.taskQueue,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, ContentSchedule, ContentScheduleInput{ItemID: itemID})
	if err != nil {
		return fmt.Errorf("schedule %s of %s: %w", change.Kind, itemID, err)
	}
	return nil
}

// cancel clears a moment of a running timer; no timer running is fine.
func (s *PublishingScheduler) cancel(ctx context.Context, itemID string, kind ScheduleKind) error {
	err := s.client.SignalWorkflow(ctx, ContentScheduleID(itemID), "", SignalContentSchedule, ScheduleChange{Kind: kind})
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return fmt.Errorf("cancel %s of %s: %w", kind, itemID, err)
	}
	return nil
}

// SchedulePublish sets (or moves) the moment item itemID is published.
func (s *PublishingScheduler) SchedulePublish(ctx context.Context, itemID string, at time.Time) error {
	return s.signal(ctx, itemID, ScheduleChange{Kind: KindPublish, At: &at})
}

// CancelPublish drops the item's publication moment.
func (s *PublishingScheduler) CancelPublish(ctx context.Context, itemID string) error {
	return s.cancel(ctx, itemID, KindPublish)
}

// ScheduleUnpublish sets (or moves) the moment item itemID goes offline.
func (s *PublishingScheduler) ScheduleUnpublish(ctx context.Context, itemID string, at time.Time) error {
	return s.signal(ctx, itemID, ScheduleChange{Kind: KindUnpublish, At: &at})
}

// CancelUnpublish drops the item's unpublish moment.
func (s *PublishingScheduler) CancelUnpublish(ctx context.Context, itemID string) error {
	return s.cancel(ctx, itemID, KindUnpublish)
}

// Next answers the moments item itemID's timer holds; a zero state (Next
// nil) when no timer runs.
func (s *PublishingScheduler) Next(ctx context.Context, itemID string) (ContentScheduleState, error) {
	st := ContentScheduleState{ItemID: itemID}
	v, err := s.client.QueryWorkflow(ctx, ContentScheduleID(itemID), "", QueryContentSchedule)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("next firing of %s: %w", itemID, err)
	}
	if err := v.Get(&st); err != nil {
		return st, fmt.Errorf("next firing of %s: %w", itemID, err)
	}
	return st, nil
}

// Resync gives every stored moment a timer: the app calls it when it starts.
// Items whose moment passed while the worker or the server was down fire at
// once; future ones get a timer if they had lost theirs. Every signal is a
// Hint, so it never delays a moment a user moved earlier; an item fired
// twice is still published once. It returns how many moments it signalled.
func (s *PublishingScheduler) Resync(ctx context.Context, store *content.Store) (int, error) {
	return s.resync(ctx, store, time.Now().AddDate(1000, 0, 0))
}

// ResyncOverdue signals only the moments more than grace in the past: those
// whose timer was lost (a signal that failed after its change committed) or
// whose worker is down. Cheap enough to run every few seconds.
func (s *PublishingScheduler) ResyncOverdue(ctx context.Context, store *content.Store, grace time.Duration) (int, error) {
	return s.resync(ctx, store, time.Now().Add(-grace))
}

// KeepUp runs Resync at once and then ResyncOverdue every interval (with
// that grace) until ctx ends, so an overdue item publishes within about two
// intervals of a worker being back; failures are logged and retried.
func (s *PublishingScheduler) KeepUp(ctx context.Context, store *content.Store, every time.Duration, log *slog.Logger) {
	if n, err := s.Resync(ctx, store); err != nil {
		log.Warn("publication timers: resync", "signalled", n, "err", err)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := s.ResyncOverdue(ctx, store, every); err != nil && ctx.Err() == nil {
			log.Warn("publication timers: overdue resync", "signalled", n, "err", err)
		} else if n > 0 {
			log.Info("publication timers: overdue moments signalled", "count", n)
		}
	}
}

func (s *PublishingScheduler) resync(ctx context.Context, store *content.Store, until time.Time) (int, error) {
	n := 0
	for _, kind := range []ScheduleKind{KindPublish, KindUnpublish} {
		list := store.Scheduled
		if kind == KindUnpublish {
			list = store.ScheduledUnpublish
		}
		items, err := list(ctx, time.Time{}, until)
		if err != nil {
			return n, fmt.Errorf("resync timers: %w", err)
		}
		for _, it := range items {
			at := it.PublishAt
			if kind == KindUnpublish {
				at = it.UnpublishAt
			}
			if at == nil {
				continue
			}
			if err := s.signal(ctx, it.ID, ScheduleChange{Kind: kind, At: at, Hint: true}); err != nil {
				return n, fmt.Errorf("resync timers: %w", err)
			}
			n++
		}
	}
	return n, nil
}
