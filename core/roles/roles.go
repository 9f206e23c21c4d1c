// Package roles manages the extra roles stored in user_roles (editor,
// revisor, moderador, super_admin) and the backoffice's list of accounts with their
// roles. Every account is a "user" without a row; trial and premium come
// from the subscription state, not from here.
package roles

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
)

// Grantable are the roles an administrator may grant; the database's CHECK
// on user_roles.role allows the same.
var Grantable = []string{core.RoleEditor, core.RoleRevisor, core.RoleModerador, core.RoleRecrutador, core.RoleSuperAdmin}

// ErrNoAccount is returned when no account has the given email.
var ErrNoAccount = errors.New("no account with that email")

// Service grants and revokes roles.
type Service struct {
	pool     *pgxpool.Pool
	onChange func(userID string)
	// subscriptionRoles adds "trial" or "premium" to the listed accounts; the
	// subscriptions package owns that state.
	subscriptionRoles func(ctx context.Context, userIDs []string) (map[string]string, error)
}

// ShowSubscriptionRoles makes the backoffice's accounts carry their trial or
// premium role next to the granted ones.
func (s *Service) ShowSubscriptionRoles(fn func(ctx context.Context, userIDs []string) (map[string]string, error)) {
	s.subscriptionRoles = fn
}

// withSubscriptionRoles appends each account's trial or premium role.
func (s *Service) withSubscriptionRoles(ctx context.Context, users []AdminUser) error {
	if s.subscriptionRoles == nil || len(users) == 0 {
		return nil
	}
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	extra, err := s.subscriptionRoles(ctx, ids)
	if err != nil {
		return err
	}
	for i := range users {
		if role, ok := extra[users[i].ID]; ok {
			// Right after "user": what the account is, then what it may do.
			users[i].Roles = slices.Insert(users[i].Roles, 1, role)
		}
	}
	return nil
}

// NewService returns a Service on pool.
func NewService(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// OnChange sets what runs after a committed grant or revocation for a user
// (this instance's cached principals are dropped at once; the database tells
// the other instances).
func (s *Service) OnChange(fn func(userID string)) { s.onChange = fn }

func (s *Service) changed(userID string) {
	if s.onChange != nil {
		s.onChange(userID)
	}
}

// CheckGrantable explains why role cannot be granted, listing the ones that can.
func CheckGrantable(role string) error {
	if slices.Contains(Grantable, role) {
		return nil
	}
	hint := ""
	switch role {
	case core.RoleUser, core.RoleVisitor:
		hint = " (every account already is a user)"
	case core.RoleTrial, core.RolePremium:
		hint = " (trial and premium follow the subscription)"
	}
	return fmt.Errorf("unknown role %q%s; valid roles: %s", role, hint, strings.Join(Grantable, ", "))
}

func normaliseEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Grant gives the account with email the role. It reports whether anything
// changed: granting a role twice is harmless.
func (s *Service) Grant(ctx context.Context, email, role string) (bool, error) {
	if err := CheckGrantable(role); err != nil {
		return false, err
	}
	var userID string
	var inserted bool
	err := s.pool.QueryRow(ctx, `
		WITH u AS (SELECT id FROM users WHERE email = $1),
		     ins AS (INSERT INTO user_roles (user_id, role) SELECT id, $2 FROM u
		             ON CONFLICT DO NOTHING RETURNING 1)
		SELECT COALESCE((SELECT id::text FROM u), ''), EXISTS (SELECT 1 FROM ins)`,
		normaliseEmail(email), role).Scan(&userID, &inserted)
	if err != nil {
		return false, fmt.Errorf("grant %s: %w", role, err)
	}
	if userID == "" {
		return false, fmt.Errorf("%w %s", ErrNoAccount, normaliseEmail(email))
	}
	return inserted, nil
}

// GrantTx gives userID each of roles inside the caller's transaction (an
// account being created). Granting a role the account holds is harmless.
func GrantTx(ctx context.Context, tx pgx.Tx, userID string, roles ...string) error {
	for _, role := range roles {
		if err := CheckGrantable(role); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_roles (user_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING`, userID, role); err != nil {
			return fmt.Errorf("grant %s: %w", role, err)
		}
	}
	return nil
}

// Revoke takes the role away from the account with email, reporting whether
// it had it.
func (s *Service) Revoke(ctx context.Context, email, role string) (bool, error) {
	if err := CheckGrantable(role); err != nil {
		return false, err
	}
	var userID string
	var deleted bool
	err := s.pool.QueryRow(ctx, `
		WITH u AS (SELECT id FROM users WHERE email = $1),
		     del AS (DELETE FROM user_roles WHERE role = $2 AND user_id IN (SELECT id FROM u) RETURNING 1)
		SELECT COALESCE((SELECT id::text FROM u), ''), EXISTS (SELECT 1 FROM del)`,
		normaliseEmail(email), role).Scan(&userID, &deleted)
	if err != nil {
		return false, fmt.Errorf("revoke %s: %w", role, err)
	}
	if userID == "" {
		return false, fmt.Errorf("%w %s", ErrNoAccount, normaliseEmail(email))
	}
	return deleted, nil
}

// IsEditorialStaff reports whether userID holds an editorial role (editor,
// revisor or super_admin): the people content may be shared with.
func (s *Service) IsEditorialStaff(ctx context.Context, userID string) (bool, error) {
	if _, err := parseUserID(userID); err != nil {
		return false, nil
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM user_roles WHERE user_id = $1 AND role IN ('editor', 'revisor', 'super_admin'))`,
		userID).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("is editorial staff: %w", err)
	}
	return ok, nil
}

// IsReviewer reports whether the account userID may review content: it holds
// revisor or super_admin (core/editorial assigns reviewers with it).
func (s *Service) IsReviewer(ctx context.Context, userID string) (bool, error) {
	if _, err := parseUserID(userID); err != nil {
		return false, nil
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM user_roles WHERE user_id = $1 AND role IN ('revisor', 'super_admin'))`,
		userID).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("is reviewer: %w", err)
	}
	return ok, nil
}
