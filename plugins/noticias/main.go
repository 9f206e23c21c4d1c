// Command noticias is VetClube's vet news content type: the core stores,
// lists and serves news items and runs their editorial workflow; this plugin
// declares the type (its fields, its page at /noticias-veterinarias) and
// answers the write hooks: it computes the reading time and checks that a
// source link comes with its source's name.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
