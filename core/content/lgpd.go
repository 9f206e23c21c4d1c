package content

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is every content item the member wrote (community posts
// and, for staff, the items they created), with its current data.
func (s *Store) ExportUserData(ctx context.Context, userID string) (any, error) {
	return lgpd.Rows(ctx, s.pool, `SELECT json_build_object('id', i.id, 'tipo', i.type, 'estado', i.status,
		'titulo', i.title, 'resumo', i.summary, 'campos', i.fields, 'criado_em', i.created_at, 'atualizado_em', i.updated_at)
		FROM content_items i WHERE i.author_id = $1 ORDER BY i.created_at`, userID)
}
