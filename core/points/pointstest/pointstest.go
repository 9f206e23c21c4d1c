// Package pointstest holds the points ledger's test helpers: reads that
// only tests need, kept out of the service's API.
package pointstest

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// LedgerSum is the sum of userID's ledger rows: what the balance must equal.
func LedgerSum(ctx context.Context, pool *pgxpool.Pool, userID string) (int, error) {
	var sum int
	err := pool.QueryRow(ctx, `SELECT coalesce(sum(amount), 0) FROM points_ledger WHERE user_id = $1`, userID).Scan(&sum)
	if err != nil {
		return 0, fmt.Errorf("sum ledger: %w", err)
	}
	return sum, nil
}
