package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the challenges content type; core/challenges reads its
// published snapshots (the field names below are its contract, which
// TestProjectionReadsDeclaredFields checks against challenge_listings_sync).
const TypeID = "desafios"

// MaxQuestions is how many questions a challenge may hold (q1…q5).
const MaxQuestions = 5

// Kinds of challenge: only kinds whose completion VetClube measures itself.
// A clinical case and a quiz are scored from the member's answers; a study
// streak (KindStudy) counts the course lessons the member completes between
// the start and the end; a community challenge (KindCommunity) counts the
// member's comments that posts' authors accept as the answer in that period.
var Kinds = []sdk.ContentOption{
	{Value: "caso_clinico", Label: "Caso clínico"},
	{Value: "quiz", Label: "Quiz semanal"},
	{Value: KindStudy, Label: "Sequência de estudos"},
	{Value: KindCommunity, Label: "Comunidade"},
}

// The measured kinds: no questions, a goal.
const (
	KindStudy     = "estudos"
	KindCommunity = "comunidade"
)

// MaxGoal bounds a measured challenge's goal.
const MaxGoal = 100

// goalField is the field holding each measured kind's goal.
var goalField = map[string]string{KindStudy: "lessons_goal", KindCommunity: "answers_goal"}

// Difficulties of a challenge.
var Difficulties = []sdk.ContentOption{
	{Value: "facil", Label: "Fácil"},
	{Value: "medio", Label: "Médio"},
	{Value: "dificil", Label: "Difícil"},
}

// Specialties are the profile's fixed specialties (core/profiles).
var Specialties = []sdk.ContentOption{
	{Value: "clinica_geral", Label: "Clínica Geral"},
	{Value: "cirurgia", Label: "Cirurgia"},
	{Value: "reproducao", Label: "Reprodução"},
	{Value: "dermatologia", Label: "Dermatologia"},
	{Value: "cardiologia", Label: "Cardiologia"},
	{Value: "ortopedia", Label: "Ortopedia"},
	{Value: "oftalmologia", Label: "Oftalmologia"},
	{Value: "neurologia", Label: "Neurologia"},
	{Value: "oncologia", Label: "Oncologia"},
	{Value: "medicina_preventiva", Label: "Medicina Preventiva"},
	{Value: "emergencias", Label: "Emergências"},
	{Value: "animais_silvestres", Label: "Animais Silvestres"},
}

// Letters name a question's alternatives, one per line of its options.
var Letters = []string{"A", "B", "C", "D", "E"}

func questionFields() []sdk.ContentField {
	var out []sdk.ContentField
	letters := make([]sdk.ContentOption, len(Letters))
	for i, l := range Letters {
		letters[i] = sdk.ContentOption{Value: l, Label: l}
	}
	for n := 1; n <= MaxQuestions; n++ {
		p := fmt.Sprintf("q%d_", n)
		out = append(out,
			sdk.ContentField{Name: p + "text", Label: fmt.Sprintf("Pergunta %d", n), Kind: sdk.ContentLongText,
				Max: sdk.Bound(3000), Help: "Enunciado; deixe vazia para não usar esta pergunta (casos clínicos e quizzes têm ao menos uma)."},
			sdk.ContentField{Name: p + "options", Label: fmt.Sprintf("Alternativas da pergunta %d", n), Kind: sdk.ContentLongText,
				Max: sdk.Bound(3000), Help: "Uma alternativa por linha, de 2 a 5 (A, B, C…)."},
			sdk.ContentField{Name: p + "correct", Label: fmt.Sprintf("Resposta esperada da pergunta %d", n), Kind: sdk.ContentSelect, Options: letters},
			sdk.ContentField{Name: p + "explanation", Label: fmt.Sprintf("Explicação da pergunta %d", n), Kind: sdk.ContentLongText,
				Max: sdk.Bound(5000), Help: "Mostrada depois do envio ou do encerramento."},
		)
	}
	return out
}

