package workflows

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/signups"
)

// Events' durable timers (core/eventos). Like the publication timers, the
// database is the source of truth and the workflows are alarm clocks: a
// fired reminder re-reads the event and sends nothing for a start that is no
// longer current, and a fired offer expiry re-reads the offer, so a stale,
// late or repeated firing never notifies twice or passes a seat twice.

// EventTaskQueue is the queue of the events' timers.
const EventTaskQueue = "vetclube-events"

// EventRemindersID is the workflow id of item itemID's reminders.
func EventRemindersID(itemID string) string { return "event-reminders/" + itemID }

// EventSeatOfferID is the workflow id of offer offerID's timer.
func EventSeatOfferID(offerID string) string { return "event-seat-offer/" + offerID }

// SignalEventSchedule moves an event's start or cancels it; QueryEventSchedule
// answers EventRemindersState.
const (
	SignalEventSchedule = "event-schedule"
	QueryEventSchedule  = "event-schedule"
)

// DefaultReminderOffsets are how long before the start participants are
// reminded.
var DefaultReminderOffsets = []time.Duration{24 * time.Hour, time.Hour}

// ReminderKindOf names the reminder sent offset before the start.
func ReminderKindOf(offset time.Duration) eventos.ReminderKind {
	switch offset {
	case 24 * time.Hour:
		return eventos.Reminder24h
	case time.Hour:
		return eventos.Reminder1h
	}
	return eventos.ReminderKind(offset.String())
}

// EventScheduleChange moves the event (StartsAt, EndsAt) or cancels it
// (CancelledAt, the moment it was cancelled).
type EventScheduleChange struct {
	StartsAt    *time.Time
	EndsAt      *time.Time
	CancelledAt *time.Time
}

// EventRemindersInput starts an event's timer; the schedule usually
// arrives by the start signal instead.
type EventRemindersInput struct {
	ItemID   string
	StartsAt *time.Time
	EndsAt   *time.Time
	// Offsets before the start (DefaultReminderOffsets when empty).
	Offsets []time.Duration
	// Pending are the offsets still to fire for StartsAt (continue-as-new
	// carries them; nil on a first start: every offset still ahead).
	Pending []time.Duration
}

// EventRemindersState is what the query answers: the moments the timer
// holds and the next one.
type EventRemindersState struct {
	ItemID      string
	StartsAt    *time.Time
	EndsAt      *time.Time
	Pending     []time.Duration
	UnpublishAt *time.Time
	Next        *time.Time
	NextKind    eventos.ReminderKind
}

// KindUnpublishEnded names the automatic unpublish moment in the query.
const KindUnpublishEnded eventos.ReminderKind = "unpublish"

// ReminderInput is one reminder to send.
type ReminderInput struct {
	ItemID   string
	Kind     eventos.ReminderKind
	StartsAt time.Time
	At       time.Time // the workflow's time when the reminder fired
}

// CancelInput is one cancellation to announce.
type CancelInput struct {
	ItemID      string
	CancelledAt time.Time
}

// EndedInput is the automatic unpublish of an event that ended at EndsAt.
type EndedInput struct {
	ItemID string
	EndsAt time.Time
}

type reminders struct {
	in       EventRemindersInput
	startsAt *time.Time
	endsAt   *time.Time
	pending  []time.Duration
}

// set keeps the offsets whose moment for start is still ahead of now: a
// reminder whose moment passed before the start was known is skipped,
// never sent late. The unpublish moment follows the end, overdue or not.
func (r *reminders) set(start, end *time.Time, now time.Time) {
	if end != nil {
		e := end.UTC()
		r.endsAt = &e
	}
	if start == nil || (r.startsAt != nil && r.startsAt.Equal(*start)) {
		return
	}
	s := start.UTC()
	r.startsAt = &s
	r.pending = nil
	for _, off := range r.in.Offsets {
		if s.Add(-off).After(now) {
			r.pending = append(r.pending, off)
		}
	}
}

func (r *reminders) unpublishAt() *time.Time {
	if r.endsAt == nil {
		return nil
	}
	at := r.endsAt.Add(eventos.AutoUnpublishAfter)
	return &at
}

// next is the earliest moment: a reminder (its offset) or the unpublish
// (unpublish true).
func (r *reminders) next() (at *time.Time, off time.Duration, unpublish bool) {
	for _, o := range r.pending {
		t := r.startsAt.Add(-o)
		if at == nil || t.Before(*at) {
			at, off = &t, o
		}
	}
	if u := r.unpublishAt(); u != nil && (at == nil || u.Before(*at)) {
		return u, 0, true
	}
	return at, off, false
}

func (r *reminders) done(off time.Duration) {
	var keep []time.Duration
	for _, o := range r.pending {
		if o != off {
			keep = append(keep, o)
		}
	}
	r.pending = keep
}

