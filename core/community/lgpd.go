package community

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/lgpd"
)

// UploadKey is one picture the member uploaded to the feed.
type UploadKey struct {
	Key, Name string
}

// UploadKeys are userID's feed pictures (the full-size file of each).
func (s *Service) UploadKeys(ctx context.Context, userID string) ([]UploadKey, error) {
	rows, err := s.pool.Query(ctx, `SELECT storage_path, id::text || '-' || file_name FROM post_media WHERE uploader_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("post media: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (UploadKey, error) {
		var k UploadKey
		return k, r.Scan(&k.Key, &k.Name)
	})
}

// ExportUserData is the member's feed pictures' records.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	return lgpd.Rows(ctx, s.pool, `SELECT json_build_object('id', id, 'publicacao', item_id, 'arquivo', file_name,
		'tamanho', file_size, 'tipo', mime_type, 'enviada_em', created_at) FROM post_media WHERE uploader_id = $1 ORDER BY created_at`, userID)
}

// ExportAcceptedAnswers is the member's accepted answers: the ones they
// gave (accepted by a post's author) and the ones they accepted.
func (s *Service) ExportAcceptedAnswers(ctx context.Context, userID string) (any, error) {
	return lgpd.Rows(ctx, s.pool, `SELECT json_build_object('publicacao', post_id, 'comentario', comment_id,
		'papel', CASE WHEN answerer_id = $1 THEN 'resposta_dada' ELSE 'resposta_escolhida' END, 'aceita_em', accepted_at)
		FROM community_accepted_answers WHERE answerer_id = $1 OR accepted_by = $1 ORDER BY accepted_at`, userID)
}

// EraseUploads removes userID's feed pictures: files first, then rows, so a
// retry after a failure finds the rest.
func (s *Service) EraseUploads(ctx context.Context, userID string) (int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text, storage_path, coalesce(thumbnail_path, '') FROM post_media WHERE uploader_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("post media: %w", err)
	}
	type media struct{ id, key, thumb string }
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (media, error) {
		var m media
		return m, r.Scan(&m.id, &m.key, &m.thumb)
	})
	if err != nil {
		return 0, fmt.Errorf("post media: %w", err)
	}
	for _, m := range list {
		for _, k := range []string{m.key, m.thumb} {
			if k == "" {
				continue
			}
			if err := s.o.Storage.Delete(ctx, k); err != nil {
				return 0, fmt.Errorf("delete picture: %w", err)
			}
		}
		if _, err := s.pool.Exec(ctx, `DELETE FROM post_media WHERE id = $1`, m.id); err != nil {
			return 0, fmt.Errorf("delete picture row: %w", err)
		}
	}
	return int64(len(list)), nil
}
