package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Handler serves the tool's API, each member's own data only.
func Handler(host *sdk.Host) http.Handler {
	s := &store{host: host}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /questionnaire", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		q, err := s.questionnaire(ctx, sdk.UserFrom(ctx).ID)
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		p, err := host.CurrentProfile(ctx)
		if err != nil {
			sdk.WriteHostError(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"questionnaire": q,
			"profile": map[string]string{"name": strings.TrimSpace(p.FirstName + " " + p.LastName), "title": p.Title}})
	})
	mux.HandleFunc("PUT /questionnaire", func(w http.ResponseWriter, r *http.Request) {
		var q Questionnaire
		if !sdk.DecodeJSON(w, r, &q) || q.validate().Respond(w) {
			return
		}
		b, _ := json.Marshal(q)
		if _, err := host.Exec(r.Context(), `INSERT INTO questionnaires (user_id, answers) VALUES ($1, $2::jsonb)
			ON CONFLICT (user_id) DO UPDATE SET answers = EXCLUDED.answers, updated_at = now()`, sdk.UserFrom(r.Context()).ID, string(b)); err != nil {
			fail(w, err, msgSave)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, q)
	})
	mux.HandleFunc("POST /documents", func(w http.ResponseWriter, r *http.Request) { generateDoc(w, r, s) })
	mux.HandleFunc("GET /jobs", func(w http.ResponseWriter, r *http.Request) { listJobs(w, r, host) })
	mux.HandleFunc("GET /documents", func(w http.ResponseWriter, r *http.Request) {
		kind := r.URL.Query().Get("kind")
		if kind != "" && kind != "plano" && kind != "curriculo" && kind != "carta" {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Tipo de documento inválido.", map[string]string{"kind": "Use plano, curriculo ou carta."})
			return
		}
		rows := []Document{}
		if err := host.Query(r.Context(), &rows, `SELECT `+docColumns+` FROM documents WHERE user_id = $1 AND ($2 = '' OR kind = $2)
			ORDER BY created_at DESC, version DESC LIMIT 100`, sdk.UserFrom(r.Context()).ID, kind); err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"documents": rows})
	})
	mux.HandleFunc("GET /documents/{id}", func(w http.ResponseWriter, r *http.Request) {
		d, err := s.doc(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, d)
	})
	mux.HandleFunc("GET /documents/{id}/pdf", func(w http.ResponseWriter, r *http.Request) {
		d, err := s.doc(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		if d.Kind != "curriculo" {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Só o currículo é baixado em PDF.", nil)
			return
		}
		var cv CV
		_ = json.Unmarshal(d.Content, &cv)
		b, err := cvPDF(cv)
		if err != nil {
			sdk.WriteError(w, http.StatusInternalServerError, "Não foi possível montar o PDF. Tente novamente.", nil)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", `attachment; filename="curriculo-v`+itoa(d.Version)+`.pdf"`)
		_, _ = w.Write(b)
	})
	mux.HandleFunc("DELETE /documents/{id}", func(w http.ResponseWriter, r *http.Request) {
		d, err := s.doc(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err == nil {
			_, err = host.Exec(r.Context(), `DELETE FROM documents WHERE id = $1 AND user_id = $2`, d.ID, sdk.UserFrom(r.Context()).ID)
		}
		if err != nil {
			fail(w, err, msgSave)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /interviews", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Job string `json:"job"`
		}
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		in.Job = strings.TrimSpace(in.Job)
		if n := utf8.RuneCountInString(in.Job); n < 3 || n > 200 {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Informe a vaga (de 3 a 200 caracteres).", map[string]string{"job": "De 3 a 200 caracteres."})
			return
		}
		var q struct {
			Question string `json:"pergunta"`
		}
		if _, ok := generateJSON(w, r, host, "entrevista-pergunta", map[string]string{"vaga": in.Job, "numero": "1", "anteriores": ""}, &q); !ok {
			return
		}
		turns, _ := json.Marshal([]Turn{{Question: clip(q.Question, 600)}})
		var rows []Interview
		if err := host.Query(r.Context(), &rows, `INSERT INTO interviews (user_id, job, turns) VALUES ($1, $2, $3::jsonb)
			RETURNING id::text AS id, job, turns, updated_at`, sdk.UserFrom(r.Context()).ID, in.Job, string(turns)); err != nil {
			fail(w, err, msgSave)
			return
		}
		sdk.WriteJSON(w, http.StatusCreated, rows[0])
	})
	mux.HandleFunc("GET /interviews", func(w http.ResponseWriter, r *http.Request) {
		rows := []Interview{}
		if err := host.Query(r.Context(), &rows, `SELECT id::text AS id, job, turns, updated_at FROM interviews WHERE user_id = $1
			ORDER BY updated_at DESC LIMIT 50`, sdk.UserFrom(r.Context()).ID); err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"interviews": rows})
	})
	mux.HandleFunc("GET /interviews/{id}", func(w http.ResponseWriter, r *http.Request) {
		iv, err := s.interview(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, iv)
	})
	mux.HandleFunc("POST /interviews/{id}/answer", func(w http.ResponseWriter, r *http.Request) { answer(w, r, s) })
	return mux
}

