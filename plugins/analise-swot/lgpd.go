package main

import (
	"context"
	"fmt"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// exportUser is every SWOT analysis of the member, for their data export
// (the member's right to a copy of their data).
func exportUser(ctx context.Context, host *sdk.Host, userID string) ([]sdk.ExportFile, error) {
	var out []Analysis
	if err := host.Query(ctx, &out, `SELECT `+columns+` FROM analyses WHERE user_id = $1::uuid ORDER BY created_at, id`, userID); err != nil {
		return nil, fmt.Errorf("export analyses: %w", err)
	}
	if out == nil {
		out = []Analysis{}
	}
	f, err := sdk.JSONFile("analises-swot.json", map[string]any{"analises": out})
	if err != nil {
		return nil, err
	}
	return []sdk.ExportFile{f}, nil
}

// deleteUser erases the member's analyses when their account is deleted;
// running it again deletes nothing more.
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	if _, err := host.Exec(ctx, `DELETE FROM analyses WHERE user_id = $1::uuid`, userID); err != nil {
		return fmt.Errorf("delete analyses: %w", err)
	}
	return nil
}
