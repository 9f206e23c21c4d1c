package media

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/content"
)

// The Service shows content hooks the assets an item's fields point at.
var _ content.MediaLookup = (*Service)(nil)

// Lookup returns the assets among ids as content hooks see them; ids that
// are not assets are absent.
func (s *Service) Lookup(ctx context.Context, ids []string) (map[string]content.MediaInfo, error) {
	return lookup(ctx, s.pool, ids)
}

// PoolLookup is the same lookup on a bare pool, for wiring the content
// platform before the media library is built.
type PoolLookup struct{ Pool *pgxpool.Pool }

// Lookup implements content.MediaLookup.
func (l PoolLookup) Lookup(ctx context.Context, ids []string) (map[string]content.MediaInfo, error) {
	return lookup(ctx, l.Pool, ids)
}

func lookup(ctx context.Context, pool *pgxpool.Pool, ids []string) (map[string]content.MediaInfo, error) {
	sums, err := (&Service{pool: pool}).Summaries(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]content.MediaInfo, len(sums))
	for id, m := range sums {
		out[id] = content.MediaInfo{ID: m.ID, Kind: string(m.Kind), State: string(m.State),
			ProgressPercent: m.ProgressPercent, DurationSeconds: m.DurationSeconds, Error: m.Error}
	}
	return out, nil
}