// EventReminders is an event's timer (the updatable-timer pattern): it
// sleeps until the next moment — a reminder before the start, or the
// automatic unpublish 24 h after the end. A signal moves the event (every
// pending reminder follows the new start) or cancels it (everyone with a place
// is told, and the workflow ends). It ends after the unpublish; a later
// change starts it again (SignalWithStart).
func EventReminders(ctx workflow.Context, in EventRemindersInput) error {
	if len(in.Offsets) == 0 {
		in.Offsets = DefaultReminderOffsets
	}
	r := &reminders{in: in}
	if in.Pending != nil && in.StartsAt != nil {
		s := in.StartsAt.UTC()
		r.startsAt, r.pending = &s, in.Pending
		r.set(nil, in.EndsAt, workflow.Now(ctx))
	} else {
		r.set(in.StartsAt, in.EndsAt, workflow.Now(ctx))
	}
	if err := workflow.SetQueryHandler(ctx, QueryEventSchedule, func() (EventRemindersState, error) {
		next, off, unpublish := r.next()
		st := EventRemindersState{ItemID: in.ItemID, StartsAt: r.startsAt, EndsAt: r.endsAt, Pending: r.pending,
			UnpublishAt: r.unpublishAt(), Next: next}
		switch {
		case next == nil:
		case unpublish:
			st.NextKind = KindUnpublishEnded
		default:
			st.NextKind = ReminderKindOf(off)
		}
		return st, nil
	}); err != nil {
		return err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
	})
	signals := workflow.GetSignalChannel(ctx, SignalEventSchedule)
	var cancelledAt *time.Time
	apply := func(c EventScheduleChange) {
		if c.CancelledAt != nil {
			cancelledAt = c.CancelledAt
			return
		}
		if c.StartsAt != nil || c.EndsAt != nil {
			cancelledAt = nil
			r.set(c.StartsAt, c.EndsAt, workflow.Now(ctx))
		}
	}
	var a *EventActivities
	for {
		for {
			var c EventScheduleChange
			if !signals.ReceiveAsync(&c) {
				break
			}
			apply(c)
		}
		if cancelledAt != nil {
			var told int
			return workflow.ExecuteActivity(ctx, a.NotifyEventCancelled, CancelInput{ItemID: in.ItemID, CancelledAt: *cancelledAt}).Get(ctx, &told)
		}
		at, off, unpublish := r.next()
		if at == nil {
			return nil
		}
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return workflow.NewContinueAsNewError(ctx, EventReminders, EventRemindersInput{ItemID: in.ItemID, StartsAt: r.startsAt,
				EndsAt: r.endsAt, Offsets: in.Offsets, Pending: append([]time.Duration{}, r.pending...)})
		}
		timerCtx, cancel := workflow.WithCancel(ctx)
		timer := workflow.NewTimer(timerCtx, max(at.Sub(workflow.Now(ctx)), 0))
		fired := false
		sel := workflow.NewSelector(ctx)
		sel.AddFuture(timer, func(f workflow.Future) { fired = f.Get(ctx, nil) == nil })
		sel.AddReceive(signals, func(ch workflow.ReceiveChannel, _ bool) {
			var c EventScheduleChange
			ch.Receive(ctx, &c)
			apply(c)
		})
		sel.Select(ctx)
		cancel()
		if !fired {
			continue
		}
		if unpublish {
			var later *time.Time
			if err := workflow.ExecuteActivity(ctx, a.UnpublishEndedEvent, EndedInput{ItemID: in.ItemID, EndsAt: *r.endsAt}).Get(ctx, &later); err != nil {
				return err
			}
			if later == nil {
				return nil
			}
			// The database holds a later end (a change whose signal has
			// not arrived): sleep until it.
			end := later.Add(-eventos.AutoUnpublishAfter)
			r.endsAt = &end
			continue
		}
		var told int
		if err := workflow.ExecuteActivity(ctx, a.SendEventReminder, ReminderInput{ItemID: in.ItemID, Kind: ReminderKindOf(off),
			StartsAt: *r.startsAt, At: workflow.Now(ctx)}).Get(ctx, &told); err != nil {
			return err
		}
		r.done(off)
	}
}

// SeatOfferInput runs one offer's timer.
type SeatOfferInput struct {
	OfferID   string
	ExpiresAt time.Time
}

// EventSeatOffer tells the person offered a seat, sleeps until the offer
// expires and expires it (the seat then goes to the next person waiting,
// whose own offer timer the expiry starts). An offer claimed or declined
// meanwhile is left alone by the expiry.
func EventSeatOffer(ctx workflow.Context, in SeatOfferInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
	})
	var a *EventActivities
	if err := workflow.ExecuteActivity(ctx, a.NotifySeatOffer, in.OfferID).Get(ctx, nil); err != nil {
		return err
	}
	at := in.ExpiresAt
	for {
		if err := workflow.Sleep(ctx, max(at.Sub(workflow.Now(ctx)), 0)); err != nil {
			return err
		}
		var later *time.Time
		if err := workflow.ExecuteActivity(ctx, a.ExpireSeatOffer, in.OfferID).Get(ctx, &later); err != nil {
			return err
		}
		if later == nil {
			return nil
		}
		at = *later
	}
}

// EventActivities run the events' side effects through core/eventos.
type EventActivities struct {
	Events *eventos.Service
}

