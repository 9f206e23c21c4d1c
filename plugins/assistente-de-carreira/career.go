package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"

	"github.com/vetclube/vetclube/plugins/sdk"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// Prompts are the AI templates (prompts/*.tmpl).
var Prompts = func() fs.FS { f, _ := fs.Sub(promptFiles, "prompts"); return f }()

// Manifest describes the tool.
var Manifest = sdk.Manifest{
	ID:             "assistente-de-carreira",
	Name:           "Assistente de Carreira",
	Description:    "Plano de carreira, currículo em PDF, treino de entrevista e carta de apresentação a partir do seu perfil.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "wrench",
	Category:       "Carreira",
	Slug:           "assistente-de-carreira",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
}

// Migrations create the plugin's tables in its own schema.
var Migrations = []sdk.Migration{{Version: 1, Name: "questionnaires, documents and interviews", SQL: `
CREATE TABLE questionnaires (
    user_id    uuid PRIMARY KEY,
    answers    jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE documents (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('plano', 'curriculo', 'carta')),
    version    integer NOT NULL CHECK (version >= 1),
    title      text NOT NULL,
    content    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, kind, version)
);
CREATE TABLE interviews (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL,
    job        text NOT NULL,
    turns      jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX interviews_user_idx ON interviews (user_id, updated_at DESC);`}}

// Questionnaire completes what the public profile does not hold.
type Questionnaire struct {
	Goals       string `json:"goals"`
	Region      string `json:"region"`
	Experience  string `json:"experience"`
	Areas       string `json:"areas"`
	Specialties string `json:"specialties"`
	CRMV        string `json:"crmv"`
	Bio         string `json:"bio"`
	Education   string `json:"education"`
}

var crmvPattern = regexp.MustCompile(`^(CRMV-?[A-Z]{2}\s*)?[0-9]{1,6}(-?[A-Z]{2})?$`)

func (q *Questionnaire) validate() sdk.Problems {
	p := sdk.Problems{}
	f := func(field, label string, v *string, max int) {
		*v = strings.TrimSpace(*v)
		if utf8.RuneCountInString(*v) > max {
			p.Add(field, fmt.Sprintf("%s deve ter no máximo %d caracteres.", label, max))
		}
	}
	f("goals", "O objetivo", &q.Goals, 500)
	f("region", "A região", &q.Region, 120)
	f("experience", "A experiência", &q.Experience, 3000)
	f("areas", "As áreas de interesse", &q.Areas, 500)
	f("specialties", "As especialidades", &q.Specialties, 500)
	f("bio", "A bio", &q.Bio, 1500)
	f("education", "A formação", &q.Education, 2000)
	q.CRMV = strings.ToUpper(strings.TrimSpace(q.CRMV))
	if q.CRMV != "" && !crmvPattern.MatchString(q.CRMV) {
		p.Add("crmv", "Informe o CRMV como CRMV-SP 12345.")
	}
	return p
}

// Document is a saved plan, CV or cover letter, one version of its kind.
type Document struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Version   int             `json:"version"`
	Title     string          `json:"title"`
	Content   json.RawMessage `json:"content"`
	CreatedAt string          `json:"created_at"`
}

const docColumns = `id::text AS id, kind, version, title, content, created_at`

// Turn is one question of an interview practice, with the answer and its
// feedback once given.
type Turn struct {
	Question string   `json:"pergunta"`
	Answer   string   `json:"resposta,omitempty"`
	Feedback string   `json:"feedback,omitempty"`
	Strong   []string `json:"pontos_fortes,omitempty"`
	Improve  []string `json:"melhorar,omitempty"`
	Score    *int     `json:"nota,omitempty"`
}

// Interview is one practice session.
type Interview struct {
	ID        string `json:"id"`
	Job       string `json:"job"`
	Turns     []Turn `json:"turns"`
	Done      bool   `json:"done"`
	UpdatedAt string `json:"updated_at"`
}

// MaxQuestions is the length of an interview practice.
const MaxQuestions = 5

var (
	uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	errNotFound = errors.New("not found")
)

// NoCourses says why a plan names no VetClube course: none is published.
const NoCourses = "Ainda não há cursos publicados no VetClube para indicar: procure os temas sugeridos em Cursos."

const (
	msgLoad     = "Não foi possível carregar seus dados. Tente novamente."
	msgSave     = "Não foi possível salvar. Tente novamente."
	msgGenerate = "Não foi possível gerar agora. Tente novamente."
	msgNotFound = "Não encontrado."
	msgBadAI    = "A IA devolveu uma resposta incompleta. Tente de novo."
)

func fail(w http.ResponseWriter, err error, message string) {
	if errors.Is(err, errNotFound) {
		sdk.WriteError(w, http.StatusNotFound, msgNotFound, nil)
		return
	}
	sdk.WriteHostError(w, err, message)
}

type store struct{ host *sdk.Host }

func (s *store) questionnaire(ctx context.Context, userID string) (Questionnaire, error) {
	var rows []struct {
		Answers Questionnaire `json:"answers"`
	}
	if err := s.host.Query(ctx, &rows, `SELECT answers FROM questionnaires WHERE user_id = $1`, userID); err != nil || len(rows) == 0 {
		return Questionnaire{}, err
	}
	return rows[0].Answers, nil
}

