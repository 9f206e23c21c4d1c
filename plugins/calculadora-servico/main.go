//go:build !js

// Command calculadora-servico suggests the price of a veterinary service from
// its costs, taxes and card fees, and the margin the professional wants.
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
