// Command assistente-de-carreira helps a veterinarian plan a career with the
// core's AI (host.AI), from the public profile the host gives
// (host.CurrentProfile) and a short questionnaire: a career plan, a CV in
// pt-BR downloadable as PDF, interview practice one question at a time with
// feedback, and a cover letter; every result is saved with its versions.
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
