package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// The plan names VetClube's own courses (content type "cursos") and the
// cover letter may be written for a job published in Oportunidades (content
// type "vagas"), both read through host.PublishedContent: published items
// only, their public fields only.
const (
	coursesType = "cursos"
	jobsType    = "vagas"
)

// PlanCourse is a VetClube course a plan recommends, with its page.
type PlanCourse struct {
	Title string `json:"titulo"`
	URL   string `json:"url"`
}

// courseCatalogue gathers the courses a plan may name: the ones matching
// each area of interest and specialty the member wrote, then the newest,
// at most 40.
func courseCatalogue(ctx context.Context, host *sdk.Host, q Questionnaire) ([]sdk.PublishedItem, error) {
	seen := map[string]bool{}
	var out []sdk.PublishedItem
	add := func(items []sdk.PublishedItem) {
		for _, it := range items {
			if !seen[it.ID] && len(out) < 40 {
				seen[it.ID] = true
				out = append(out, it)
			}
		}
	}
	terms := 0
	for _, t := range strings.FieldsFunc(q.Areas+","+q.Specialties, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		t = strings.TrimSpace(t)
		if utf8.RuneCountInString(t) < 3 || terms == 6 {
			continue
		}
		terms++
		items, err := host.PublishedContent.List(ctx, coursesType, sdk.PublishedQuery{Text: clip(t, 100), Limit: 10})
		if err != nil {
			return nil, err
		}
		add(items)
	}
	items, err := host.PublishedContent.List(ctx, coursesType, sdk.PublishedQuery{Limit: 30})
	if err != nil {
		return nil, err
	}
	add(items)
	return out, nil
}

// catalogueText is the courses as the prompt lists them.
func catalogueText(items []sdk.PublishedItem) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		s := "«" + it.Title + "»"
		if it.Summary != "" {
			s += " (" + clip(it.Summary, 140) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// matchCourses keeps the names the model chose that are courses of the
// catalogue (an invented course is dropped), linked to their pages.
func matchCourses(names []string, catalogue []sdk.PublishedItem) []PlanCourse {
	out := []PlanCourse{}
	used := map[string]bool{}
	for _, n := range names {
		key := strings.ToLower(strings.Trim(strings.TrimSpace(n), "«»\"'"))
		for _, it := range catalogue {
			if strings.ToLower(it.Title) == key && !used[it.ID] {
				used[it.ID] = true
				out = append(out, PlanCourse{Title: it.Title, URL: it.URL})
			}
		}
	}
	return out
}

// JobChoice is a published job as the letter's picker shows it.
type JobChoice struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Organization string `json:"organization"`
	City         string `json:"city"`
	State        string `json:"state"`
	URL          string `json:"url"`
}

func jobChoice(it sdk.PublishedItem) JobChoice {
	return JobChoice{ID: it.ID, Title: it.Title, Organization: it.String("organization"), City: it.String("city"),
		State: it.String("state"), URL: it.URL}
}

var contractNames = map[string]string{"clt": "CLT", "pj": "PJ", "estagio": "Estágio", "residencia": "Residência",
	"plantao": "Plantão", "freelance": "Freelance"}
var workplaceNames = map[string]string{"remoto": "remoto", "hibrido": "híbrido", "presencial": "presencial"}

// jobText is a published job as the letter's prompt reads it: its title
// with the organization and place, and a description from its fields.
func jobText(it sdk.PublishedItem) (title, description string) {
	title = it.Title
	if org := it.String("organization"); org != "" {
		title += " — " + org
	}
	place := strings.TrimSpace(strings.Trim(it.String("city")+"/"+it.String("state"), "/"))
	if place != "" {
		title += " (" + place + ")"
	}
	var d []string
	if c := contractNames[it.String("contract")]; c != "" {
		d = append(d, "Contrato: "+c+".")
	}
	if w := workplaceNames[it.String("workplace")]; w != "" {
		d = append(d, "Modalidade: "+w+".")
	}
	for _, f := range [][2]string{{"area", "Área"}, {"specialty", "Especialidade"}} {
		if v := it.String(f[0]); v != "" {
			d = append(d, f[1]+": "+v+".")
		}
	}
	if it.Summary != "" {
		d = append(d, it.Summary)
	}
	if req := it.String("requirements"); req != "" {
		d = append(d, "Requisitos: "+req)
	}
	return clip(title, 200), clip(strings.Join(d, "\n"), 4000)
}

// listJobs answers GET /jobs?q=: published jobs to write a letter for.
func listJobs(w http.ResponseWriter, r *http.Request, host *sdk.Host) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > 100 || sdk.HasControlCharacter(q) {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Busca inválida.", map[string]string{"q": "Use até 100 caracteres."})
		return
	}
	items, err := host.PublishedContent.List(r.Context(), jobsType, sdk.PublishedQuery{Text: q, Limit: 20})
	if err != nil && !isNotFound(err) {
		sdk.WriteHostError(w, err, "Não foi possível carregar as vagas. Tente novamente.")
		return
	}
	out := []JobChoice{}
	for _, it := range items {
		out = append(out, jobChoice(it))
	}
	// available is false while Oportunidades publishes no job type.
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": out, "available": err == nil})
}

// publishedJob reads the job a letter is for; an unknown one is errNotFound.
func publishedJob(ctx context.Context, host *sdk.Host, id string) (sdk.PublishedItem, error) {
	it, err := host.PublishedContent.Get(ctx, jobsType, id)
	if isNotFound(err) {
		return sdk.PublishedItem{}, errNotFound
	}
	if err != nil {
		return sdk.PublishedItem{}, fmt.Errorf("job %s: %w", id, err)
	}
	return it, nil
}

func isNotFound(err error) bool {
	return errors.Is(err, sdk.ErrNotFound)
}
