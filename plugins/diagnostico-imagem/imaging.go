package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// Prompts are the AI templates (prompts/*.tmpl).
var Prompts = func() fs.FS { f, _ := fs.Sub(promptFiles, "prompts"); return f }()

// Manifest describes the tool.
var Manifest = sdk.Manifest{
	ID:             "diagnostico-imagem",
	Name:           "Diagnóstico por Imagem",
	Description:    "Envie uma radiografia, imagem de ultrassom, citologia ou foto dermatológica e receba achados, diferenciais e próximos exames.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "stethoscope",
	Category:       "Clínica",
	Slug:           "diagnostico-imagem",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
}

// Migrations create the plugin's table in its own schema.
var Migrations = []sdk.Migration{{Version: 1, Name: "cases", SQL: `
CREATE TABLE cases (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL,
    client_id  uuid,
    file_id    text NOT NULL,
    exam       text NOT NULL,
    species    text NOT NULL,
    region     text NOT NULL,
    question   text NOT NULL CHECK (char_length(question) <= 1000),
    status     text NOT NULL CHECK (status IN ('analisado', 'recusado')),
    result     jsonb NOT NULL DEFAULT '{}',
    refusal    text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, client_id)
);
CREATE INDEX cases_user_idx ON cases (user_id, created_at DESC);`}}

// Disclaimer is in every answer and on the page: AI output supports the
// veterinarian's decision and is never a report (CFMV Res. 1.465/2022).
const Disclaimer = "Achados sugestivos — confirmar com laudo de um médico-veterinário radiologista."

// Option is one choice of a list.
type Option struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Exams, species and regions offered.
var (
	Exams   = []Option{{"radiografia", "Radiografia"}, {"ultrassom", "Ultrassom"}, {"citologia", "Citologia"}, {"dermatologia", "Foto dermatológica"}}
	Species = []Option{{"cao", "Cão"}, {"gato", "Gato"}, {"equino", "Equino"}, {"bovino", "Bovino"}, {"ave", "Ave"}, {"exotico", "Exótico ou silvestre"}, {"outro", "Outra espécie"}}
	Regions = []Option{{"torax", "Tórax"}, {"abdome", "Abdome"}, {"musculoesqueletico", "Musculoesquelético"}, {"cranio-coluna", "Crânio e coluna"},
		{"pele", "Pele e anexos"}, {"lamina", "Lâmina (citologia)"}, {"outra", "Outra região"}}
)

