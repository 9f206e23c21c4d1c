package events

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// EraseMentions deletes other members' live events that name a deleted
// member (their id or name in the event's data); the member's own events go
// with the account. Live events are kept a day at most anyway.
func EraseMentions(ctx context.Context, pool *pgxpool.Pool, needles ...string) (int64, error) {
	var n int64
	for _, s := range needles {
		if s == "" {
			continue
		}
		tag, err := pool.Exec(ctx, `DELETE FROM user_events WHERE strpos(data::text, $1) > 0`, s)
		if err != nil {
			return 0, fmt.Errorf("erase live events: %w", err)
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
