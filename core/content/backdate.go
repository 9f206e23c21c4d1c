package content

import (
	"context"
	"fmt"
	"time"
)

// Backdate dates a published item as if it had been created and published
// at: imported and demo content keep their original dates. Only the dates
// change; the item's versions and revisions are left as they are.
func (s *Store) Backdate(ctx context.Context, id string, at time.Time) error {
	_, err := s.pool.Exec(ctx, `WITH i AS (
			UPDATE content_items SET created_at = $2, updated_at = $2, published_at = $2 WHERE id = $1 RETURNING id)
		UPDATE content_published SET published_at = $2, last_published_at = $2 WHERE item_id = (SELECT id FROM i)`,
		id, at)
	if err != nil {
		return fmt.Errorf("backdate item %s: %w", id, err)
	}
	return nil
}
