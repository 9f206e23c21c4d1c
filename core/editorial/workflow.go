package editorial

import (
	"context"
	"slices"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// Workflow applies decided moves to stored items.
type Workflow struct {
	store *content.Store
}

// New returns a workflow over store.
func New(store *content.Store) *Workflow { return &Workflow{store: store} }

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
	tr.Reason = reason
	return w.store.Transition(ctx, a, tr)
}

// PublishScheduled publishes item id when its schedule fires. It publishes
// only an item still agendado — one that was edited, sent back or already
// published since is left alone and fired is false — so a timer that fires
// late, or twice, publishes at most once and never unapproved content.
func (w *Workflow) PublishScheduled(ctx context.Context, id string) (it content.Item, fired bool, err error) {
	system := content.Actor{Channel: content.ChannelSystem}
	it, err = w.store.Transition(ctx, system, content.Transition{ID: id, From: []content.Status{content.StatusScheduled},
		To: content.StatusPublished, Effect: content.EffectPublish, Action: "scheduled_publish"})
	if core.ErrorCode(err) == core.ECONFLICT {
		current, gerr := w.store.Get(ctx, id)
		if gerr == nil && current.Status != content.StatusScheduled {
			return current, false, nil
		}
	}
	if err != nil {
		return content.Item{}, false, err
	}
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
