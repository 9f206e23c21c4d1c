package roles

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/httpx"
)

// Member is someone of the editorial team, as the backoffice offers them for
// review assignments and shared editing: no private profile fields.
type Member struct {
	ID    string   `json:"id"`
	Email string   `json:"email"`
	Name  string   `json:"name"`
	Roles []string `json:"roles"`
}

// maxTeam bounds the list (a team, not the user base).
const maxTeam = 500

// Team lists the accounts holding editor, revisor or super_admin, by name.
func (s *Service) Team(ctx context.Context) ([]Member, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT u.id::text, u.email, trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')),
		       array_agg(r.role ORDER BY r.role)
		FROM user_roles r JOIN users u ON u.id = r.user_id LEFT JOIN profiles p ON p.user_id = u.id
		WHERE r.role IN ('editor', 'revisor', 'super_admin')
		GROUP BY u.id, u.email, p.first_name, p.last_name
		ORDER BY 3, u.email
		LIMIT $1`, maxTeam)
	if err != nil {
		return nil, fmt.Errorf("team: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Member])
	if err != nil {
		return nil, fmt.Errorf("team: %w", err)
	}
	return out, nil
}

// HandleTeam serves GET /api/admin/team: the editorial team, for editors,
// revisors and super admins choosing a reviewer or a co-editor.
func HandleTeam(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		team, err := svc.Team(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, team)
	})
}
