package content

import (
	"context"
	"fmt"
)

// AssetRef is a content item whose working copy or published snapshot
// points to a media asset.
type AssetRef struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Title string `json:"title"`
	// Hidden is an item the reader may not see (another editor's, not
	// shared): only its type is told, and ID and Title are empty.
	Hidden bool `json:"hidden,omitempty"`
}

// ItemsReferencingAssets lists, by asset id, the items whose video, image or
// file fields hold one of assetIDs, in their working copy or in what readers see
// (an item whose draft dropped the asset still shows it until republished).
// An image or file field may hold the asset's id or a storage key under
// media/<assetID>/. One statement for a whole page of the media library.
// With visibleTo set (an editor who sees only own and shared items), the
// items that editor may not see are listed Hidden: counted, never named.
func (s *Store) ItemsReferencingAssets(ctx context.Context, assetIDs []string, visibleTo string) (map[string][]AssetRef, error) {
	out := make(map[string][]AssetRef, len(assetIDs))
	var types, names []string
	for _, t := range s.types.Types() {
		for _, f := range t.Fields {
			if f.Kind == KindVideo || f.Kind == KindFile || f.Kind == KindImage {
				types, names = append(types, t.ID), append(names, f.Name)
			}
		}
	}
	if len(types) == 0 || len(assetIDs) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `
		SELECT DISTINCT a.id, i.type, i.id::text, i.title,
			nullif($4, '') IS NULL OR `+editorSeesItem("nullif($4, '')")+`
		FROM content_items i
		JOIN unnest($1::text[], $2::text[]) AS f(type, name) ON f.type = i.type
		LEFT JOIN content_published p ON p.item_id = i.id
		JOIN unnest($3::text[]) AS a(id)
		  ON i.fields->>f.name = a.id OR p.fields->>f.name = a.id
		  OR strpos(i.fields->>f.name, 'media/' || a.id || '/') > 0
		  OR strpos(p.fields->>f.name, 'media/' || a.id || '/') > 0
		ORDER BY a.id, i.title, i.id::text`, types, names, assetIDs, visibleTo)
	if err != nil {
		return nil, fmt.Errorf("content: items referencing assets: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var asset string
		var r AssetRef
		var visible bool
		if err := rows.Scan(&asset, &r.Type, &r.ID, &r.Title, &visible); err != nil {
			return nil, fmt.Errorf("content: items referencing assets: %w", err)
		}
		if !visible {
			r = AssetRef{Type: r.Type, Hidden: true}
		}
		out[asset] = append(out[asset], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("content: items referencing assets: %w", err)
	}
	return out, nil
}
