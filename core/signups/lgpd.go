package signups

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's event sign-ups and waiting lists.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	signups, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM signups t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	waits, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM signup_waitlist t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"inscricoes": signups, "lista_de_espera": waits}, nil
}