func (s *store) doc(ctx context.Context, userID, id string) (Document, error) {
	if !uuidPattern.MatchString(id) {
		return Document{}, errNotFound
	}
	var rows []Document
	if err := s.host.Query(ctx, &rows, `SELECT `+docColumns+` FROM documents WHERE id = $1 AND user_id = $2`, id, userID); err != nil {
		return Document{}, err
	}
	if len(rows) == 0 {
		return Document{}, errNotFound
	}
	return rows[0], nil
}

// saveDoc stores the next version of kind; two concurrent saves cannot take
// the same number (the unique key refuses the second, which retries).
func (s *store) saveDoc(ctx context.Context, userID, kind, title string, content any) (Document, error) {
	b, _ := json.Marshal(content)
	var err error
	for range 3 {
		var rows []Document
		err = s.host.Query(ctx, &rows, `INSERT INTO documents (user_id, kind, version, title, content)
			SELECT $1, $2, coalesce(max(version), 0) + 1, $3, $4::jsonb FROM documents WHERE user_id = $1 AND kind = $2
			RETURNING `+docColumns, userID, kind, title, string(b))
		if err == nil {
			return rows[0], nil
		}
	}
	return Document{}, err
}

func (s *store) interview(ctx context.Context, userID, id string) (Interview, error) {
	if !uuidPattern.MatchString(id) {
		return Interview{}, errNotFound
	}
	var rows []Interview
	if err := s.host.Query(ctx, &rows, `SELECT id::text AS id, job, turns, updated_at FROM interviews WHERE id = $1 AND user_id = $2`, id, userID); err != nil {
		return Interview{}, err
	}
	if len(rows) == 0 {
		return Interview{}, errNotFound
	}
	iv := rows[0]
	iv.Done = len(iv.Turns) >= MaxQuestions && iv.Turns[len(iv.Turns)-1].Answer != ""
	return iv, nil
}

func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

// base is what every template learns about the member: the public profile
// from the host and the questionnaire.
func base(ctx context.Context, host *sdk.Host, q Questionnaire) (map[string]string, error) {
	p, err := host.CurrentProfile(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]string{
		"nome": strings.TrimSpace(p.FirstName + " " + p.LastName), "titulo": p.Title,
		"especialidades": q.Specialties, "crmv": q.CRMV, "bio": q.Bio, "objetivo": q.Goals, "regiao": q.Region,
		"experiencia": q.Experience, "areas": q.Areas, "formacao": q.Education,
	}, nil
}

// generateJSON asks for a template's JSON answer and decodes it into dest;
// it has answered the request when ok is false.
func generateJSON(w http.ResponseWriter, r *http.Request, host *sdk.Host, template string, vars map[string]string, dest any) (sdk.AIResult, bool) {
	res, err := host.AI.Generate(r.Context(), sdk.AIRequest{Template: template, Vars: vars})
	if err != nil {
		sdk.WriteAIError(w, err, msgGenerate)
		return res, false
	}
	if res.Refused {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "A IA recusou o pedido: "+res.Reason, nil)
		return res, false
	}
	if json.Unmarshal([]byte(res.Text), dest) != nil {
		sdk.WriteError(w, http.StatusBadGateway, msgBadAI, nil)
		return res, false
	}
	return res, true
}

// CV is the improved curriculum.
type CV struct {
	Name       string   `json:"nome"`
	Title      string   `json:"titulo"`
	CRMV       string   `json:"crmv"`
	Summary    string   `json:"resumo_profissional"`
	Experience []string `json:"experiencias"`
	Education  []string `json:"formacao"`
	Skills     []string `json:"competencias"`
	Tips       []string `json:"dicas"`
}

// cvPDF lays the CV out on A4 with the core fonts, their text translated to
// the fonts' code page so accents print right.
func cvPDF(cv CV) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.SetTitle(tr("Currículo — "+cv.Name), false)
	pdf.SetFooterFunc(func() {
		pdf.SetY(-12)
		pdf.SetFont("Helvetica", "I", 8)
		pdf.CellFormat(0, 8, tr(fmt.Sprintf("Currículo gerado no VetClube · página %d", pdf.PageNo())), "", 0, "C", false, 0, "")
	})
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 18)
	pdf.MultiCell(0, 9, tr(cv.Name), "", "L", false)
	pdf.SetFont("Helvetica", "", 12)
	line := cv.Title
	if cv.CRMV != "" {
		line += " · " + cv.CRMV
	}
	pdf.MultiCell(0, 7, tr(line), "", "L", false)
	section := func(title string, items []string, text string) {
		if len(items) == 0 && text == "" {
			return
		}
		pdf.Ln(4)
		pdf.SetFont("Helvetica", "B", 13)
		pdf.MultiCell(0, 7, tr(title), "B", "L", false)
		pdf.SetFont("Helvetica", "", 11)
		if text != "" {
			pdf.MultiCell(0, 6, tr(text), "", "L", false)
		}
		for _, it := range items {
			pdf.MultiCell(0, 6, tr("• "+it), "", "L", false)
		}
	}
	section("Resumo profissional", nil, cv.Summary)
	section("Experiência", cv.Experience, "")
	section("Formação", cv.Education, "")
	section("Competências", cv.Skills, "")
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func itoa(n int) string { return strconv.Itoa(n) }
