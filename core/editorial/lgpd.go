package editorial

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres"
)

// EraseActor detaches a deleted member from the editorial history: the
// events keep what happened, without who (actor and address).
func EraseActor(ctx context.Context, pool *pgxpool.Pool, userID string) (int64, error) {
	var n int64
	err := postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT set_config('vetclube.anonymise_actor', 'on', true)`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE editorial_events SET actor_id = NULL, ip = NULL WHERE actor_id = $1`, userID)
		if err != nil {
			return fmt.Errorf("erase editorial actor: %w", err)
		}
		n = tag.RowsAffected()
		return nil
	})
	return n, err
}
