package ratelimit

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// EraseKeysNaming deletes the counters whose key names any of needles (a
// deleted member's id or e-mail): they would outlive the account by a
// window at most, but they name it.
func EraseKeysNaming(ctx context.Context, pool *pgxpool.Pool, needles ...string) (int64, error) {
	var n int64
	for _, s := range needles {
		if s == "" {
			continue
		}
		tag, err := pool.Exec(ctx, `DELETE FROM rate_limit_counters WHERE strpos(key, $1) > 0`, s)
		if err != nil {
			return 0, fmt.Errorf("erase rate limit counters: %w", err)
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
