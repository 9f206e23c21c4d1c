package content

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/storage"
)

// FieldErrors maps a field name (or "title", "slug", "summary") to its pt-BR
// message. Messages name the field as "o campo X", so they agree in gender
// whatever the label is.
type FieldErrors map[string]string

// Err returns the validation error for e, or nil when e is empty.
func (e FieldErrors) Err() error {
	if len(e) == 0 {
		return nil
	}
	return core.Invalid(MsgInvalidFields, e)
}

// User-facing messages shared with the tests and the HTTP layer.
const (
	MsgInvalidFields = "Revise os campos destacados."
	labelTitle       = "Título"
	labelSummary     = "Resumo"
	maxTitle         = 200
	maxSummary       = 500
	maxSlug          = 120
	maxTag           = 40
)

// Input is what an editor, an import or a plugin writes: the common parts
// and the type's own fields.
type Input struct {
	Slug    string         `json:"slug"`
	Title   string         `json:"title"`
	Summary string         `json:"summary"`
	Fields  map[string]any `json:"fields"`
	// Media is filled by MediaHooks for the hooks (never read from a
	// request): the assets the video and file fields point at.
	Media map[string]MediaInfo `json:"-"`
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidateFields checks values against t's fields and returns one pt-BR
// message per wrong field (nil when all are right).
func ValidateFields(t *Type, values map[string]any) FieldErrors {
	_, errs := t.CheckFields(values)
	return errs
}

// CheckInput validates in and returns it cleaned: text trimmed, the fields
// normalised by CheckFields.
func (t *Type) CheckInput(in Input) (Input, FieldErrors) {
	errs := FieldErrors{}
	in.Title = strings.TrimSpace(in.Title)
	in.Summary = strings.TrimSpace(in.Summary)
	in.Slug = strings.TrimSpace(in.Slug)
	switch {
	case in.Title == "":
		errs["title"] = required(labelTitle)
	case utf8.RuneCountInString(in.Title) > maxTitle:
		errs["title"] = tooLong(labelTitle, maxTitle)
	}
	if utf8.RuneCountInString(in.Summary) > maxSummary {
		errs["summary"] = tooLong(labelSummary, maxSummary)
	}
	// An empty slug is filled in by the store (derived from the title on
	// create, kept as it was on update).
	if in.Slug != "" && (!slugPattern.MatchString(in.Slug) || len(in.Slug) > maxSlug) {
		errs["slug"] = fmt.Sprintf("O endereço (slug) deve ter até %d caracteres: letras minúsculas sem acento, números e hífens entre eles.", maxSlug)
	}
	fields, ferrs := t.CheckFields(in.Fields)
	for k, v := range ferrs {
		errs[k] = v
	}
	in.Fields = fields
	if len(errs) == 0 {
		return in, nil
	}
	return in, errs
}

// CheckFields validates values against t and returns them normalised:
// absent and empty values dropped, text trimmed, numbers as float64, dates
// and times in canonical form (UTC for datetimes), tags and options without
// repeats.
func (t *Type) CheckFields(values map[string]any) (map[string]any, FieldErrors) {
	errs := FieldErrors{}
	clean := make(map[string]any, len(values))
	for name := range values {
		if _, ok := t.Field(name); !ok {
			errs[name] = fmt.Sprintf("Este campo não existe em %s.", t.Singular)
		}
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		v, msg := f.check(values[f.Name])
		if msg != "" {
			errs[f.Name] = msg
			continue
		}
		if v != nil {
			clean[f.Name] = v
		}
	}
	if len(errs) == 0 {
		return clean, nil
	}
	return clean, errs
}

func required(label string) string { return fmt.Sprintf("Preencha o campo %s.", label) }

func tooLong(label string, n int) string {
	return fmt.Sprintf("O campo %s deve ter no máximo %s.", label, plural(n, "caractere", "caracteres"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// formatNumber writes n the Brazilian way: 2,5 and 1000.
func formatNumber(n float64) string {
	return strings.Replace(strconv.FormatFloat(n, 'f', -1, 64), ".", ",", 1)
}

// isEmpty reports whether v counts as "not filled in".
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case []string:
		return len(x) == 0
	}
	return false
}

// check validates one value of f and returns it normalised, or a message.
// A nil result with no message means "absent, and that is fine".
func (f *Field) check(v any) (any, string) {
	if isEmpty(v) {
		if f.Required {
			return nil, f.requiredMessage()
		}
		return nil, ""
	}
	switch f.Kind {
	case KindText, KindLongText:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Sprintf("O campo %s deve ser um texto.", f.Label)
		}
		s = strings.TrimSpace(s)
		if msg := f.checkLength(s); msg != "" {
			return nil, msg
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			return nil, f.patternMessage()
		}
		return s, ""
	case KindURL:
		s, ok := v.(string)
		u, err := url.Parse(strings.TrimSpace(s))
		if !ok || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Sprintf("Informe um endereço válido começando com http:// ou https:// no campo %s.", f.Label)
		}
		s = strings.TrimSpace(s)
		if msg := f.checkLength(s); msg != "" {
			return nil, msg
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			return nil, f.patternMessage()
		}
		return s, ""
	case KindNumber:
		n, ok := toNumber(v)
		if !ok {
			return nil, fmt.Sprintf("O campo %s deve ser um número.", f.Label)
		}
		if f.Min != nil && n < *f.Min {
			return nil, fmt.Sprintf("O campo %s deve ser no mínimo %s.", f.Label, formatNumber(*f.Min))
		}
		if f.Max != nil && n > *f.Max {
			return nil, fmt.Sprintf("O campo %s deve ser no máximo %s.", f.Label, formatNumber(*f.Max))
		}
		return n, ""
	case KindBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Sprintf("O campo %s deve ser sim ou não.", f.Label)
		}
		if f.Required && !b {
			return nil, f.requiredMessage()
		}
		return b, ""
	case KindSelect:
		s, ok := v.(string)
		if !ok || !f.hasOption(s) {
			return nil, fmt.Sprintf("Escolha uma das opções do campo %s.", f.Label)
		}
		return s, ""
	case KindMultiSelect:
		list, ok := toStrings(v)
		if !ok {
			return nil, fmt.Sprintf("Escolha opções da lista no campo %s.", f.Label)
		}
		list = unique(list, false)
		for _, s := range list {
			if !f.hasOption(s) {
				return nil, fmt.Sprintf("O campo %s tem uma opção que não está na lista.", f.Label)
			}
		}
		if msg := f.checkCount(len(list), "Escolha", "opção", "opções"); msg != "" {
			return nil, msg
		}
		return list, ""
	case KindTags:
		list, ok := toStrings(v)
		if !ok {
			return nil, fmt.Sprintf("O campo %s deve ser uma lista de etiquetas.", f.Label)
		}
		for i, s := range list {
			list[i] = strings.TrimSpace(s)
			if n := utf8.RuneCountInString(list[i]); n == 0 || n > maxTag {
				return nil, fmt.Sprintf("Cada etiqueta do campo %s deve ter de 1 a %d caracteres.", f.Label, maxTag)
			}
		}
		list = unique(list, true)
		if msg := f.checkCount(len(list), "Informe", "etiqueta", "etiquetas"); msg != "" {
			return nil, msg
		}
		return list, ""
	case KindDate:
		s, ok := v.(string)
		d, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
		if !ok || err != nil {
			return nil, fmt.Sprintf("Informe uma data válida no campo %s.", f.Label)
		}
		return d.Format(time.DateOnly), ""
	case KindDateTime:
		s, ok := v.(string)
		d, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
		if !ok || err != nil {
			return nil, fmt.Sprintf("Informe uma data e hora válidas no campo %s.", f.Label)
		}
		// UTC with a fixed layout, so stored values compare as text in filters.
		return d.UTC().Format("2006-01-02T15:04:05Z"), ""
	case KindImage, KindFile:
		s, ok := v.(string)
		if !ok || !storage.ValidKey(strings.TrimSpace(s)) {
			return nil, fmt.Sprintf("O arquivo do campo %s não é válido. Envie o arquivo de novo.", f.Label)
		}
		return strings.TrimSpace(s), ""
	case KindVideo:
		s, ok := v.(string)
		if !ok || uuid.Validate(s) != nil {
			return nil, fmt.Sprintf("O vídeo do campo %s não é válido. Envie o vídeo de novo.", f.Label)
		}
		return strings.ToLower(s), ""
	case KindReference, KindChildren:
		if f.Kind == KindReference && !f.Many {
			s, ok := v.(string)
			if !ok || uuid.Validate(s) != nil {
				return nil, fmt.Sprintf("Escolha um item válido no campo %s.", f.Label)
			}
			return strings.ToLower(s), ""
		}
		list, ok := toStrings(v)
		if !ok {
			return nil, fmt.Sprintf("Escolha itens válidos no campo %s.", f.Label)
		}
		for i, s := range list {
			if uuid.Validate(s) != nil {
				return nil, fmt.Sprintf("Escolha itens válidos no campo %s.", f.Label)
			}
			list[i] = strings.ToLower(s)
		}
		// Children keep their order; a child listed twice is a mistake.
		if len(unique(list, false)) != len(list) {
			return nil, fmt.Sprintf("O campo %s tem o mesmo item mais de uma vez.", f.Label)
		}
		if msg := f.checkCount(len(list), "Escolha", "item", "itens"); msg != "" {
			return nil, msg
		}
		return list, ""
	}
	return nil, fmt.Sprintf("O campo %s não pode ser salvo.", f.Label)
}

