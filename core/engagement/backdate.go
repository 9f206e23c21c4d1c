package engagement

import (
	"context"
	"fmt"
	"time"
)

// BackdateComment dates a comment as written (and last edited) at: imported
// and demo conversations keep their original order and dates.
func (s *Service) BackdateComment(ctx context.Context, commentID string, at time.Time) error {
	if _, err := s.pool.Exec(ctx, `UPDATE engagement_comments SET created_at = $2, updated_at = $2 WHERE id = $1`, commentID, at); err != nil {
		return fmt.Errorf("backdate comment %s: %w", commentID, err)
	}
	return nil
}
