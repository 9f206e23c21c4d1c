package editorial

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/notifications"
)

// Workflow applies decided moves to stored items and tells the people
// concerned.
type Workflow struct {
	store   *content.Store
	reviews *Reviews
	notify  Notify
	timers  Scheduler
	log     *slog.Logger
	now     func() time.Time
}

// Notify sends one in-app notification, once per idempotencyKey
// (NotifyWith adapts core/notifications).
type Notify func(ctx context.Context, userID, kind, title, message, idempotencyKey string) error

// NotifyWith sends notifications through the notifications store (which
// also pushes them on the live event stream).
func NotifyWith(s *notifications.Service) Notify {
	return func(ctx context.Context, userID, kind, title, message, key string) error {
		_, _, err := s.Create(ctx, userID, kind, title, message, key)
		return err
	}
}

// Options configures a Workflow.
type Options struct {
	// Reviews finds the assigned reviewer to notify; nil: only authors are told.
	Reviews *Reviews
	// Notify tells the author and the assignee about submit, approve,
	// request changes and publish; nil: nobody is told.
	Notify Notify
	Log    *slog.Logger
	// Now is the clock that judges schedule moments (time.Now when nil).
	Now func() time.Time
	// Scheduler runs the timers of scheduled moments and is told after each
	// change commits; nil: no timers are told (tests, no Temporal).
	Scheduler Scheduler
}

// New returns a workflow over store.
func New(store *content.Store, opts Options) *Workflow {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Workflow{store: store, reviews: opts.Reviews, notify: opts.Notify, timers: opts.Scheduler, log: opts.Log, now: opts.Now}
}

// MsgReasonRequired asks for the comment that must come with a request for
// changes.
const MsgReasonRequired = "Descreva o que precisa ser alterado."

// Act takes action on item id, which the actor saw at version, for someone
// holding roles; reason is the comment given with it (required when
// requesting changes) and goes into the audit log. The decision is made on
// the item as read; the write then re-checks both the version and the
// state, so a concurrent change turns into a 409 rather than a move from a
// state nobody decided on.
func (w *Workflow) Act(ctx context.Context, a content.Actor, roles []Role, id string, version int, action Action, reason string) (content.Item, error) {
	return w.act(ctx, a, roles, id, version, action, reason, nil)
}

// MsgScheduleInPast refuses a publication moment that has already passed.
const MsgScheduleInPast = "Escolha uma data e hora no futuro para a publicação."

// Schedule schedules (or reschedules) the publication of item id at the
// moment at, which must be in the future. The Temporal timer that fires it
// calls PublishScheduled.
func (w *Workflow) Schedule(ctx context.Context, a content.Actor, roles []Role, id string, version int, at time.Time) (content.Item, error) {
	if !at.After(w.now()) {
		return content.Item{}, core.Invalid(MsgScheduleInPast, map[string]string{"publish_at": MsgScheduleInPast})
	}
	at = at.UTC()
	return w.act(ctx, a, roles, id, version, ActionSchedule, "", &at)
}

func (w *Workflow) act(ctx context.Context, a content.Actor, roles []Role, id string, version int, action Action, reason string, publishAt *time.Time) (content.Item, error) {
	it, err := w.store.Get(ctx, id)
	if err != nil {
		return content.Item{}, err
	}
	if version != 0 && version != it.Version {
		return content.Item{}, core.Errorf(core.ECONFLICT, content.MsgStaleVersion)
	}
	move, err := Decide(Item{Status: it.Status, Published: it.Published}, action, roles)
	if err != nil {
		return content.Item{}, err
	}
	reason = strings.TrimSpace(reason)
	if action == ActionRequestChanges && reason == "" {
		return content.Item{}, core.Invalid(MsgReasonRequired, map[string]string{"reason": MsgReasonRequired})
	}
	if move.Discard {
		return w.store.DiscardDraft(ctx, a, id, it.Version)
	}
	tr := move.Transition(id, it.Version)
	tr.Reason, tr.PublishAt = reason, publishAt
	next, err := w.store.Transition(ctx, a, tr)
	if err != nil {
		return content.Item{}, err
	}
	switch {
	case next.Status == content.StatusScheduled && next.PublishAt != nil:
		w.timer(ctx, id, "schedule publish", func() error { return w.timers.SchedulePublish(ctx, id, *next.PublishAt) })
	case it.Status == content.StatusScheduled:
		w.timer(ctx, id, "cancel publish", func() error { return w.timers.CancelPublish(ctx, id) })
	}
	w.tell(ctx, a.UserID, next, string(action), reason)
	return next, nil
}

// timer tells the scheduler about a committed change of item id's moments.
// The change has committed, so a failure is logged, not returned: a timer
// never told fires nothing wrong (the fired moment re-reads the item) and
// the scheduler's catch-up gives a lost one back.
func (w *Workflow) timer(ctx context.Context, id, what string, tell func() error) {
	if w.timers == nil {
		return
	}
	if err := tell(); err != nil {
		w.log.Warn("editorial: timer not told", "item", id, "change", what, "err", err)
	}
}

