package checkin

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's daily check-ins.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	return lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM checkins t WHERE t.user_id = $1`, userID)
}
