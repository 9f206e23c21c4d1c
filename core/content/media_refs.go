package content

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// AssetRef is a content item whose working copy or published snapshot
// points to a media asset.
type AssetRef struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Title string `json:"title"`
}

// ItemsReferencingAsset lists the items whose video or file fields hold
// assetID, in their working copy or in what readers see (an item whose
// draft dropped the asset still shows it until republished). A file field
// may hold the asset's id or a storage key under media/<assetID>/.
func (s *Store) ItemsReferencingAsset(ctx context.Context, assetID string) ([]AssetRef, error) {
	var types, names []string
	for _, t := range s.types.Types() {
		for _, f := range t.Fields {
			if f.Kind == KindVideo || f.Kind == KindFile {
				types, names = append(types, t.ID), append(names, f.Name)
			}
		}
	}
	if len(types) == 0 {
		return []AssetRef{}, nil
	}
	rows, err := s.pool.Query(ctx, `
		SELECT DISTINCT i.type, i.id::text, i.title
		FROM content_items i
		JOIN unnest($1::text[], $2::text[]) AS f(type, name) ON f.type = i.type
		LEFT JOIN content_published p ON p.item_id = i.id
		WHERE i.fields->>f.name = $3 OR p.fields->>f.name = $3
		   OR strpos(i.fields->>f.name, 'media/' || $3 || '/') > 0
		   OR strpos(p.fields->>f.name, 'media/' || $3 || '/') > 0
		ORDER BY i.title, i.id::text`, types, names, assetID)
	if err != nil {
		return nil, fmt.Errorf("content: items referencing asset %s: %w", assetID, err)
	}
	refs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[AssetRef])
	if err != nil {
		return nil, fmt.Errorf("content: items referencing asset %s: %w", assetID, err)
	}
	return refs, nil
}
