// Command prontuario-vet is the medical record of a vet's own patients:
// patients with their tutors, and per patient the dated records
// (consultations with vital signs checked against each species' reference
// ranges, vaccinations with their next dose, prescriptions with the dose
// computed by the calculators' formula, exam results with attachments,
// weights and notes). Every row belongs to one vet and is only ever read
// filtered by the signed-in user; edits keep the previous text.
package main

import (
	"net/http"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func main() {
	sdk.Serve(sdk.Tool{
		Manifest:   Manifest,
		Migrations: Migrations,
		Handler:    func(h *sdk.Host) http.Handler { return Handler(h) },
		ExportUser: exportUser,
		DeleteUser: deleteUser,
	})
}