func (f *Field) requiredMessage() string {
	switch f.Kind {
	case KindSelect:
		return fmt.Sprintf("Escolha uma opção no campo %s.", f.Label)
	case KindMultiSelect:
		return fmt.Sprintf("Escolha pelo menos uma opção no campo %s.", f.Label)
	case KindTags:
		return fmt.Sprintf("Informe pelo menos uma etiqueta no campo %s.", f.Label)
	case KindReference, KindChildren:
		return fmt.Sprintf("Escolha pelo menos um item no campo %s.", f.Label)
	case KindImage, KindVideo, KindFile:
		return fmt.Sprintf("Envie um arquivo no campo %s.", f.Label)
	case KindBoolean:
		return fmt.Sprintf("Marque o campo %s.", f.Label)
	}
	return required(f.Label)
}

func (f *Field) patternMessage() string {
	if f.PatternMessage != "" {
		return f.PatternMessage
	}
	return fmt.Sprintf("O campo %s não está no formato esperado.", f.Label)
}

func (f *Field) checkLength(s string) string {
	n := utf8.RuneCountInString(s)
	if f.Min != nil && n < int(math.Ceil(*f.Min)) {
		return fmt.Sprintf("O campo %s deve ter pelo menos %s.", f.Label, plural(int(math.Ceil(*f.Min)), "caractere", "caracteres"))
	}
	if f.Max != nil && n > int(*f.Max) {
		return tooLong(f.Label, int(*f.Max))
	}
	return ""
}

