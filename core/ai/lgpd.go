package ai

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's VetClube IA conversations with their messages.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	return lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(c) || jsonb_build_object('mensagens',
		coalesce((SELECT jsonb_agg(to_jsonb(m) ORDER BY m.seq) FROM ai_messages m WHERE m.conversation_id = c.id), '[]'::jsonb))
		FROM ai_conversations c WHERE c.user_id = $1 ORDER BY c.created_at`, userID)
}
