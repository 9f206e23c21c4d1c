package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// exportFile is one file of a member's data export (the shape of the SDK's
// ExportFile, which the LGPD hooks hand to the core).
type exportFile = sdk.ExportFile

// exportUser returns the member's favourites: the only personal data this
// plugin keeps (the diseases themselves are editorial content).
func exportUser(ctx context.Context, host *sdk.Host, userID string) ([]exportFile, error) {
	var favs []struct {
		Slug      string `json:"slug"`
		Name      string `json:"name"`
		CreatedAt string `json:"created_at"`
		ItemID    string `json:"item_id"`
	}
	err := host.Query(ctx, &favs, `SELECT f.item_id, coalesce(d.slug, '') AS slug, coalesce(d.name, '') AS name,
			to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
		  FROM favorites f LEFT JOIN diseases d ON d.item_id = f.item_id
		 WHERE f.user_id = $1 ORDER BY f.created_at, f.item_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("export favorites: %w", err)
	}
	type fav struct {
		Disease   string `json:"doenca"`
		Slug      string `json:"slug,omitempty"`
		ItemID    string `json:"id_do_conteudo"`
		CreatedAt string `json:"favoritada_em"`
	}
	out := struct {
		Favorites []fav `json:"doencas_favoritas"`
	}{Favorites: []fav{}}
	for _, f := range favs {
		name := f.Name
		if name == "" {
			name = "(doença não publicada no momento)"
		}
		out.Favorites = append(out.Favorites, fav{Disease: name, Slug: f.Slug, ItemID: f.ItemID, CreatedAt: f.CreatedAt})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export favorites: %w", err)
	}
	return []exportFile{{Name: "doencas-favoritas.json", Data: data}}, nil
}

// deleteUser erases the member's favourites (idempotent).
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	if _, err := host.Exec(ctx, `DELETE FROM favorites WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("delete favorites: %w", err)
	}
	return nil
}
