// Package bank is the question bank written for VetClube's Simulado Vet and
// Quiz de Área (questoes.txt, in pt-BR) and the twelve specialty areas its
// questions belong to. The development seed publishes it through the
// editorial workflow; the plugin itself reads only published questions.
package bank

import (
	_ "embed"
	"fmt"
	"strings"
)

// Area is one of the twelve specialties of a member's profile.
type Area struct{ Value, Label string }

// Areas are the specialties, in the order pages show them.
var Areas = []Area{
	{"clinica_geral", "Clínica geral"},
	{"cirurgia", "Cirurgia"},
	{"reproducao", "Reprodução"},
	{"dermatologia", "Dermatologia"},
	{"cardiologia", "Cardiologia"},
	{"ortopedia", "Ortopedia"},
	{"oftalmologia", "Oftalmologia"},
	{"neurologia", "Neurologia"},
	{"oncologia", "Oncologia"},
	{"medicina_preventiva", "Medicina preventiva"},
	{"emergencias", "Emergências"},
	{"animais_silvestres", "Animais silvestres"},
}

// AreaLabel returns the pt-BR name of the area value ("" when unknown).
func AreaLabel(v string) string {
	for _, a := range Areas {
		if a.Value == v {
			return a.Label
		}
	}
	return ""
}

// Difficulties a question may have.
var Difficulties = []Area{{"facil", "Fácil"}, {"media", "Média"}, {"dificil", "Difícil"}}

// Option letters, in order: a question has 4 or 5 options.
var Letters = []string{"a", "b", "c", "d", "e"}

// Question is one multiple-choice question of the bank.
type Question struct {
	Key         string // stable: area and position in the file ("cardiologia-03")
	Area        string
	Difficulty  string
	Source      string
	Statement   string
	Options     []string
	Correct     int // index into Options
	Explanation string
}

//go:embed questoes.txt
var questionsFile string

// Questions parses the bank; an error names the line at fault.
func Questions() ([]Question, error) { return Parse(questionsFile) }

// Parse reads the format described at the top of questoes.txt.
func Parse(text string) ([]Question, error) {
	var out []Question
	var area string
	count := map[string]int{}
	var q *Question
	finish := func(line int) error {
		if q == nil {
			return nil
		}
		if len(q.Options) < 4 || len(q.Options) > 5 || q.Correct < 0 || q.Statement == "" || q.Explanation == "" {
			return fmt.Errorf("line %d: question %s needs a statement, 4 or 5 options with exactly one correct, and an explanation", line, q.Key)
		}
		out = append(out, *q)
		q = nil
		return nil
	}
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		n := i + 1
		switch {
		case line == "" || strings.HasPrefix(line, "# "):
			continue
		case strings.HasPrefix(line, "## "):
			if err := finish(n); err != nil {
				return nil, err
			}
			area = strings.TrimSpace(line[3:])
			if AreaLabel(area) == "" {
				return nil, fmt.Errorf("line %d: unknown area %q", n, area)
			}
		case strings.HasPrefix(line, "? "):
			if err := finish(n); err != nil {
				return nil, err
			}
			if area == "" {
				return nil, fmt.Errorf("line %d: question before any area", n)
			}
			diff, source, _ := strings.Cut(line[2:], "|")
			diff = strings.TrimSpace(diff)
			if diff != "facil" && diff != "media" && diff != "dificil" {
				return nil, fmt.Errorf("line %d: difficulty %q", n, diff)
			}
			count[area]++
			q = &Question{Key: fmt.Sprintf("%s-%02d", area, count[area]), Area: area, Difficulty: diff,
				Source: strings.TrimSpace(source), Correct: -1}
		case q == nil:
			return nil, fmt.Errorf("line %d: text outside a question", n)
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "):
			if line[0] == '*' {
				if q.Correct >= 0 {
					return nil, fmt.Errorf("line %d: question %s has two correct options", n, q.Key)
				}
				q.Correct = len(q.Options)
			}
			q.Options = append(q.Options, strings.TrimSpace(line[2:]))
		case strings.HasPrefix(line, "> "):
			q.Explanation = strings.TrimSpace(strings.TrimSpace(q.Explanation + " " + line[2:]))
		default:
			if len(q.Options) > 0 {
				return nil, fmt.Errorf("line %d: statement text after the options of %s", n, q.Key)
			}
			q.Statement = strings.TrimSpace(q.Statement + "\n" + line)
		}
	}
	if err := finish(len(text)); err != nil {
		return nil, err
	}
	return out, nil
}

// Title is a short backoffice title for q: its statement's first words.
func (q Question) Title() string {
	s := strings.Join(strings.Fields(q.Statement), " ")
	r := []rune(s)
	if len(r) <= 110 {
		return s
	}
	cut := string(r[:110])
	if i := strings.LastIndex(cut, " "); i > 60 {
		cut = cut[:i]
	}
	return cut + "…"
}

// Fields are q's values in the content type's field names.
func (q Question) Fields() map[string]any {
	f := map[string]any{
		"statement": q.Statement, "area": q.Area, "difficulty": q.Difficulty, "source": q.Source,
		"explanation": q.Explanation, "correct": Letters[q.Correct],
	}
	for i, o := range q.Options {
		f["option_"+Letters[i]] = o
	}
	return f
}
