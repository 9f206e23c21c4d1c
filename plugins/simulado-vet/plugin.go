package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/simulado-vet/bank"
)

// ID is the plugin's id; QuestionType is the bank's content type.
const (
	ID           = "simulado-vet"
	QuestionType = "simulado-questoes"
	QuizSlug     = "quiz-area"
)

func options(list []bank.Area) []sdk.ContentOption {
	out := make([]sdk.ContentOption, len(list))
	for i, a := range list {
		out[i] = sdk.ContentOption{Value: a.Value, Label: a.Label}
	}
	return out
}

// QuestionTypeDecl is a question of the bank. It is private: the public
// content API never serves it (the correct answers would leak); members
// see a question only inside an attempt.
var QuestionTypeDecl = sdk.ContentType{
	ID: QuestionType, Singular: "Questão de simulado", Plural: "Questões de simulado", Icon: "list-checks",
	Private: true,
	Fields: []sdk.ContentField{
		{Name: "statement", Label: "Enunciado", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(15), Max: sdk.Bound(3000), Searchable: true},
		{Name: "option_a", Label: "Alternativa A", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(400)},
		{Name: "option_b", Label: "Alternativa B", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(400)},
		{Name: "option_c", Label: "Alternativa C", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(400)},
		{Name: "option_d", Label: "Alternativa D", Kind: sdk.ContentText, Required: true, Max: sdk.Bound(400)},
		{Name: "option_e", Label: "Alternativa E", Kind: sdk.ContentText, Max: sdk.Bound(400), Help: "Opcional: 4 ou 5 alternativas."},
		{Name: "correct", Label: "Alternativa correta", Kind: sdk.ContentSelect, Required: true,
			Options: []sdk.ContentOption{{Value: "a", Label: "A"}, {Value: "b", Label: "B"}, {Value: "c", Label: "C"}, {Value: "d", Label: "D"}, {Value: "e", Label: "E"}}},
		{Name: "explanation", Label: "Explicação", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(30), Max: sdk.Bound(5000),
			Help: "Mostrada depois da resposta: por que a correta está certa e as outras não."},
		{Name: "area", Label: "Área", Kind: sdk.ContentSelect, Required: true, Options: options(bank.Areas), Listed: true, Filterable: true},
		{Name: "difficulty", Label: "Dificuldade", Kind: sdk.ContentSelect, Required: true, Options: options(bank.Difficulties), Listed: true, Filterable: true},
		{Name: "source", Label: "Fonte", Kind: sdk.ContentText, Max: sdk.Bound(200), Listed: true, Help: "Livro, consenso ou diretriz em que a questão se apoia."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}, PageSize: 50},
	Workflow: sdk.WorkflowEditorial,
}

// Manifest declares the two tool pages and the bank's type.
var Manifest = sdk.Manifest{
	ID: ID, Name: "Simulado Vet",
	Description: "Simulados cronometrados por área, com correção comentada, desempenho por área e histórico.",
	Version:     "1.0.0", MinCoreVersion: "1.0.0",
	Kind: sdk.KindTool, Icon: "graduation-cap", Category: "Estudos", Slug: "simulado-vet",
	Access: sdk.AccessUser, UIKind: sdk.UICustom,
	Limits:       []string{LimitName},
	ContentTypes: []sdk.ContentType{QuestionTypeDecl},
	Pages: []sdk.ToolPage{{Slug: QuizSlug, Name: "Quiz de Área",
		Description: "Rodadas rápidas de 10 questões de uma área, com a resposta comentada na hora."}},
}

// Plugin is everything Serve needs; tests pass a clock (nil: the wall
// clock) and start the same value.
func Plugin(now func() time.Time) sdk.Tool {
	if now == nil {
		now = time.Now
	}
	return sdk.Tool{
		Manifest:   Manifest,
		Migrations: Migrations,
		Handler: func(host *sdk.Host) http.Handler {
			return newServer(host, hostLimiter{host}, now).routes()
		},
		Content:    sdk.ContentHooks{ValidateContent: Validate, BeforeTransition: BeforeTransition, AfterPublish: AfterPublish},
		ExportUser: exportUser,
		DeleteUser: deleteUser,
	}
}

// Messages editors read beside the fields.
const (
	MsgCorrectMissing = "A alternativa correta está vazia: preencha a alternativa E ou escolha outra."
	MsgOptionRepeated = "Esta alternativa repete outra."
)

// Validate checks a question: the correct option exists and no two options
// are the same.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	q, _ := questionOf(it)
	if q.Correct < 0 {
		errs["correct"] = MsgCorrectMissing
	}
	seen := map[string]bool{}
	for _, l := range bank.Letters {
		v := strings.ToLower(strings.TrimSpace(str(it.Fields["option_"+l])))
		if v == "" {
			continue
		}
		if seen[v] {
			errs["option_"+l] = MsgOptionRepeated
		}
		seen[v] = true
	}
	if len(errs) > 0 {
		return sdk.ContentCheck{Errors: errs}, nil
	}
	return sdk.ContentCheck{}, nil
}

// BeforeTransition takes a question out of new attempts as it is archived.
// It runs before the move commits; should the move then fail, the question
// stays out until it is published again (hiding is the safe side).
func BeforeTransition(ctx context.Context, host *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	if to == "arquivado" && it.ID != "" {
		if _, err := host.Exec(ctx, `UPDATE questions SET active = false WHERE id = $1`, it.ID); err != nil {
			return "", fmt.Errorf("archive question %s: %w", it.ID, err)
		}
	}
	return "", nil
}

// AfterPublish copies the published question into the plugin's bank (a
// newer version replaces an older one, never the reverse).
func AfterPublish(ctx context.Context, host *sdk.Host, it sdk.ContentItem) error {
	q, ok := questionOf(it)
	if !ok {
		return fmt.Errorf("question %s is incomplete", it.ID)
	}
	_, err := host.Exec(ctx, `INSERT INTO questions (id, version, title, area, difficulty, source, statement, options, correct, explanation, active)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, true)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version, title = excluded.title, area = excluded.area,
			difficulty = excluded.difficulty, source = excluded.source, statement = excluded.statement, options = excluded.options,
			correct = excluded.correct, explanation = excluded.explanation, active = true
		WHERE questions.version <= excluded.version`,
		it.ID, it.Version, it.Title, q.Area, q.Difficulty, q.Source, q.Statement, jsonString(q.Options), q.Correct, q.Explanation)
	if err != nil {
		return fmt.Errorf("copy question %s: %w", it.ID, err)
	}
	return nil
}

// questionOf reads a content item's fields; ok is false when a required
// part is missing (Correct is -1 when the chosen option is empty).
func questionOf(it sdk.ContentItem) (bank.Question, bool) {
	q := bank.Question{Area: str(it.Fields["area"]), Difficulty: str(it.Fields["difficulty"]), Source: str(it.Fields["source"]),
		Statement: str(it.Fields["statement"]), Explanation: str(it.Fields["explanation"]), Correct: -1}
	correct := str(it.Fields["correct"])
	for _, l := range bank.Letters {
		o := strings.TrimSpace(str(it.Fields["option_"+l]))
		if o == "" {
			continue
		}
		if l == correct {
			q.Correct = len(q.Options)
		}
		q.Options = append(q.Options, o)
	}
	ok := q.Correct >= 0 && len(q.Options) >= 4 && q.Statement != "" && bank.AreaLabel(q.Area) != ""
	return q, ok
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