func generateDoc(w http.ResponseWriter, r *http.Request, s *store) {
	ctx := r.Context()
	user := sdk.UserFrom(ctx).ID
	var in struct {
		Kind        string `json:"kind"`
		Job         string `json:"job"`
		Description string `json:"description"`
		// JobID is a job published in Oportunidades (the letter is written
		// from its fields); else Job and Description are the member's text.
		JobID string `json:"job_id"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	p := sdk.Problems{}
	if in.Kind != "plano" && in.Kind != "curriculo" && in.Kind != "carta" {
		p.Add("kind", "Escolha plano, currículo ou carta.")
	}
	in.Job, in.Description = strings.TrimSpace(in.Job), strings.TrimSpace(in.Description)
	var job *sdk.PublishedItem
	if in.Kind == "carta" && in.JobID != "" {
		if len(in.JobID) > 100 || sdk.HasControlCharacter(in.JobID) {
			p.Add("job_id", "Vaga inválida.")
		} else {
			it, err := publishedJob(ctx, s.host, in.JobID)
			if errors.Is(err, errNotFound) {
				sdk.WriteError(w, http.StatusNotFound, "Vaga não encontrada em Oportunidades.", map[string]string{"job_id": "Escolha outra vaga."})
				return
			}
			if err != nil {
				sdk.WriteHostError(w, err, msgGenerate)
				return
			}
			job = &it
			in.Job, in.Description = jobText(it)
		}
	}
	if in.Kind == "carta" && job == nil && in.JobID == "" && (utf8.RuneCountInString(in.Job) < 3 || utf8.RuneCountInString(in.Job) > 200) {
		p.Add("job", "Informe a vaga (de 3 a 200 caracteres).")
	}
	if utf8.RuneCountInString(in.Description) > 4000 {
		p.Add("description", "A descrição da vaga deve ter no máximo 4000 caracteres.")
	}
	if p.Respond(w) {
		return
	}
	q, err := s.questionnaire(ctx, user)
	if err != nil {
		fail(w, err, msgGenerate)
		return
	}
	vars, err := base(ctx, s.host, q)
	if err != nil {
		sdk.WriteHostError(w, err, msgGenerate)
		return
	}
	var content any
	var title string
	switch in.Kind {
	case "plano":
		// The plan may name only courses VetClube publishes: the catalogue
		// goes into the prompt, and names outside it are dropped.
		catalogue, cerr := courseCatalogue(ctx, s.host, q)
		if cerr != nil && !isNotFound(cerr) {
			sdk.WriteHostError(w, cerr, msgGenerate)
			return
		}
		vars = map[string]string{"nome": vars["nome"], "titulo": vars["titulo"], "especialidades": vars["especialidades"], "crmv": vars["crmv"],
			"bio": vars["bio"], "objetivo": vars["objetivo"], "regiao": vars["regiao"], "experiencia": vars["experiencia"], "areas": vars["areas"],
			"cursos": catalogueText(catalogue)}
		var plan struct {
			Summary string       `json:"resumo"`
			Areas   []string     `json:"areas_em_alta"`
			Courses []string     `json:"cursos_vetclube"`
			Links   []PlanCourse `json:"cursos_links"`
			Certs   []string     `json:"certificacoes"`
			Paths   []string     `json:"caminhos"`
			Next    []string     `json:"proximos_passos"`
			Note    string       `json:"aviso_cursos,omitempty"`
		}
		if _, ok := generateJSON(w, r, s.host, "plano", vars, &plan); !ok {
			return
		}
		plan.Links = matchCourses(plan.Courses, catalogue)
		plan.Courses = make([]string, len(plan.Links))
		for i, c := range plan.Links {
			plan.Courses[i] = c.Title
		}
		if len(catalogue) == 0 {
			plan.Note = NoCourses
		}
		content, title = plan, "Plano de carreira"
	case "curriculo":
		vars = map[string]string{"nome": vars["nome"], "titulo": vars["titulo"], "especialidades": vars["especialidades"], "crmv": vars["crmv"],
			"bio": vars["bio"], "experiencia": vars["experiencia"], "formacao": vars["formacao"], "objetivo": vars["objetivo"]}
		var cv CV
		if _, ok := generateJSON(w, r, s.host, "curriculo", vars, &cv); !ok {
			return
		}
		if strings.TrimSpace(cv.Name) == "" {
			cv.Name = vars["nome"]
		}
		cv.CRMV = q.CRMV
		content, title = cv, "Currículo"
	case "carta":
		v := map[string]string{"nome": vars["nome"], "titulo": vars["titulo"], "especialidades": vars["especialidades"],
			"experiencia": vars["experiencia"], "vaga": in.Job, "descricao": in.Description}
		var letter struct {
			Letter string `json:"carta"`
			Job    string `json:"vaga"`
		}
		if _, ok := generateJSON(w, r, s.host, "carta", v, &letter); !ok {
			return
		}
		letter.Job = in.Job
		var body any = letter
		if job != nil {
			body = struct {
				Letter string `json:"carta"`
				Job    string `json:"vaga"`
				JobURL string `json:"vaga_url"`
			}{letter.Letter, letter.Job, job.URL}
		}
		content, title = body, "Carta — "+clip(in.Job, 80)
	}
	d, err := s.saveDoc(ctx, user, in.Kind, title, content)
	if err != nil {
		fail(w, err, msgSave)
		return
	}
	sdk.WriteJSON(w, http.StatusCreated, d)
}

func answer(w http.ResponseWriter, r *http.Request, s *store) {
	ctx := r.Context()
	user := sdk.UserFrom(ctx).ID
	iv, err := s.interview(ctx, user, r.PathValue("id"))
	if err != nil {
		fail(w, err, msgLoad)
		return
	}
	var in struct {
		Answer string `json:"answer"`
	}
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	in.Answer = strings.TrimSpace(in.Answer)
	if n := utf8.RuneCountInString(in.Answer); n < 2 || n > 4000 {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Escreva sua resposta (até 4000 caracteres).", map[string]string{"answer": "De 2 a 4000 caracteres."})
		return
	}
	before := len(iv.Turns)
	last := &iv.Turns[before-1]
	if last.Answer != "" {
		sdk.WriteError(w, http.StatusConflict, "O treino terminou. Comece outro para praticar mais.", nil)
		return
	}
	var fb struct {
		Feedback string   `json:"feedback"`
		Strong   []string `json:"pontos_fortes"`
		Improve  []string `json:"melhorar"`
		Score    *int     `json:"nota"`
		Next     string   `json:"proxima_pergunta"`
	}
	vars := map[string]string{"vaga": iv.Job, "pergunta": last.Question, "resposta": in.Answer, "numero": itoa(len(iv.Turns))}
	if _, ok := generateJSON(w, r, s.host, "entrevista-feedback", vars, &fb); !ok {
		return
	}
	last.Answer, last.Feedback, last.Strong, last.Improve = in.Answer, clip(fb.Feedback, 2000), fb.Strong, fb.Improve
	if fb.Score != nil {
		n := min(10, max(0, *fb.Score))
		last.Score = &n
	}
	if len(iv.Turns) < MaxQuestions && strings.TrimSpace(fb.Next) != "" {
		iv.Turns = append(iv.Turns, Turn{Question: clip(fb.Next, 600)})
	}
	b, _ := json.Marshal(iv.Turns)
	// Only the turn this answer was for is replaced: a concurrent answer to
	// the same question finds the stored turns changed and is refused.
	n, err := s.host.Exec(ctx, `UPDATE interviews SET turns = $3::jsonb, updated_at = now() WHERE id = $1 AND user_id = $2
		AND jsonb_array_length(turns) = $4 AND (turns -> ($4 - 1) ->> 'resposta') IS NULL`, iv.ID, user, string(b), before)
	if err != nil {
		fail(w, err, msgSave)
		return
	}
	if n == 0 {
		sdk.WriteError(w, http.StatusConflict, "Esta pergunta já foi respondida.", nil)
		return
	}
	iv, err = s.interview(ctx, user, iv.ID)
	if err != nil {
		fail(w, err, msgLoad)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, iv)
}

// exportUser is the member's data in this tool (LGPD), as JSON.
func exportUser(ctx context.Context, host *sdk.Host, userID string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, q := range map[string]string{
		"questionario.json": `SELECT answers, updated_at FROM questionnaires WHERE user_id = $1`,
		"documentos.json":   `SELECT ` + docColumns + ` FROM documents WHERE user_id = $1 ORDER BY created_at`,
		"entrevistas.json":  `SELECT id::text AS id, job, turns, created_at, updated_at FROM interviews WHERE user_id = $1 ORDER BY created_at`,
	} {
		var rows []map[string]any
		if err := host.Query(ctx, &rows, q, userID); err != nil {
			return nil, err
		}
		b, _ := json.MarshalIndent(rows, "", "  ")
		out["assistente-de-carreira/"+name] = b
	}
	return out, nil
}

// deleteUser erases the member's data in this tool (LGPD).
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	for _, t := range []string{"interviews", "documents", "questionnaires"} {
		if _, err := host.Exec(ctx, `DELETE FROM `+t+` WHERE user_id = $1`, userID); err != nil {
			return err
		}
	}
	return nil
}
