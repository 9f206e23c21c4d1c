// Command simulado-vet is VetClube's question bank with its two tools:
// Simulado Vet (/ferramentas/simulado-vet: timed mock exams over chosen
// areas, resumable, scored by area, with a history) and Quiz de Área
// (/ferramentas/quiz-area: 10-question rounds in one area with immediate
// feedback). One plugin serves both pages (Manifest.Pages) so both read the
// same bank: editors keep the questions in the backoffice as a content type
// with the editorial workflow, and every publish is copied into this
// plugin's own schema (AfterPublish), where attempts are built from it.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin(nil))
}