// tell notifies the people concerned by action on it, never the actor. The
// move has committed: a failed notification is logged, not returned.
func (w *Workflow) tell(ctx context.Context, actorID string, it content.Item, action, reason string) {
	if w.notify == nil {
		return
	}
	assignee := ""
	if w.reviews != nil {
		var err error
		if assignee, err = w.reviews.Assignee(ctx, it.ID); err != nil {
			w.log.Warn("editorial: no assignee for notification", "item", it.ID, "err", err)
		}
	}
	var kind, title, message string
	var to []string
	switch Action(action) {
	case ActionSubmit:
		kind, title, message, to = "editorial.submitted", "Conteúdo para revisar", fmt.Sprintf("\u201c%s\u201d foi enviado para revisão.", it.Title), []string{assignee}
	case ActionApprove:
		kind, title, message, to = "editorial.approved", "Conteúdo aprovado", fmt.Sprintf("\u201c%s\u201d foi aprovado.", it.Title), []string{it.AuthorID}
	case ActionRequestChanges:
		kind, title, message, to = "editorial.changes_requested", "Alterações solicitadas",
			fmt.Sprintf("Foram pedidas alterações em \u201c%s\u201d: %s", it.Title, reason), []string{it.AuthorID}
	case ActionPublish, actionScheduledPublish:
		kind, title, message, to = "editorial.published", "Conteúdo publicado", fmt.Sprintf("\u201c%s\u201d foi publicado.", it.Title), []string{it.AuthorID, assignee}
	default:
		return
	}
	seen := map[string]bool{"": true, actorID: true}
	for _, user := range to {
		if seen[user] {
			continue
		}
		seen[user] = true
		key := fmt.Sprintf("editorial:%s:%d:%s", it.ID, it.Version, user)
		if err := w.notify(ctx, user, kind, title, message, key); err != nil {
			w.log.Warn("editorial: notification failed", "item", it.ID, "user", user, "err", err)
		}
	}
}

// actionScheduledPublish is the audit and notification name of a publish
// made by a fired schedule.
const actionScheduledPublish Action = "scheduled_publish"

// PublishScheduled publishes item id when its schedule fires. It publishes
// only an item still agendado — one that was edited, sent back or already
// published since is left alone and fired is false — so a timer that fires
// late, or twice, publishes at most once and never unapproved content.
func (w *Workflow) PublishScheduled(ctx context.Context, id string) (it content.Item, fired bool, err error) {
	system := content.Actor{Channel: content.ChannelSystem}
	now := w.now()
	it, err = w.store.Transition(ctx, system, content.Transition{ID: id, From: []content.Status{content.StatusScheduled},
		To: content.StatusPublished, Effect: content.EffectPublish, Action: string(actionScheduledPublish), DueBy: &now})
	if core.ErrorCode(err) == core.ECONFLICT {
		// No longer scheduled (published, edited, cancelled) or moved to a
		// later moment since the timer read it: nothing to do now; a moved
		// moment has its own timer.
		current, gerr := w.store.Get(ctx, id)
		if gerr == nil && (current.Status != content.StatusScheduled || current.PublishAt == nil || current.PublishAt.After(now)) {
			return current, false, nil
		}
	}
	if err != nil {
		return content.Item{}, false, err
	}
	w.tell(ctx, "", it, string(actionScheduledPublish), "")
	return it, true, nil
}

// RolesFrom keeps the workflow roles among a user's role names.
func RolesFrom(names []string) []Role {
	var out []Role
	for _, n := range names {
		if slices.Contains(Roles, Role(n)) {
			out = append(out, Role(n))
		}
	}
	return out
}

// MsgUnpublishInPast refuses an unpublish moment that has already passed.
const MsgUnpublishInPast = "Escolha uma data e hora no futuro para a despublicação."

// ScheduleUnpublish sets (at) or cancels (nil) the moment item id goes
// offline; it takes the roles that may unpublish. The timer that fires it
// calls UnpublishScheduled.
func (w *Workflow) ScheduleUnpublish(ctx context.Context, a content.Actor, roles []Role, id string, version int, at *time.Time) (content.Item, error) {
	if !mayTake(rules[ActionUnpublish], roles) {
		return content.Item{}, core.Errorf(core.EFORBIDDEN, "%s", rules[ActionUnpublish].forbidden)
	}
	if at != nil {
		if !at.After(w.now()) {
			return content.Item{}, core.Invalid(MsgUnpublishInPast, map[string]string{"unpublish_at": MsgUnpublishInPast})
		}
		utc := at.UTC()
		at = &utc
	}
	next, err := w.store.SetUnpublishAt(ctx, a, id, version, at)
	if err != nil {
		return content.Item{}, err
	}
	if next.UnpublishAt != nil {
		w.timer(ctx, id, "schedule unpublish", func() error { return w.timers.ScheduleUnpublish(ctx, id, *next.UnpublishAt) })
	} else {
		w.timer(ctx, id, "cancel unpublish", func() error { return w.timers.CancelUnpublish(ctx, id) })
	}
	return next, nil
}

// UnpublishScheduled takes item id offline when its unpublish moment has
// come. An item whose moment was cancelled, moved later, or that is already
// offline is left alone (fired is false), so a late or repeated timer acts
// at most once.
func (w *Workflow) UnpublishScheduled(ctx context.Context, id string) (it content.Item, fired bool, err error) {
	it, err = w.store.Get(ctx, id)
	if err != nil {
		return content.Item{}, false, err
	}
	if it.UnpublishAt == nil || it.UnpublishAt.After(w.now()) || !it.Published {
		return it, false, nil
	}
	to := it.Status
	if to == content.StatusPublished {
		to = content.StatusDraft
	}
	system := content.Actor{Channel: content.ChannelSystem}
	next, err := w.store.Transition(ctx, system, content.Transition{ID: id, Version: it.Version, From: []content.Status{it.Status},
		To: to, Effect: content.EffectUnpublish, Action: "scheduled_unpublish", PublishAt: it.PublishAt})
	if core.ErrorCode(err) == core.ECONFLICT {
		// A concurrent write won: decide again on what it left.
		current, gerr := w.store.Get(ctx, id)
		if gerr == nil && (current.UnpublishAt == nil || current.UnpublishAt.After(w.now()) || !current.Published) {
			return current, false, nil
		}
	}
	if err != nil {
		return content.Item{}, false, err
	}
	return next, true, nil
}
