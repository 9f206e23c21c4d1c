package sdktest

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Case names the inputs WalkForm tries on each field.
const (
	CaseMissing  = "missing"
	CaseTooSmall = "too-small"
	CaseTooLarge = "too-large"
	CaseZero     = "zero"
	CaseNotValid = "not-valid" // text for a number, an unknown option
)

// WalkForm posts form's action to h once per field and case (the field left
// out, below its Min, zero when Min is above zero, above its Max, not a
// number or not an option), starting each time from valid, a submission
// the handler accepts. It fails t unless each is answered 422 with a
// message on that field, in a sentence that agrees with the field's Noun
// (gender and number) and names it, or 2xx when an optional field is left
// out. It returns the messages by "field/case" so a test can also compare
// exact wording.
func WalkForm(t *testing.T, h http.Handler, form sdk.Form, valid map[string]any) map[string]string {
	t.Helper()
	if code, body := post(h, form.Action, valid); code/100 != 2 {
		t.Fatalf("%s: the valid submission was refused: %d %s", form.ID, code, body)
	}
	got := map[string]string{}
	for _, f := range form.Fields {
		base := clone(valid)
		if f.ShowIf != nil && len(f.ShowIf.Values) > 0 {
			base[f.ShowIf.Field] = f.ShowIf.Values[0]
			if _, ok := base[f.Name]; !ok && f.Default != nil {
				base[f.Name] = f.Default
			}
		}
		for _, c := range casesFor(f) {
			body := clone(base)
			if c.name == CaseMissing {
				delete(body, f.Name)
			} else {
				body[f.Name] = c.value
			}
			code, raw := post(h, form.Action, body)
			msg := fieldMessage(raw, f.Name)
			key := f.Name + "/" + c.name
			if c.name == CaseMissing && !f.Required {
				if code/100 != 2 {
					t.Errorf("%s: optional %s left out: %d %s", form.ID, f.Name, code, raw)
				}
				continue
			}
			if code != http.StatusUnprocessableEntity || msg == "" {
				t.Errorf("%s: %s: %d %s, want 422 with a message on %s", form.ID, key, code, raw, f.Name)
				continue
			}
			got[key] = msg
			if problem := Agreement(f, msg); problem != "" {
				t.Errorf("%s: %s: %q: %s", form.ID, key, msg, problem)
			}
		}
	}
	return got
}

type inputCase struct {
	name  string
	value any
}

func casesFor(f sdk.Field) []inputCase {
	cases := []inputCase{{name: CaseMissing}}
	switch f.Type {
	case sdk.FieldNumber:
		cases = append(cases, inputCase{CaseNotValid, "abc"})
		if f.Min != nil {
			below := *f.Min - math.Max(1, math.Abs(*f.Min))
			if *f.Min > 0 {
				below = *f.Min / 10 // still positive: the "at least" wording
				cases = append(cases, inputCase{CaseZero, 0})
			}
			cases = append(cases, inputCase{CaseTooSmall, below})
		}
		if f.Max != nil {
			cases = append(cases, inputCase{CaseTooLarge, *f.Max + math.Max(1, math.Abs(*f.Max))})
		}
	case sdk.FieldSelect:
		cases = append(cases, inputCase{CaseNotValid, "__nenhuma__"})
	}
	return cases
}

// inflections lists words that change with the noun: masculine singular,
// feminine singular, masculine plural, feminine plural. Kept apart from the
// SDK's own wording so this check catches its mistakes.
var inflections = [][4]string{
	{"é", "é", "são", "são"},
	{"obrigatório", "obrigatória", "obrigatórios", "obrigatórias"},
	{"negativo", "negativa", "negativos", "negativas"},
	{"deve", "deve", "devem", "devem"},
	{"pode", "pode", "podem", "podem"},
	{"maior", "maior", "maiores", "maiores"},
	{"menor", "menor", "menores", "menores"},
	{"grande", "grande", "grandes", "grandes"},
	{"pequeno", "pequena", "pequenos", "pequenas"},
	{"inválido", "inválida", "inválidos", "inválidas"},
}

var wordPattern = regexp.MustCompile(`[\p{L}]+`)

// Agreement reports what is wrong with msg as a message about field f, or ""
// when the message names the field (its Noun, or "o campo" for a field
// without one) and every inflected word agrees with it.
func Agreement(f sdk.Field, msg string) string {
	noun := strings.TrimSpace(f.Noun)
	if noun == "" {
		noun = "o campo"
	}
	article, _, _ := strings.Cut(noun, " ")
	form := map[string]int{"o": 0, "a": 1, "os": 2, "as": 3}
	idx, ok := form[strings.ToLower(article)]
	if !ok {
		return "the field's noun " + noun + " starts with no article (o, a, os, as)"
	}
	if !strings.Contains(strings.ToLower(msg), strings.ToLower(noun)) {
		return "does not name the field as " + noun
	}
	if r := []rune(msg); len(r) == 0 || !unicode.IsUpper(r[0]) || !strings.HasSuffix(msg, ".") {
		return "is not a sentence (capital letter, final period)"
	}
	// Words of the noun itself are not checked ("o valor maior" is a name).
	rest := strings.Replace(strings.ToLower(msg), strings.ToLower(noun), " ", 1)
	for _, w := range wordPattern.FindAllString(rest, -1) {
		for _, forms := range inflections {
			for _, candidate := range forms {
				if w == candidate && forms[idx] != w {
					return "\"" + w + "\" does not agree with " + noun + " (want \"" + forms[idx] + "\")"
				}
			}
		}
	}
	return ""
}

func post(h http.Handler, action string, body map[string]any) (int, []byte) {
	b, _ := json.Marshal(body)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/"+strings.TrimPrefix(action, "/"), bytes.NewReader(b)))
	return rec.Code, rec.Body.Bytes()
}

func fieldMessage(raw []byte, field string) string {
	var e struct {
		Error struct {
			Fields map[string]string `json:"fields"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Error.Fields[field]
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
