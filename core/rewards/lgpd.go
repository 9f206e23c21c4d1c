package rewards

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's redemptions (codes included) and the
// certificate frames they unlocked.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	red, err := lgpd.Rows(ctx, s.pool, `SELECT json_build_object('id', id, 'recompensa', title, 'tipo', kind, 'custo', cost,
		'situacao', status, 'codigo', code, 'instrucoes', instructions, 'motivo_estorno', refund_reason,
		'estornado_em', refunded_at, 'entregue_em', delivered_at, 'em', created_at)
		FROM reward_redemptions WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, err
	}
	frames, err := lgpd.Rows(ctx, s.pool, `SELECT json_build_object('moldura', frame, 'em', created_at)
		FROM reward_certificate_frames WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"resgates": red, "molduras": frames}, nil
}

// Erase deletes the member's frames and detaches their redemptions (kept,
// without the person, so stock and the vouchers given stay accounted for;
// the code a member received is cleared).
func (s *Service) Erase(ctx context.Context, userID string) (int64, error) {
	var n int64
	tag, err := s.pool.Exec(ctx, `DELETE FROM reward_certificate_frames WHERE user_id = $1`, userID)
	if err != nil {
		return 0, err
	}
	n += tag.RowsAffected()
	// Staff refunds were audited with the member's id: it goes too.
	if _, err := s.pool.Exec(ctx, `UPDATE reward_audit SET details = details - 'user_id' WHERE details->>'user_id' = $1`, userID); err != nil {
		return n, err
	}
	tag, err = s.pool.Exec(ctx, `UPDATE reward_redemptions SET user_id = NULL, code = '', idempotency_key = 'anonimizado:' || id
		WHERE user_id = $1`, userID)
	if err != nil {
		return n, err
	}
	return n + tag.RowsAffected(), nil
}
