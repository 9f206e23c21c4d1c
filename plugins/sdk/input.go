package sdk

import (
	"math"
	"net/http"
	"strings"
)

// Input is a submitted form: field name → JSON value.
type Input map[string]any

// ReadInput decodes a form submission; on malformed JSON it answers a pt-BR
// error and returns false. Forms declared in the manifest are better read
// with ReadForm, which also checks each field against its declaration.
func ReadInput(w http.ResponseWriter, r *http.Request) (Input, bool) {
	in := Input{}
	if !DecodeJSON(w, r, &in) {
		return nil, false
	}
	return in, true
}

// Number returns a numeric field, accepting JSON numbers and strings written
// the Brazilian way ("12,5", "1.200", "R$ 25.000,00"; see ParseNumber). ok is false when the field is missing or not a
// number.
func (in Input) Number(name string) (v float64, ok bool) {
	switch x := in[name].(type) {
	case float64:
		v, ok = x, true
	case string:
		v, ok = ParseNumber(x)
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

// Finite records msg on field unless every figure is a finite number, and
// reports whether they all were. Extreme inputs (a dose of 1e308 mg/kg, a
// concentration of 1e-320 mg/mL) overflow a formula into ±Inf or NaN, which
// is no answer a vet can use: the calculator names the input to check.
func (p Problems) Finite(field, msg string, figures ...float64) bool {
	for _, f := range figures {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			p.Add(field, msg)
			return false
		}
	}
	return true
}

// nonFiniteResult is answered when a result still holds a non-finite figure
// that no calculator check caught.
const nonFiniteResult = "Com esses valores o resultado não pode ser calculado. Verifique os valores informados."

// Write answers the result (200). A figure that is not a finite number is
// refused with 422 instead: it comes from extreme input, and JSON cannot
// carry it.
func (r Result) Write(w http.ResponseWriter) {
	for _, v := range r.Values {
		if math.IsNaN(v.Number) || math.IsInf(v.Number, 0) {
			WriteError(w, http.StatusUnprocessableEntity, nonFiniteResult, nil)
			return
		}
	}
	WriteJSON(w, http.StatusOK, r)
}
