package roles

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/postgres"
)

// pt-BR messages the backoffice shows as they are.
const (
	msgUserNotFound      = "Usuário não encontrado"
	msgOwnSuperAdmin     = "Você não pode remover o seu próprio papel de super administrador."
	msgLastSuperAdmin    = "Não é possível remover o último super administrador."
	msgInvalidRoleFormat = "Papel inválido. Papéis permitidos: %s."
)

func errUserNotFound() error { return core.Errorf(core.ENOTFOUND, msgUserNotFound) }

func errInvalidRole() error {
	return core.Invalid(fmt.Sprintf(msgInvalidRoleFormat, strings.Join(Grantable, ", ")),
		map[string]string{"role": "Papel inválido."})
}

// parseUserID treats anything that is not a UUID as an unknown account, so
// the database never sees a malformed id.
func parseUserID(id string) (string, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return "", errUserNotFound()
	}
	return u.String(), nil
}

// User returns one account as the backoffice shows it.
func (s *Service) User(ctx context.Context, id string) (AdminUser, error) {
	userID, err := parseUserID(id)
	if err != nil {
		return AdminUser{}, err
	}
	u, err := userByID(ctx, s.pool, userID)
	if err != nil {
		return AdminUser{}, err
	}
	return s.withSubscriptionRolesOf(ctx, u)
}

func (s *Service) withSubscriptionRolesOf(ctx context.Context, u AdminUser) (AdminUser, error) {
	users := []AdminUser{u}
	if err := s.withSubscriptionRoles(ctx, users); err != nil {
		return AdminUser{}, err
	}
	return users[0], nil
}

// actAs names the administrator behind this transaction's role changes: the
// trigger on user_roles records them in role_changes with it.
func actAs(ctx context.Context, tx pgx.Tx, actorID string) error {
	if actorID == "" {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT set_config('vetclube.actor_id', $1, true)`, actorID); err != nil {
		return fmt.Errorf("name the acting administrator: %w", err)
	}
	return nil
}

// RoleChange is one line of an account's role history.
type RoleChange struct {
	Role       string    `json:"role"`
	Change     string    `json:"change"` // granted, revoked
	ActorEmail *string   `json:"actor_email"`
	At         time.Time `json:"at"`
}

// maxRoleChanges bounds the history the backoffice shows (newest first).
const maxRoleChanges = 100

// RoleChanges returns who granted or revoked which role of the account id,
// and when, newest first. A change with no actor came from the command line
// or the seed.
func (s *Service) RoleChanges(ctx context.Context, id string) ([]RoleChange, error) {
	userID, err := parseUserID(id)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT c.role, c.change, a.email, c.created_at
		FROM role_changes c LEFT JOIN users a ON a.id = c.actor_id
		WHERE c.user_id = $1
		ORDER BY c.id DESC
		LIMIT $2`, userID, maxRoleChanges)
	if err != nil {
		return nil, fmt.Errorf("role changes: %w", err)
	}
	changes, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RoleChange, error) {
		var c RoleChange
		err := row.Scan(&c.Role, &c.Change, &c.ActorEmail, &c.At)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("role changes: %w", err)
	}
	if len(changes) == 0 {
		if _, err := userByID(ctx, s.pool, userID); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func userByID(ctx context.Context, db queryRower, userID string) (AdminUser, error) {
	var u AdminUser
	err := db.QueryRow(ctx, `
		SELECT u.id::text, u.email, COALESCE(p.first_name, ''), COALESCE(p.last_name, ''),
		       ARRAY['user'] || COALESCE((SELECT array_agg(r.role ORDER BY r.role) FROM user_roles r WHERE r.user_id = u.id), '{}'),
		       u.email_confirmed_at IS NOT NULL, u.created_at
		FROM users u
		LEFT JOIN profiles p ON p.user_id = u.id
		WHERE u.id = $1`, userID).
		Scan(&u.ID, &u.Email, &u.FirstName, &u.LastName, &u.Roles, &u.EmailConfirmed, &u.CreatedAt)
	if postgres.IsNoRows(err) {
		return AdminUser{}, errUserNotFound()
	}
	if err != nil {
		return AdminUser{}, fmt.Errorf("admin user %s: %w", userID, err)
	}
	return u, nil
}

// GrantToUser gives the account userID the role on behalf of actorID (empty
// for the command line). Granting a role the account already has changes
// nothing and records nothing.
func (s *Service) GrantToUser(ctx context.Context, actorID, userID, role string) (AdminUser, error) {
	id, err := parseUserID(userID)
	if err != nil {
		return AdminUser{}, err
	}
	if !slices.Contains(Grantable, role) {
		return AdminUser{}, errInvalidRole()
	}
	var out AdminUser
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := actAs(ctx, tx, actorID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO user_roles (user_id, role) SELECT id, $2 FROM users WHERE id = $1
			ON CONFLICT DO NOTHING`, id, role); err != nil {
			return fmt.Errorf("grant %s: %w", role, err)
		}
		out, err = userByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return AdminUser{}, err
	}
	s.changed(id)
	return s.withSubscriptionRolesOf(ctx, out)
}

// RevokeFromUser takes the role away from the account userID on behalf of
// actorID. Revoking a role the account does not have changes nothing. A super
// administrator cannot drop their own super_admin role, and the last one
// cannot be removed by anybody: both would lock everyone out of the
// backoffice.
func (s *Service) RevokeFromUser(ctx context.Context, actorID, userID, role string) (AdminUser, error) {
	id, err := parseUserID(userID)
	if err != nil {
		return AdminUser{}, err
	}
	if !slices.Contains(Grantable, role) {
		return AdminUser{}, errInvalidRole()
	}
	if role == core.RoleSuperAdmin && id == actorID {
		return AdminUser{}, core.Errorf(core.ECONFLICT, msgOwnSuperAdmin)
	}
	var out AdminUser
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := actAs(ctx, tx, actorID); err != nil {
			return err
		}
		if role == core.RoleSuperAdmin {
			// Locking every super_admin row serialises concurrent revocations
			// (two admins removing each other) so one always remains.
			rows, err := tx.Query(ctx, `SELECT user_id::text FROM user_roles WHERE role = 'super_admin' FOR UPDATE`)
			if err != nil {
				return fmt.Errorf("lock super admins: %w", err)
			}
			admins, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return fmt.Errorf("lock super admins: %w", err)
			}
			if slices.Contains(admins, id) && len(admins) == 1 {
				return core.Errorf(core.ECONFLICT, msgLastSuperAdmin)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM user_roles WHERE user_id = $1 AND role = $2`, id, role); err != nil {
			return fmt.Errorf("revoke %s: %w", role, err)
		}
		out, err = userByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return AdminUser{}, err
	}
	s.changed(id)
	return s.withSubscriptionRolesOf(ctx, out)
}

