// Command diagnostico-imagem gives a veterinarian a structured second look
// at an image they uploaded (radiograph, ultrasound still, cytology or
// dermatology photo) through the core's tool files and the core's AI
// (host.AI): findings, ranked differentials with reasoning and next exams,
// always as suggestive findings to be confirmed by a radiologist's report.
// Cases are private to the member, who may delete a case and its image.
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
