// Command social-media-ia writes posts for a clinic's Instagram, Facebook,
// WhatsApp status and LinkedIn with the core's AI (host.AI): the post within
// the network's length, hashtags, a call to action, an image suggestion and
// three variations, a weekly calendar of seven posts, a saved clinic profile
// and a history with favourites, each member's own. Posts follow the CFMV
// advertising rules; doses of drugs never reach a post for the lay public.
package main

import (
	"context"
	"net/http"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func main() {
	sdk.Serve(sdk.Tool{
		Manifest:   Manifest,
		Migrations: Migrations,
		Prompts:    Prompts,
		Handler:    func(h *sdk.Host) http.Handler { return Handler(h) },
		ExportUser: func(ctx context.Context, h *sdk.Host, userID string) ([]sdk.ExportFile, error) {
			files, err := exportUser(ctx, h, userID)
			return sdk.ExportFiles(files), err
		},
		DeleteUser: deleteUser,
	})
}