// ChallengeType is the declaration the core registers.
var ChallengeType = sdk.ContentType{
	ID: TypeID, Singular: "Desafio", Plural: "Desafios", Icon: "trophy",
	Route: "/desafios",
	Fields: append([]sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(5000), Searchable: true},
		{Name: "kind", Label: "Tipo de desafio", Kind: sdk.ContentSelect, Required: true, Options: Kinds, Listed: true, Filterable: true},
		{Name: "starts_at", Label: "Início", Kind: sdk.ContentDateTime, Required: true, Listed: true, Sortable: true,
			Help: "O desafio aparece como ativo a partir daqui."},
		{Name: "ends_at", Label: "Encerramento", Kind: sdk.ContentDateTime, Required: true, Listed: true, Sortable: true,
			Help: "Respostas não enviadas até aqui são encerradas sem pontos."},
		{Name: "points", Label: "VetCoins", Kind: sdk.ContentNumber, Required: true, Min: sdk.Bound(1), Max: sdk.Bound(5000), Listed: true,
			Help: "Pontos máximos; o membro recebe a fração das respostas certas (sequência de estudos e comunidade: todos ao atingir a meta)."},
		{Name: "lessons_goal", Label: "Meta de aulas", Kind: sdk.ContentNumber, Min: sdk.Bound(1), Max: sdk.Bound(MaxGoal),
			Help: "Sequência de estudos: quantas aulas de cursos o membro conclui entre o início e o encerramento."},
		{Name: "answers_goal", Label: "Meta de respostas aceitas", Kind: sdk.ContentNumber, Min: sdk.Bound(1), Max: sdk.Bound(MaxGoal),
			Help: "Comunidade: quantos comentários do membro os autores das publicações aceitam como resposta no período."},
		{Name: "difficulty", Label: "Dificuldade", Kind: sdk.ContentSelect, Required: true, Options: Difficulties, Listed: true, Filterable: true},
		{Name: "specialty", Label: "Especialidade", Kind: sdk.ContentSelect, Required: true, Options: Specialties, Listed: true, Filterable: true},
		{Name: "premium_only", Label: "Só para Premium", Kind: sdk.ContentBoolean, Listed: true},
		{Name: "history", Label: "Histórico e anamnese", Kind: sdk.ContentLongText, Max: sdk.Bound(10000),
			Help: "Casos clínicos: identificação do paciente, queixa e histórico."},
		{Name: "exam_findings", Label: "Achados de exame", Kind: sdk.ContentLongText, Max: sdk.Bound(10000),
			Help: "Casos clínicos: exame físico e exames complementares."},
		{Name: "image_1", Label: "Imagem 1", Kind: sdk.ContentImage, Help: "Da biblioteca de mídia (radiografia, citologia, lesão…)."},
		{Name: "image_2", Label: "Imagem 2", Kind: sdk.ContentImage},
		{Name: "image_3", Label: "Imagem 3", Kind: sdk.ContentImage},
		{Name: "explanation", Label: "Discussão do caso", Kind: sdk.ContentLongText, Min: sdk.Bound(20), Max: sdk.Bound(10000),
			Help: "Liberada depois do envio ou do encerramento (obrigatória em casos clínicos e quizzes)."},
	}, questionFields()...),
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "starts_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: TypeID, Name: "Desafios",
			Description: "Casos clínicos, quizzes, sequências de estudo e ajuda na comunidade com prazo, pontos em VetCoins, ranking semanal e medalhas.",
			Version:     "1.1.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "trophy",
			ContentTypes: []sdk.ContentType{ChallengeType},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate},
	}
}

