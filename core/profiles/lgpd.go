package profiles

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's profile row, as stored.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	rows, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(p) FROM profiles p WHERE p.user_id = $1`, userID)
	if err != nil || len(rows) == 0 {
		return map[string]any{}, err
	}
	return rows[0], nil
}

// AvatarKey is the stored file of userID's avatar, "" when none is ours.
func (s *Service) AvatarKey(ctx context.Context, userID string) (string, error) {
	var url string
	err := s.pool.QueryRow(ctx, `SELECT avatar_url FROM profiles WHERE user_id = $1`, userID).Scan(&url)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return "", nil
		}
		return "", fmt.Errorf("avatar: %w", err)
	}
	key, ok := s.store.KeyFromURL(url)
	if !ok {
		return "", nil
	}
	return key, nil
}

// EraseAvatar removes userID's avatar file (the profile row goes with the
// account) and clears the address, so a retry finds nothing.
func (s *Service) EraseAvatar(ctx context.Context, userID string) (int64, error) {
	key, err := s.AvatarKey(ctx, userID)
	if err != nil || key == "" {
		return 0, err
	}
	if err := s.store.Delete(ctx, key); err != nil {
		return 0, fmt.Errorf("delete avatar: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE profiles SET avatar_url = '' WHERE user_id = $1`, userID); err != nil {
		return 0, fmt.Errorf("clear avatar: %w", err)
	}
	return 1, nil
}
