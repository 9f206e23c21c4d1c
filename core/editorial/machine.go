// Package editorial is the content workflow: which action may move an item
// from which state, and who may take it.
//
// This file is the state machine as pure Go (no database, no clock): Decide
// answers one (item, action, roles) question with the move to make or a
// refusal — 403 (EFORBIDDEN) when none of the roles may take the action at
// all, 409 (ECONFLICT) when the item's state does not allow it. The move is
// applied with content.Store.Transition (or DiscardDraft), whose From guard
// re-checks the state inside the write transaction.
//
// An item's status is the state of its working copy; Published says whether
// readers see a snapshot. So a published item being edited is, for example,
// rascunho and published at once, and may be unpublished, archived or have
// its changes discarded.
package editorial

import (
	"fmt"
	"slices"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// Role is a backoffice role that takes part in the workflow.
type Role string

const (
	RoleEditor     Role = core.RoleEditor     // writes drafts and submits them
	RoleRevisor    Role = core.RoleRevisor    // reviews, schedules, publishes
	RoleSuperAdmin Role = core.RoleSuperAdmin // may do everything
)

// Roles lists the workflow roles.
var Roles = []Role{RoleEditor, RoleRevisor, RoleSuperAdmin}

// Action is a workflow button.
type Action string

const (
	ActionSubmit         Action = "submit"
	ActionApprove        Action = "approve"
	ActionRequestChanges Action = "request_changes"
	ActionSchedule       Action = "schedule"
	ActionPublish        Action = "publish"
	ActionUnpublish      Action = "unpublish"
	ActionArchive        Action = "archive"
	ActionDiscard        Action = "discard"
)

// Actions lists every action in the order the backoffice shows them.
var Actions = []Action{ActionSubmit, ActionApprove, ActionRequestChanges, ActionSchedule, ActionPublish,
	ActionUnpublish, ActionArchive, ActionDiscard}

// Item is what the machine needs to know about an item.
type Item struct {
	Status    content.Status
	Published bool
}

// Move is an allowed action's outcome.
type Move struct {
	Action Action
	From   content.Status
	To     content.Status
	Effect content.Effect
	// Discard means "drop the draft" (content.Store.DiscardDraft) rather
	// than a transition.
	Discard bool
}

// Transition is m as a content transition for item id at version, guarded
// by the state it was decided in.
func (m Move) Transition(id string, version int) content.Transition {
	return content.Transition{ID: id, Version: version, From: []content.Status{m.From}, To: m.To, Effect: m.Effect, Action: string(m.Action)}
}

type rule struct {
	label     string // the button
	roles     []Role
	forbidden string // 403 reason
	// allowed says whether the state permits the action, and the target.
	allowed func(it Item) (to content.Status, effect content.Effect, ok bool)
	// refused is the 409 reason for it.
	refused func(it Item) string
}

func fromStates(to content.Status, effect content.Effect, from ...content.Status) func(Item) (content.Status, content.Effect, bool) {
	return func(it Item) (content.Status, content.Effect, bool) {
		return to, effect, slices.Contains(from, it.Status)
	}
}

func notInState(verb string) func(Item) string {
	return func(it Item) string {
		return fmt.Sprintf("Não é possível %s um conteúdo em \u201c%s\u201d.", verb, it.Status.Label())
	}
}

var (
	reviewers = []Role{RoleRevisor, RoleSuperAdmin}
	rules     = map[Action]rule{
		ActionSubmit: {
			label: "Enviar para revisão", roles: []Role{RoleEditor, RoleSuperAdmin},
			forbidden: "Seu perfil não permite enviar conteúdos para revisão.",
			allowed:   fromStates(content.StatusInReview, content.EffectNone, content.StatusDraft, content.StatusChangesRequested),
			refused:   notInState("enviar para revisão"),
		},
		ActionApprove: {
			label: "Aprovar", roles: reviewers,
			forbidden: "Seu perfil não permite aprovar conteúdos.",
			allowed:   fromStates(content.StatusApproved, content.EffectNone, content.StatusInReview),
			refused:   notInState("aprovar"),
		},
		ActionRequestChanges: {
			label: "Solicitar alterações", roles: reviewers,
			forbidden: "Seu perfil não permite solicitar alterações.",
			allowed: fromStates(content.StatusChangesRequested, content.EffectNone,
				content.StatusInReview, content.StatusApproved, content.StatusScheduled),
			refused: notInState("solicitar alterações em"),
		},
		ActionSchedule: {
			label: "Agendar publicação", roles: reviewers,
			forbidden: "Seu perfil não permite agendar publicações.",
			// Rescheduling is scheduling again.
			allowed: fromStates(content.StatusScheduled, content.EffectNone, content.StatusApproved, content.StatusScheduled),
			refused: notInState("agendar a publicação de"),
		},
		ActionPublish: {
			label: "Publicar agora", roles: reviewers,
			forbidden: "Seu perfil não permite publicar conteúdos.",
			// Only approved content goes public; a scheduled item was approved.
			allowed: fromStates(content.StatusPublished, content.EffectPublish, content.StatusApproved, content.StatusScheduled),
			refused: notInState("publicar"),
		},
		ActionUnpublish: {
			label: "Despublicar", roles: reviewers,
			forbidden: "Seu perfil não permite despublicar conteúdos.",
			// Readers stop seeing the item; a pending draft keeps its state,
			// and an item that was simply published becomes a draft.
			allowed: func(it Item) (content.Status, content.Effect, bool) {
				to := it.Status
				if to == content.StatusPublished {
					to = content.StatusDraft
				}
				return to, content.EffectUnpublish, it.Published
			},
			refused: func(Item) string { return "Este conteúdo não está publicado." },
		},
		ActionArchive: {
			label: "Arquivar", roles: reviewers,
			forbidden: "Seu perfil não permite arquivar conteúdos.",
			allowed: func(it Item) (content.Status, content.Effect, bool) {
				effect := content.EffectNone
				if it.Published {
					effect = content.EffectUnpublish
				}
				return content.StatusArchived, effect, it.Status != content.StatusArchived
			},
			refused: func(Item) string { return "Este conteúdo já está arquivado." },
		},
		ActionDiscard: {
			label: "Descartar alterações", roles: Roles,
			forbidden: "Seu perfil não permite descartar alterações.",
			allowed: func(it Item) (content.Status, content.Effect, bool) {
				return content.StatusPublished, content.EffectNone, it.Published && it.Status != content.StatusPublished
			},
			refused: func(Item) string { return "Este conteúdo não tem alterações para descartar." },
		},
	}
)

// Label is the action's pt-BR button text.
func (a Action) Label() string {
	if r, ok := rules[a]; ok {
		return r.label
	}
	return string(a)
}

func mayTake(r rule, roles []Role) bool {
	for _, role := range roles {
		if slices.Contains(r.roles, role) {
			return true
		}
	}
	return false
}

// Decide says what action does to it for someone holding roles, or why not.
func Decide(it Item, action Action, roles []Role) (Move, error) {
	r, ok := rules[action]
	if !ok {
		return Move{}, core.Invalid("Ação desconhecida.", map[string]string{"action": "Escolha uma ação do fluxo editorial."})
	}
	if !mayTake(r, roles) {
		return Move{}, core.Errorf(core.EFORBIDDEN, "%s", r.forbidden)
	}
	to, effect, ok := r.allowed(it)
	if !ok {
		return Move{}, core.Errorf(core.ECONFLICT, "%s", r.refused(it))
	}
	return Move{Action: action, From: it.Status, To: to, Effect: effect, Discard: action == ActionDiscard}, nil
}

// Available lists the actions someone holding roles may take on it now, in
// button order.
func Available(it Item, roles []Role) []Action {
	var out []Action
	for _, a := range Actions {
		if _, err := Decide(it, a, roles); err == nil {
			out = append(out, a)
		}
	}
	return out
}