// Messages editors read beside the fields.
const (
	MsgEndBeforeStart    = "O encerramento deve ser depois do início."
	MsgWholePoints       = "Os VetCoins devem ser um número inteiro."
	MsgHistoryNeeded     = "Informe o histórico do paciente do caso clínico."
	MsgFindingsNeeded    = "Informe os achados de exame do caso clínico."
	MsgOptionsNeeded     = "Informe de 2 a 5 alternativas, uma por linha."
	MsgOptionRepeated    = "As alternativas devem ser diferentes entre si."
	MsgCorrectNeeded     = "Escolha a resposta esperada."
	MsgCorrectMissing    = "A resposta esperada não está entre as alternativas."
	MsgQuestionGap       = "Preencha as perguntas em ordem, sem pular números."
	MsgOrphanAnswerData  = "Há alternativas ou resposta sem o enunciado da pergunta."
	MsgExplanationNeeded = "Preencha o campo Discussão do caso."
	MsgQuestionNeeded    = "Preencha o campo Pergunta 1."
	MsgLessonsGoal       = "Informe quantas aulas o membro deve concluir (de 1 a 100)."
	MsgAnswersGoal       = "Informe quantas respostas aceitas o membro deve ter (de 1 a 100)."
	MsgGoalWhole         = "A meta deve ser um número inteiro."
	MsgNoQuestions       = "Este tipo de desafio não tem perguntas: deixe-as vazias."
)

// Validate is the ValidateContent hook.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	start, errS := time.Parse(time.RFC3339, str(it.Fields["starts_at"]))
	end, errE := time.Parse(time.RFC3339, str(it.Fields["ends_at"]))
	if errS == nil && errE == nil && !end.After(start) {
		errs["ends_at"] = MsgEndBeforeStart
	}
	if n, ok := it.Fields["points"].(float64); ok && n != math.Trunc(n) {
		errs["points"] = MsgWholePoints
	}
	kind := str(it.Fields["kind"])
	if field, measured := goalField[kind]; measured {
		msg := MsgLessonsGoal
		if kind == KindCommunity {
			msg = MsgAnswersGoal
		}
		switch n, ok := it.Fields[field].(float64); {
		case !ok || n < 1 || n > MaxGoal:
			errs[field] = msg
		case n != math.Trunc(n):
			errs[field] = MsgGoalWhole
		}
		for n := 1; n <= MaxQuestions; n++ {
			p := fmt.Sprintf("q%d_", n)
			if strings.TrimSpace(str(it.Fields[p+"text"])) != "" || strings.TrimSpace(str(it.Fields[p+"options"])) != "" {
				errs[p+"text"] = MsgNoQuestions
			}
		}
		if len(errs) > 0 {
			return sdk.ContentCheck{Errors: errs}, nil
		}
		return sdk.ContentCheck{}, nil
	}
	if strings.TrimSpace(str(it.Fields["explanation"])) == "" {
		errs["explanation"] = MsgExplanationNeeded
	}
	if strings.TrimSpace(str(it.Fields["q1_text"])) == "" {
		errs["q1_text"] = MsgQuestionNeeded
	}
	if kind == "caso_clinico" {
		if strings.TrimSpace(str(it.Fields["history"])) == "" {
			errs["history"] = MsgHistoryNeeded
		}
		if strings.TrimSpace(str(it.Fields["exam_findings"])) == "" {
			errs["exam_findings"] = MsgFindingsNeeded
		}
	}
	gap := false
	for n := 1; n <= MaxQuestions; n++ {
		p := fmt.Sprintf("q%d_", n)
		text := strings.TrimSpace(str(it.Fields[p+"text"]))
		opts := Options(str(it.Fields[p+"options"]))
		correct := str(it.Fields[p+"correct"])
		if text == "" {
			gap = true
			if len(opts) > 0 || correct != "" {
				errs[p+"text"] = MsgOrphanAnswerData
			}
			continue
		}
		if gap {
			errs[p+"text"] = MsgQuestionGap
		}
		switch {
		case len(opts) < 2 || len(opts) > len(Letters):
			errs[p+"options"] = MsgOptionsNeeded
		case repeated(opts):
			errs[p+"options"] = MsgOptionRepeated
		}
		switch idx := strings.Index("ABCDE", correct); {
		case correct == "":
			errs[p+"correct"] = MsgCorrectNeeded
		case idx >= len(opts) && errs[p+"options"] == "":
			errs[p+"correct"] = MsgCorrectMissing
		}
	}
	var check sdk.ContentCheck
	if len(errs) > 0 {
		check.Errors = errs
	}
	return check, nil
}

// Options splits a question's alternatives, one per non-blank line.
func Options(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func repeated(opts []string) bool {
	seen := map[string]bool{}
	for _, o := range opts {
		k := strings.ToLower(o)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
