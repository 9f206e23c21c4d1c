package engagement

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's comments, reactions, favorites, progress,
// enrolments and views.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	out := map[string]any{}
	for name, table := range map[string]string{
		"comentarios": "engagement_comments", "curtidas_em_comentarios": "engagement_comment_reactions",
		"reacoes": "engagement_reactions", "favoritos": "engagement_favorites", "progresso": "engagement_progress",
		"inscricoes": "engagement_enrolments", "visualizacoes": "engagement_views",
	} {
		rows, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM `+table+` t WHERE t.user_id = $1`, userID)
		if err != nil {
			return nil, err
		}
		out[name] = rows
	}
	return out, nil
}