func find(list []Option, id string) (Option, bool) {
	for _, o := range list {
		if o.ID == id {
			return o, true
		}
	}
	return Option{}, false
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Differential is one ranked differential diagnosis.
type Differential struct {
	Diagnosis  string `json:"diagnostico"`
	Likelihood string `json:"probabilidade"`
	Reasoning  string `json:"raciocinio"`
}

// Result is the structured answer.
type Result struct {
	Findings      []string       `json:"achados"`
	Differentials []Differential `json:"diferenciais"`
	Exams         []string       `json:"exames"`
	Notes         string         `json:"observacoes"`
	Disclaimer    string         `json:"aviso"`
}

// certainty finds words that claim a certainty an image reading never has.
var certainty = regexp.MustCompile(`(?i)\b(com certeza|certamente|sem dúvidas?|definitivamente|diagnóstico (?:é|confirmado)|confirma(?:-se)? o diagnóstico|é (?:um|uma) caso de)\b`)

func soften(s string) string {
	return strings.TrimSpace(certainty.ReplaceAllString(strings.TrimSpace(s), "possivelmente"))
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// shape keeps a model's answer within bounds, without claims of certainty,
// and with the disclaimer.
func shape(r Result) (Result, bool) {
	list := func(in []string, max int) []string {
		out := []string{}
		for _, s := range in {
			if s = clip(soften(s), 600); s != "" && len(out) < max {
				out = append(out, s)
			}
		}
		return out
	}
	r.Findings = list(r.Findings, 12)
	r.Exams = list(r.Exams, 10)
	diffs := []Differential{}
	for _, d := range r.Differentials {
		d.Diagnosis, d.Likelihood, d.Reasoning = clip(soften(d.Diagnosis), 160), clip(soften(d.Likelihood), 40), clip(soften(d.Reasoning), 600)
		if d.Diagnosis != "" && len(diffs) < 8 {
			diffs = append(diffs, d)
		}
	}
	r.Differentials = diffs
	r.Notes = clip(soften(r.Notes), 1000)
	r.Disclaimer = Disclaimer
	return r, len(r.Findings) > 0
}

// Case is one analysis in the member's history.
type Case struct {
	ID        string          `json:"id"`
	FileID    string          `json:"file_id"`
	Exam      string          `json:"exam"`
	Species   string          `json:"species"`
	Region    string          `json:"region"`
	Question  string          `json:"question"`
	Status    string          `json:"status"`
	Result    json.RawMessage `json:"result"`
	Refusal   string          `json:"refusal"`
	CreatedAt string          `json:"created_at"`
}

const caseColumns = `id::text AS id, file_id, exam, species, region, question, status, result, refusal, created_at`

var errNotFound = errors.New("not found")

// Request is a new case.
type Request struct {
	FileID   string `json:"file_id"`
	Exam     string `json:"exam"`
	Species  string `json:"species"`
	Region   string `json:"region"`
	Question string `json:"question"`
	ClientID string `json:"client_id"`
}

func (r *Request) validate() sdk.Problems {
	p := sdk.Problems{}
	if !uuidPattern.MatchString(r.FileID) {
		p.Add("file_id", "Envie a imagem do exame.")
	}
	if _, ok := find(Exams, r.Exam); !ok {
		p.Add("exam", "Escolha o tipo de exame.")
	}
	if _, ok := find(Species, r.Species); !ok {
		p.Add("species", "Escolha a espécie.")
	}
	if _, ok := find(Regions, r.Region); !ok {
		p.Add("region", "Escolha a região.")
	}
	r.Question = strings.TrimSpace(r.Question)
	switch n := utf8.RuneCountInString(r.Question); {
	case n < 5:
		p.Add("question", "Escreva a pergunta clínica (ao menos 5 caracteres).")
	case n > 1000:
		p.Add("question", "A pergunta clínica deve ter no máximo 1000 caracteres.")
	}
	if r.ClientID != "" && !uuidPattern.MatchString(r.ClientID) {
		p.Add("client_id", "Identificador inválido.")
	}
	return p
}

type store struct{ host *sdk.Host }

func (s *store) one(ctx context.Context, q string, args ...any) (Case, error) {
	var rows []Case
	if err := s.host.Query(ctx, &rows, q, args...); err != nil {
		return Case{}, err
	}
	if len(rows) == 0 {
		return Case{}, errNotFound
	}
	return rows[0], nil
}

func (s *store) get(ctx context.Context, userID, id string) (Case, error) {
	if !uuidPattern.MatchString(id) {
		return Case{}, errNotFound
	}
	return s.one(ctx, `SELECT `+caseColumns+` FROM cases WHERE id = $1 AND user_id = $2`, id, userID)
}

func (s *store) list(ctx context.Context, userID string) ([]Case, error) {
	rows := []Case{}
	err := s.host.Query(ctx, &rows, `SELECT `+caseColumns+` FROM cases WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 100`, userID)
	return rows, err
}

func (s *store) insert(ctx context.Context, userID string, r Request, status string, result any, refusal string) (Case, error) {
	b, _ := json.Marshal(result)
	var cid any
	if r.ClientID != "" {
		cid = r.ClientID
	}
	return s.one(ctx, `INSERT INTO cases (user_id, client_id, file_id, exam, species, region, question, status, result, refusal)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
		ON CONFLICT (user_id, client_id) DO UPDATE SET client_id = EXCLUDED.client_id RETURNING `+caseColumns,
		userID, cid, r.FileID, r.Exam, r.Species, r.Region, r.Question, status, string(b), refusal)
}

const (
	msgLoad     = "Não foi possível carregar seus casos. Tente novamente."
	msgAnalyse  = "Não foi possível analisar a imagem. Tente novamente."
	msgNotFound = "Caso não encontrado."
	msgBadAI    = "A IA devolveu uma resposta incompleta. Tente de novo."
)

func fail(w http.ResponseWriter, err error, message string) {
	if errors.Is(err, errNotFound) {
		sdk.WriteError(w, http.StatusNotFound, msgNotFound, nil)
		return
	}
	sdk.WriteHostError(w, err, message)
}

// Handler serves the tool's API, each member's own cases only.
func Handler(host *sdk.Host) http.Handler {
	s := &store{host: host}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /options", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"exams": Exams, "species": Species, "regions": Regions, "disclaimer": Disclaimer,
			"max_bytes": 10 << 20, "types": []string{"image/jpeg", "image/png", "image/webp"}})
	})
	mux.HandleFunc("GET /cases", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.list(r.Context(), sdk.UserFrom(r.Context()).ID)
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"cases": list, "disclaimer": Disclaimer})
	})
	mux.HandleFunc("GET /cases/{id}", func(w http.ResponseWriter, r *http.Request) {
		c, err := s.get(r.Context(), sdk.UserFrom(r.Context()).ID, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		sdk.WriteJSON(w, http.StatusOK, c)
	})
	mux.HandleFunc("DELETE /cases/{id}", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		user := sdk.UserFrom(ctx).ID
		c, err := s.get(ctx, user, r.PathValue("id"))
		if err != nil {
			fail(w, err, msgLoad)
			return
		}
		if _, err := host.Exec(ctx, `DELETE FROM cases WHERE id = $1 AND user_id = $2`, c.ID, user); err != nil {
			fail(w, err, "Não foi possível excluir o caso. Tente novamente.")
			return
		}
		// The image itself is the member's tool file: the page deletes it
		// through the core (DELETE /api/tools/diagnostico-imagem/files/<id>).
		sdk.WriteJSON(w, http.StatusOK, map[string]any{"deleted": c.ID, "file_id": c.FileID})
	})
	mux.HandleFunc("POST /cases", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		user := sdk.UserFrom(ctx).ID
		var in Request
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		if in.validate().Respond(w) {
			return
		}
		if in.ClientID != "" {
			if c, err := s.one(ctx, `SELECT `+caseColumns+` FROM cases WHERE user_id = $1 AND client_id = $2`, user, in.ClientID); err == nil {
				sdk.WriteJSON(w, http.StatusOK, map[string]any{"case": c})
				return
			} else if !errors.Is(err, errNotFound) {
				fail(w, err, msgAnalyse)
				return
			}
		}
		exam, _ := find(Exams, in.Exam)
		sp, _ := find(Species, in.Species)
		rg, _ := find(Regions, in.Region)
		res, err := host.AI.Generate(ctx, sdk.AIRequest{Template: "analise", ImageFileID: in.FileID,
			Vars: map[string]string{"exame": exam.Label, "especie": sp.Label, "regiao": rg.Label, "pergunta": in.Question}})
		if err != nil {
			sdk.WriteAIError(w, err, msgAnalyse)
			return
		}
		var c Case
		if res.Refused {
			c, err = s.insert(ctx, user, in, "recusado", map[string]any{}, clip(res.Reason, 600))
		} else {
			var raw Result
			if json.Unmarshal([]byte(res.Text), &raw) != nil {
				sdk.WriteError(w, http.StatusBadGateway, msgBadAI, nil)
				return
			}
			shaped, ok := shape(raw)
			if !ok {
				sdk.WriteError(w, http.StatusBadGateway, msgBadAI, nil)
				return
			}
			c, err = s.insert(ctx, user, in, "analisado", shaped, "")
		}
		if err != nil {
			fail(w, err, msgAnalyse)
			return
		}
		sdk.WriteJSON(w, http.StatusCreated, map[string]any{"case": c, "remaining": res.Remaining, "demo": res.Demo, "disclaimer": Disclaimer})
	})
	return mux
}

// exportUser is the member's cases (LGPD), as JSON; the images are the
// core's tool files and are exported by the core.
func exportUser(ctx context.Context, host *sdk.Host, userID string) (map[string][]byte, error) {
	rows := []Case{}
	if err := host.Query(ctx, &rows, `SELECT `+caseColumns+` FROM cases WHERE user_id = $1 ORDER BY created_at`, userID); err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(rows, "", "  ")
	return map[string][]byte{"diagnostico-imagem/casos.json": b}, nil
}

// deleteUser erases the member's cases (LGPD).
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	_, err := host.Exec(ctx, `DELETE FROM cases WHERE user_id = $1`, userID)
	return err
}
