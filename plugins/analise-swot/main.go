// Command analise-swot lets each user create, edit, list and delete SWOT
// analyses (four quadrants of ordered items). It is a custom-view tool: the
// page is plugins/analise-swot/web/View.tsx; the data lives in the plugin's own
// PostgreSQL schema, always filtered by the signed-in user.
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
