package core

import (
	"context"
	"slices"
)

// Roles known to the authorisation policy (core/authz/policy.csv).
const (
	RoleVisitor = "visitor"
	RoleUser    = "user"
	RoleTrial   = "trial"
	RolePremium = "premium"
	// RoleEditor writes drafts and submits them for review (core/editorial).
	RoleEditor = "editor"
	// RoleRevisor reviews content: approves, requests changes, schedules,
	// publishes, unpublishes and archives (core/editorial).
	RoleRevisor = "revisor"
	// RoleModerador moderates the community: hides, restores and removes
	// reported posts and comments (core/moderation).
	RoleModerador  = "moderador"
	RoleSuperAdmin = "super_admin"
	// RoleRecrutador sees and moves the applications of the jobs assigned
	// to them (core/jobs).
	RoleRecrutador = "recrutador"
)

// Principal is who is making a request. A visitor has a zero UserID and the
// single role "visitor".
type Principal struct {
	UserID    string
	SessionID string
	Email     string
	// Roles are the user's effective roles: "user" for every signed-in
	// account, plus rows of user_roles and roles derived from the
	// subscription state (trial, premium).
	Roles []string
	// TwoStep is true once the session passed two-step verification.
	// TwoStepPending: the account holds roles that require it (super admin,
	// revisor, moderador) and this session has not passed it, so those roles
	// are left out of Roles until it does.
	TwoStep        bool
	TwoStepPending bool
}

// Visitor is the principal of an anonymous request.
var Visitor = Principal{Roles: []string{RoleVisitor}}

// Authenticated reports whether the principal is a signed-in user.
func (p Principal) Authenticated() bool { return p.UserID != "" }

// HasRole reports whether the principal holds role.
func (p Principal) HasRole(role string) bool { return slices.Contains(p.Roles, role) }

type principalKey struct{}

// WithPrincipal returns a context carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the request's principal, Visitor when none was set.
func PrincipalFrom(ctx context.Context) Principal {
	if p, ok := ctx.Value(principalKey{}).(Principal); ok {
		return p
	}
	return Visitor
}
