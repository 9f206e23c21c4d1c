package points

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/postgres"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's VetCoins ledger and totals.
func (l *Ledger) ExportUserData(ctx context.Context, userID string) (any, error) {
	ledger, err := lgpd.Rows(ctx, l.pool, `SELECT json_build_object('id', id, 'valor', amount, 'tipo', kind,
		'chave', idempotency_key, 'detalhes', metadata, 'em', created_at) FROM points_ledger WHERE user_id = $1 ORDER BY id`, userID)
	if err != nil {
		return nil, err
	}
	totals, err := lgpd.Rows(ctx, l.pool, `SELECT to_jsonb(t) FROM user_total_points t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"lancamentos": ledger, "totais": totals}, nil
}

// Anonymise keeps a deleted member's ledger entries for the accounts
// (amount, kind and date unchanged, so the ledger still adds up) but
// detaches them from the person: no account, a key without their ids, no
// metadata. The member's totals row goes with the account.
func (l *Ledger) Anonymise(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := postgres.InTx(ctx, l.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT set_config('vetclube.anonymise_ledger', 'on', true)`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE points_ledger SET user_id = NULL, idempotency_key = 'anonimizado:' || id,
			metadata = '{}'::jsonb WHERE user_id = $1`, userID)
		if err != nil {
			return fmt.Errorf("anonymise ledger: %w", err)
		}
		n = tag.RowsAffected()
		return nil
	})
	return n, err
}
