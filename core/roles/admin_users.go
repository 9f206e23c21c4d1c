package roles

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// AdminUser is one account as the backoffice lists it.
type AdminUser struct {
	ID             string    `json:"id"`
	Email          string    `json:"email"`
	FirstName      string    `json:"first_name"`
	LastName       string    `json:"last_name"`
	Roles          []string  `json:"roles"`
	EmailConfirmed bool      `json:"email_confirmed"`
	CreatedAt      time.Time `json:"created_at"`
}

// UserQuery selects a page of accounts.
type UserQuery struct {
	Offset, Limit int
	SortField     string // email, created_at
	Descending    bool
	Search        string // part of the email or name
	Role          string // only accounts holding this extra role
}

const (
	maxPage   = 100
	maxSearch = 200 // an email is at most 254 bytes; a search is a part of one
)

var sortColumns = map[string]string{"id": "u.id", "email": "u.email", "created_at": "u.created_at"}

// ListUsers returns one page of accounts with their roles, and the total
// matching the filter.
func (s *Service) ListUsers(ctx context.Context, q UserQuery) ([]AdminUser, int, error) {
	col, ok := sortColumns[q.SortField]
	if !ok {
		col = "u.created_at"
	}
	dir := "ASC"
	if q.Descending {
		dir = "DESC"
	}
	search := ""
	if s := strings.TrimSpace(q.Search); s != "" {
		search = "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(s)) + "%"
	}
	rows, err := s.pool.Query(ctx, `
		SELECT u.id::text, u.email, COALESCE(p.first_name, ''), COALESCE(p.last_name, ''),
		       ARRAY['user'] || COALESCE((SELECT array_agg(r.role ORDER BY r.role) FROM user_roles r WHERE r.user_id = u.id), '{}'),
		       u.email_confirmed_at IS NOT NULL, u.created_at, count(*) OVER ()
		FROM users u
		LEFT JOIN profiles p ON p.user_id = u.id
		WHERE ($1 = '' OR u.email LIKE $1 OR lower(p.first_name || ' ' || p.last_name) LIKE $1)
		  AND ($2 = '' OR EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = $2))
		ORDER BY `+col+` `+dir+`, u.id
		OFFSET $3 LIMIT $4`, search, q.Role, q.Offset, q.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	users := []AdminUser{}
	total := 0
	for rows.Next() {
		var u AdminUser
		if err := rows.Scan(&u.ID, &u.Email, &u.FirstName, &u.LastName, &u.Roles, &u.EmailConfirmed, &u.CreatedAt, &total); err != nil {
			return nil, 0, fmt.Errorf("list users: %w", err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	if err := s.withSubscriptionRoles(ctx, users); err != nil {
		return nil, 0, err
	}
	if len(users) == 0 && q.Offset > 0 {
		// count(*) OVER () has no row to ride on past the end.
		if err := s.pool.QueryRow(ctx, `
			SELECT count(*) FROM users u LEFT JOIN profiles p ON p.user_id = u.id
			WHERE ($1 = '' OR u.email LIKE $1 OR lower(p.first_name || ' ' || p.last_name) LIKE $1)
			  AND ($2 = '' OR EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = $2))`,
			search, q.Role).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count users: %w", err)
		}
	}
	return users, total, nil
}

// userListParams bounds the backoffice user list.
var userListParams = httpx.ListParams{DefaultLimit: 25, MaxLimit: maxPage, SortFields: []string{"id", "email", "created_at"}}

// parseUserQuery reads react-admin's ra-data-simple-rest parameters:
// range=[0,24], sort=["email","ASC"], filter={"q":"ana","role":"editor"}.
func parseUserQuery(r *http.Request) (UserQuery, error) {
	var f struct {
		Q    string `json:"q"`
		Role string `json:"role"`
	}
	lq, err := httpx.ParseList(r, userListParams, &f)
	if err != nil {
		return UserQuery{}, err
	}
	if utf8.RuneCountInString(f.Q) > maxSearch {
		return UserQuery{}, core.Invalid("Parâmetros de consulta inválidos.",
			map[string]string{"filter": fmt.Sprintf("A busca aceita até %d caracteres.", maxSearch)})
	}
	if f.Role != "" && CheckGrantable(f.Role) != nil {
		return UserQuery{}, core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"filter": "Papel inválido."})
	}
	return UserQuery{Offset: lq.Offset, Limit: lq.Limit, SortField: lq.SortField, Descending: lq.Descending,
		Search: f.Q, Role: f.Role}, nil
}

// HandleListUsers serves GET /api/admin/users for the backoffice: a JSON
// array plus Content-Range (the ra-data-simple-rest convention).
func HandleListUsers(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		q, err := parseUserQuery(r)
		if err != nil {
			return err
		}
		users, total, err := svc.ListUsers(r.Context(), q)
		if err != nil {
			return err
		}
		end := q.Offset + len(users) - 1
		if len(users) == 0 {
			end = q.Offset
		}
		w.Header().Set("Content-Range", fmt.Sprintf("users %d-%d/%d", q.Offset, end, total))
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, users)
	})
}
