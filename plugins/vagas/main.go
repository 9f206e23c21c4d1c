// Command vagas is VetClube's jobs content type (Oportunidades): the core
// stores the jobs and runs their editorial workflow; core/jobs projects the
// published ones for search, saved jobs, applications and alerts. This
// plugin declares the type (its fields, its page at /oportunidades) and
// answers ValidateContent (UF, salary range, how to apply) and
// BeforeTransition (a job is never published already closed).
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
