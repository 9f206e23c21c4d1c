package sdk

import (
	"math"
	"net/http"
	"strconv"
	"strings"
)

// Input is a submitted form: field name → JSON value.
type Input map[string]any

// ReadInput decodes a form submission; on malformed JSON it answers a pt-BR
// error and returns false.
func ReadInput(w http.ResponseWriter, r *http.Request) (Input, bool) {
	in := Input{}
	if !DecodeJSON(w, r, &in) {
		return nil, false
	}
	return in, true
}

// Number returns a numeric field, accepting JSON numbers and strings written
// the Brazilian way ("12,5"). ok is false when the field is missing or not a
// number.
func (in Input) Number(name string) (v float64, ok bool) {
	switch x := in[name].(type) {
	case float64:
		v, ok = x, true
	case string:
		s := strings.TrimSpace(x)
		if strings.Contains(s, ",") {
			s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
		}
		f, err := strconv.ParseFloat(s, 64)
		v, ok = f, err == nil && s != ""
	}
	if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return 0, false
	}
	return v, ok
}

// String returns a text or select field, trimmed.
func (in Input) String(name string) string {
	s, _ := in[name].(string)
	return strings.TrimSpace(s)
}

// Bool returns a boolean field (false when missing).
func (in Input) Bool(name string) bool {
	b, _ := in[name].(bool)
	return b
}

// Problems collects per-field validation messages (pt-BR).
type Problems map[string]string

// Add records msg for field unless it already has one.
func (p Problems) Add(field, msg string) {
	if _, ok := p[field]; !ok {
		p[field] = msg
	}
}

// Respond answers 422 with the messages and reports whether there were any.
func (p Problems) Respond(w http.ResponseWriter) bool {
	if len(p) == 0 {
		return false
	}
	WriteError(w, http.StatusUnprocessableEntity, "Verifique os campos destacados.", p)
	return true
}

// Positive reads a required number greater than zero.
func (p Problems) Positive(in Input, name, label string) float64 {
	v, ok := in.Number(name)
	switch {
	case !ok:
		p.Add(name, label+" é obrigatório e deve ser um número.")
	case v <= 0:
		p.Add(name, label+" deve ser maior que zero.")
	}
	return v
}

// NonNegative reads a number that may be zero; missing counts as zero.
func (p Problems) NonNegative(in Input, name, label string) float64 {
	if _, present := in[name]; !present || in[name] == nil || in[name] == "" {
		return 0
	}
	v, ok := in.Number(name)
	switch {
	case !ok:
		p.Add(name, label+" deve ser um número.")
	case v < 0:
		p.Add(name, label+" não pode ser negativo.")
	}
	return v
}

// Choice reads a select field that must be one of options.
func (p Problems) Choice(in Input, name, label string, options ...string) string {
	v := in.String(name)
	for _, o := range options {
		if v == o {
			return v
		}
	}
	p.Add(name, "Selecione "+label+".")
	return ""
}

// JSON is a convenience for handlers returning a Result.
func (r Result) Write(w http.ResponseWriter) { WriteJSON(w, http.StatusOK, r) }
