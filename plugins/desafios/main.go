// Command desafios is VetClube's challenges content type: the core stores
// the challenges, runs their editorial workflow and keeps the members'
// participations, scores, ranking and badges (core/challenges); this plugin
// declares the type (its fields, its page at /desafios) and answers the
// ValidateContent hook: a coherent period, whole points, a clinical case
// that has its history and findings, and questions whose expected answer is
// one of their alternatives.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
