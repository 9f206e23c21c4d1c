package roles

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

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
	return userByID(ctx, s.pool, userID)
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

// GrantToUser gives the account userID the role on behalf of the signed-in
// administrator. Granting a role the account already has changes nothing.
func (s *Service) GrantToUser(ctx context.Context, userID, role string) (AdminUser, error) {
	id, err := parseUserID(userID)
	if err != nil {
		return AdminUser{}, err
	}
	if !slices.Contains(Grantable, role) {
		return AdminUser{}, errInvalidRole()
	}
	var out AdminUser
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO user_roles (user_id, role) SELECT id, $2 FROM users WHERE id = $1
			ON CONFLICT DO NOTHING`, id, role); err != nil {
			return fmt.Errorf("grant %s: %w", role, err)
		}
		out, err = userByID(ctx, tx, id)
		return err
	})
	if err == nil {
		s.changed(id)
	}
	return out, err
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
	if err == nil {
		s.changed(id)
	}
	return out, err
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
		u, err := svc.GrantToUser(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "role"))
		if err != nil {
			return err
		}
		auditRoleChange(r, log, "role granted", core.PrincipalFrom(r.Context()).UserID, u.ID)
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

// auditRoleChange leaves a trace of who changed whose access.
func auditRoleChange(r *http.Request, log *slog.Logger, what, actorID, userID string) {
	if log != nil {
		log.InfoContext(r.Context(), what, "by", actorID, "user_id", userID, "role", chi.URLParam(r, "role"))
	}
}
