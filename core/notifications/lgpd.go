package notifications

import (
	"context"
	"fmt"
	"strings"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's notifications and preferences.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	list, err := lgpd.Rows(ctx, s.pool, `SELECT json_build_object('id', id, 'tipo', type, 'titulo', title, 'mensagem', message,
		'lida', is_read, 'em', created_at) FROM notifications WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, err
	}
	prefs, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM notification_preferences t WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"notificacoes": list, "preferencias": prefs}, nil
}

// RemovedName replaces a deleted member's name in what others were told.
const RemovedName = "Usuário removido"

// ScrubActor removes a deleted member from other members' notifications:
// their id from the actor lists and keys, their name (fullName) from the
// texts. The member's own notifications go with the account.
func (s *Service) ScrubActor(ctx context.Context, userID, fullName string) (int64, error) {
	name := strings.TrimSpace(fullName)
	tag, err := s.pool.Exec(ctx, `UPDATE notifications SET
			related_user_id = CASE WHEN related_user_id = $1 THEN NULL ELSE related_user_id END,
			group_actor_ids = array_remove(group_actor_ids, $1::uuid),
			idempotency_key = replace(idempotency_key, $1::text, 'removido'),
			title = CASE WHEN $2 = '' THEN title ELSE replace(title, $2, $3) END,
			message = CASE WHEN $2 = '' THEN message ELSE replace(message, $2, $3) END
		WHERE user_id <> $1 AND (related_user_id = $1 OR $1::uuid = ANY (group_actor_ids)
			OR idempotency_key LIKE '%' || $1::text || '%'
			OR ($2 <> '' AND (strpos(title, $2) > 0 OR strpos(message, $2) > 0)))`, userID, name, RemovedName)
	if err != nil {
		return 0, fmt.Errorf("scrub notifications: %w", err)
	}
	return tag.RowsAffected(), nil
}

// NotifyLGPD tells userID something about their data requests, once per key.
func (s *Service) NotifyLGPD(ctx context.Context, userID, key, title, body, url string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO notifications (user_id, type, title, message, idempotency_key)
		VALUES ($1, 'conta', $2, $3, $4) ON CONFLICT (idempotency_key) DO NOTHING`, userID, title, body, key)
	return err
}
