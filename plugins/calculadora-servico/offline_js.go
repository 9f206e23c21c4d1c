package main

import "github.com/vetclube/vetclube/plugins/sdk/offline"

// In the browser (GOOS=js GOARCH=wasm) the tool answers offline with the
// same handler the server runs; see package offline.
func main() { offline.Serve(Manifest.ID, Handler()) }
