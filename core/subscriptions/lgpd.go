package subscriptions

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's subscription state and its history.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	sub, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM subscribers t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	changes, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM entitlement_changes t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"assinante": sub, "historico": changes}, nil
}
