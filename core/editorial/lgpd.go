package editorial

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// EraseActor detaches a deleted member from the editorial history (the
// events keep what happened, without who).
func EraseActor(ctx context.Context, q interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}, userID string) (int64, error) {
	tag, err := q.Exec(ctx, `UPDATE editorial_events SET actor_id = NULL WHERE actor_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("erase editorial actor: %w", err)
	}
	return tag.RowsAffected(), nil
}