func (f *Field) checkCount(n int, verb, one, many string) string {
	if f.Min != nil && n < int(math.Ceil(*f.Min)) {
		return fmt.Sprintf("%s pelo menos %s no campo %s.", verb, plural(int(math.Ceil(*f.Min)), one, many), f.Label)
	}
	if f.Max != nil && n > int(*f.Max) {
		return fmt.Sprintf("%s no máximo %s no campo %s.", verb, plural(int(*f.Max), one, many), f.Label)
	}
	return ""
}

func (f *Field) hasOption(v string) bool {
	for _, o := range f.Options {
		if o.Value == v {
			return true
		}
	}
	return false
}

func toNumber(v any) (float64, bool) {
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case float32:
		n = float64(x)
	case int:
		n = float64(x)
	case int64:
		n = float64(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return 0, false
		}
		n = f
	default:
		return 0, false
	}
	return n, !math.IsNaN(n) && !math.IsInf(n, 0)
}

func toStrings(v any) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return append([]string(nil), x...), true
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// unique drops repeats, keeping the first occurrence (case-insensitively
// when fold is set, for tags typed by hand).
func unique(list []string, fold bool) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, s := range list {
		k := s
		if fold {
			k = strings.ToLower(s)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

var accentFolds = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a",
	"é", "e", "è", "e", "ê", "e", "ë", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i",
	"ó", "o", "ò", "o", "ô", "o", "õ", "o", "ö", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u",
	"ç", "c", "ñ", "n",
)

// Slugify turns a pt-BR title into an address: "Cirurgia em cães: o básico"
// becomes "cirurgia-em-caes-o-basico".
func Slugify(title string) string {
	s := accentFolds.Replace(strings.ToLower(title))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= maxSlug-8 { // room for a "-2" style suffix
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "item"
	}
	return b.String()
}