// HandleGetUser serves GET /api/admin/users/{id} (react-admin's getOne).
func HandleGetUser(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		u, err := svc.User(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, u)
	})
}

// HandleGrantRole serves POST /api/admin/users/{id}/roles/{role}: 200 with the
// account as it now is, also when it already had the role.
func HandleGrantRole(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		actor := core.PrincipalFrom(r.Context()).UserID
		u, err := svc.GrantToUser(r.Context(), actor, chi.URLParam(r, "id"), chi.URLParam(r, "role"))
		if err != nil {
			return err
		}
		auditRoleChange(r, log, "role granted", actor, u.ID)
		return httpx.Encode(w, http.StatusOK, u)
	})
}

// HandleRevokeRole serves DELETE /api/admin/users/{id}/roles/{role}: 200 with
// the account as it now is, also when it did not have the role.
func HandleRevokeRole(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		actor := core.PrincipalFrom(r.Context()).UserID
		u, err := svc.RevokeFromUser(r.Context(), actor, chi.URLParam(r, "id"), chi.URLParam(r, "role"))
		if err != nil {
			return err
		}
		auditRoleChange(r, log, "role revoked", actor, u.ID)
		return httpx.Encode(w, http.StatusOK, u)
	})
}

// HandleRoleChanges serves GET /api/admin/users/{id}/role-changes: the
// account's role history, newest first.
func HandleRoleChanges(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		changes, err := svc.RoleChanges(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, changes)
	})
}

// auditRoleChange logs who changed whose access (role_changes keeps it).
func auditRoleChange(r *http.Request, log *slog.Logger, what, actorID, userID string) {
	if log != nil {
		log.InfoContext(r.Context(), what, "by", actorID, "user_id", userID, "role", chi.URLParam(r, "role"))
	}
}
