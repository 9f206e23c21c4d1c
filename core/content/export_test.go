package content

import "context"

// ItemsReferencingAsset lists the items whose video, image or file fields hold
// assetID (see ItemsReferencingAssets).
func (s *Store) ItemsReferencingAsset(ctx context.Context, assetID, visibleTo string) ([]AssetRef, error) {
	refs, err := s.ItemsReferencingAssets(ctx, []string{assetID}, visibleTo)
	if err != nil {
		return nil, err
	}
	if refs[assetID] == nil {
		return []AssetRef{}, nil
	}
	return refs[assetID], nil
}
