package subscriptions

import "context"

// RecordUsage counts one use of limitType, refusing atomically when a
// non-premium user is at the limit (so concurrent uses cannot overshoot).
func (s *Service) RecordUsage(ctx context.Context, userID, limitType string) (LimitCheck, error) {
	return s.RecordUsageTx(ctx, s.pool, userID, limitType)
}
