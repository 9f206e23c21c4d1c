//go:build !js

// Command calculadoras is the VetClube clinical calculators tool: drug dose,
// energy requirements, fluid therapy, transfusion volume, body surface area
// and unit conversions. Formulas and their references: README.md.
package main

import (
	"net/http"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func main() {
	sdk.Serve(sdk.Tool{
		Manifest: Manifest,
		Handler:  func(*sdk.Host) http.Handler { return Handler() },
	})
}
