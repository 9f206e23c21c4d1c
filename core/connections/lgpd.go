package connections

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's connections and requests (either side) and
// the members they blocked.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	conns, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(c) FROM connections c WHERE c.requester_id = $1 OR c.receiver_id = $1 ORDER BY c.created_at`, userID)
	if err != nil {
		return nil, err
	}
	blocks, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(b) FROM user_blocks b WHERE b.blocker_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"conexoes": conns, "bloqueios": blocks}, nil
}