// SendEventReminder tells the participants the event starts soon (nothing
// for a stale start); it returns how many were told.
func (a *EventActivities) SendEventReminder(ctx context.Context, in ReminderInput) (int, error) {
	if a.Events == nil {
		return 0, errMissingDependency
	}
	return a.Events.SendReminder(ctx, in.ItemID, in.Kind, in.StartsAt, in.At)
}

// NotifyEventCancelled tells everyone with a place in the event (participants,
// people waiting, holders of a released seat offer) that it was cancelled.
func (a *EventActivities) NotifyEventCancelled(ctx context.Context, in CancelInput) (int, error) {
	if a.Events == nil {
		return 0, errMissingDependency
	}
	return a.Events.NotifyCancelled(ctx, in.ItemID, in.CancelledAt)
}

// UnpublishEndedEvent takes an ended event offline 24 h after its end
// (through the editorial workflow); a later moment the database holds is
// returned.
func (a *EventActivities) UnpublishEndedEvent(ctx context.Context, in EndedInput) (*time.Time, error) {
	if a.Events == nil {
		return nil, errMissingDependency
	}
	return a.Events.UnpublishEnded(ctx, in.ItemID)
}

// NotifySeatOffer tells the person offered a seat (once per offer).
func (a *EventActivities) NotifySeatOffer(ctx context.Context, offerID string) error {
	if a.Events == nil {
		return errMissingDependency
	}
	return a.Events.NotifyOffer(ctx, offerID)
}

// ExpireSeatOffer expires the offer when due; a later expiry is returned.
func (a *EventActivities) ExpireSeatOffer(ctx context.Context, offerID string) (*time.Time, error) {
	if a.Events == nil {
		return nil, errMissingDependency
	}
	return a.Events.ExpireOffer(ctx, offerID)
}

// RegisterEvents adds the events' workflows and activities to w.
func RegisterEvents(w worker.Registry, acts *EventActivities) {
	w.RegisterWorkflow(EventReminders)
	w.RegisterWorkflow(EventSeatOffer)
	w.RegisterActivity(acts)
}

// NewEventWorker returns a worker for the events' timers (EventTaskQueue).
func NewEventWorker(c client.Client, acts *EventActivities) worker.Worker {
	w := worker.New(c, EventTaskQueue, worker.Options{})
	RegisterEvents(w, acts)
	return w
}

// EventTimers starts and signals the events' timers on a Temporal client;
// it implements eventos.Timers.
type EventTimers struct {
	Client    client.Client
	TaskQueue string          // EventTaskQueue when empty
	Offsets   []time.Duration // DefaultReminderOffsets when empty
}

var _ eventos.Timers = (*EventTimers)(nil)

func (t *EventTimers) queue() string {
	if t.TaskQueue == "" {
		return EventTaskQueue
	}
	return t.TaskQueue
}

func (t *EventTimers) signal(ctx context.Context, itemID string, c EventScheduleChange) error {
	_, err := t.Client.SignalWithStartWorkflow(ctx, EventRemindersID(itemID), SignalEventSchedule, c,
		client.StartWorkflowOptions{
			TaskQueue:                t.queue(),
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, EventReminders, EventRemindersInput{ItemID: itemID, Offsets: t.Offsets})
	if err != nil {
		return fmt.Errorf("event timers of %s: %w", itemID, err)
	}
	return nil
}

// Schedule sets or moves the event's reminders and unpublish moment.
func (t *EventTimers) Schedule(ctx context.Context, itemID string, startsAt, endsAt time.Time) error {
	return t.signal(ctx, itemID, EventScheduleChange{StartsAt: &startsAt, EndsAt: &endsAt})
}

// Cancel drops the reminders and announces the cancellation.
func (t *EventTimers) Cancel(ctx context.Context, itemID string, cancelledAt time.Time) error {
	return t.signal(ctx, itemID, EventScheduleChange{CancelledAt: &cancelledAt})
}

// StartOffer runs o's timer; starting it twice keeps the running one.
func (t *EventTimers) StartOffer(ctx context.Context, o signups.Offer) error {
	_, err := t.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       EventSeatOfferID(o.ID),
		TaskQueue:                t.queue(),
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, EventSeatOffer, SeatOfferInput{OfferID: o.ID, ExpiresAt: o.ExpiresAt})
	if err != nil {
		return fmt.Errorf("offer timer %s: %w", o.ID, err)
	}
	return nil
}

// Next answers the reminders item itemID's timer holds (zero when none runs).
func (t *EventTimers) Next(ctx context.Context, itemID string) (EventRemindersState, error) {
	st := EventRemindersState{ItemID: itemID}
	v, err := t.Client.QueryWorkflow(ctx, EventRemindersID(itemID), "", QueryEventSchedule)
	if err != nil {
		return st, fmt.Errorf("event reminders of %s: %w", itemID, err)
	}
	if err := v.Get(&st); err != nil {
		return st, fmt.Errorf("event reminders of %s: %w", itemID, err)
	}
	return st, nil
}
