// Command doencas is VetClube's veterinary diseases reference
// (/ferramentas/doencas): a tool whose content — one item per disease —
// editors maintain in the backoffice with the editorial workflow. The core
// stores the items; this plugin declares their type, checks them
// (ValidateContent), keeps a search projection of the published ones in its
// own schema (AfterPublish, BeforeTransition) and answers the tool's page:
// search tolerant of accents and typos, filters, a disease's page and each
// member's private favourites.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
