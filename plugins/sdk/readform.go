package sdk

import (
	"math"
	"net/http"
	"strings"
	"time"
)

// FormValues is a form submission checked against the form's fields.
// Numbers are already parsed (JSON numbers or Brazilian text such as
// "12,5"); a missing optional number reads as zero, a missing optional text
// as "".
type FormValues struct {
	numbers map[string]float64
	texts   map[string]string
	bools   map[string]bool
	present map[string]bool
}

// Number returns a number field's value.
func (v FormValues) Number(name string) float64 { return v.numbers[name] }

// String returns a text, select or date field's value, trimmed.
func (v FormValues) String(name string) string { return v.texts[name] }

// Bool returns a boolean field's value.
func (v FormValues) Bool(name string) bool { return v.bools[name] }

// Has reports whether the field was filled in (and shown: a field hidden by
// its ShowIf condition never is).
func (v FormValues) Has(name string) bool { return v.present[name] }

// ReadForm decodes r's JSON body and checks it against form's fields, so the
// rules a manifest declares (Required, Min, Max, Type, Options, ShowIf) are
// written once and hold on the server as in the browser. Malformed JSON is
// answered here and ok is false. Otherwise the per-field problems (pt-BR,
// each naming the field by its Noun with agreement) are returned without
// answering, so the handler can add checks across fields before
// problems.Respond(w).
//
//	in, problems, ok := sdk.ReadForm(w, r, doseForm)
//	if !ok || problems.Respond(w) {
//		return
//	}
//	kg := in.Number("peso")
func ReadForm(w http.ResponseWriter, r *http.Request, form Form) (in FormValues, problems Problems, ok bool) {
	raw, ok := ReadInput(w, r)
	if !ok {
		return FormValues{}, nil, false
	}
	in, problems = CheckForm(form, raw)
	return in, problems, true
}

// CheckForm is ReadForm for an already decoded submission.
func CheckForm(form Form, raw Input) (FormValues, Problems) {
	v := FormValues{numbers: map[string]float64{}, texts: map[string]string{}, bools: map[string]bool{}, present: map[string]bool{}}
	p := Problems{}
	for _, f := range form.Fields {
		if !shown(f, raw) {
			continue
		}
		checkField(f, raw, v, p)
	}
	return v, p
}

// shown reports whether f's ShowIf condition holds for the submission.
func shown(f Field, raw Input) bool {
	if f.ShowIf == nil {
		return true
	}
	other := raw.String(f.ShowIf.Field)
	for _, want := range f.ShowIf.Values {
		if other == want {
			return true
		}
	}
	return false
}

func blank(x any) bool {
	if x == nil {
		return true
	}
	s, isText := x.(string)
	return isText && strings.TrimSpace(s) == ""
}

func checkField(f Field, raw Input, v FormValues, p Problems) {
	n := nounOf(f)
	if blank(raw[f.Name]) {
		if f.Required {
			if f.Type == FieldSelect {
				p.Add(f.Name, "Selecione "+n.text+".")
			} else {
				p.Add(f.Name, n.cap()+" "+n.pick("é obrigatório", "é obrigatória", "são obrigatórios", "são obrigatórias")+".")
			}
		}
		return
	}
	switch f.Type {
	case FieldNumber:
		x, ok := raw.Number(f.Name)
		if !ok {
			p.Add(f.Name, "Informe "+n.text+" em números.")
			return
		}
		if msg := rangeProblem(f, n, x); msg != "" {
			p.Add(f.Name, msg)
			return
		}
		v.numbers[f.Name] = x
	case FieldSelect:
		s := raw.String(f.Name)
		for _, o := range f.Options {
			if s == o.Value {
				v.texts[f.Name] = s
				v.present[f.Name] = true
				return
			}
		}
		p.Add(f.Name, "Selecione "+n.text+" entre as opções.")
		return
	case FieldBoolean:
		b, ok := raw[f.Name].(bool)
		if !ok {
			p.Add(f.Name, "Informe sim ou não para "+n.text+".")
			return
		}
		v.bools[f.Name] = b
	case FieldDate:
		s := raw.String(f.Name)
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			p.Add(f.Name, "Informe uma data válida para "+n.text+".")
			return
		}
		v.texts[f.Name] = s
	default: // FieldText
		s, ok := raw[f.Name].(string)
		if !ok {
			p.Add(f.Name, "Informe um texto para "+n.text+".")
			return
		}
		v.texts[f.Name] = strings.TrimSpace(s)
	}
	v.present[f.Name] = true
}

// rangeProblem checks x against f's Min and Max. A field with both limits
// names the range; one with only a lower limit of zero refuses negatives;
// one whose lower limit is above zero says "greater than zero" for zero and
// negatives, since that is the rule a reader recognises.
func rangeProblem(f Field, n noun, x float64) string {
	low := f.Min != nil && x < *f.Min
	high := f.Max != nil && x > *f.Max
	if !low && !high {
		return ""
	}
	must := n.pick("deve", "deve", "devem", "devem")
	switch {
	case f.Min != nil && f.Max != nil:
		// "entre 0 e 60%", but money reads "entre R$ 0,00 e R$ 1.000,00".
		from := formatLimit(*f.Min, "")
		if f.Unit == "R$" {
			from = formatLimit(*f.Min, f.Unit)
		}
		return n.cap() + " " + must + " estar entre " + from + " e " + formatLimit(*f.Max, f.Unit) + "."
	case high:
		return n.cap() + " " + must + " ser de no máximo " + formatLimit(*f.Max, f.Unit) + "."
	case *f.Min == 0:
		return n.cap() + " " + n.pick("não pode ser negativo", "não pode ser negativa", "não podem ser negativos", "não podem ser negativas") + "."
	case *f.Min > 0 && x <= 0:
		return n.cap() + " " + must + " ser " + n.pick("maior", "maior", "maiores", "maiores") + " que zero."
	}
	return n.cap() + " " + must + " ser de no mínimo " + formatLimit(*f.Min, f.Unit) + "."
}

// formatLimit writes a limit the Brazilian way with as many decimals as it
// needs (up to 4) and its unit: "0,01 kg", "15%"; an amount in reais as
// money, "R$ 0,00".
func formatLimit(v float64, unit string) string {
	if unit == "R$" {
		return FormatBRL(v)
	}
	d := 0
	for d < 4 && math.Abs(v*math.Pow(10, float64(d))-math.Round(v*math.Pow(10, float64(d)))) > 1e-9 {
		d++
	}
	s := FormatNumber(v, d)
	switch {
	case unit == "":
		return s
	case unit == "%":
		return s + "%"
	}
	return s + " " + unit
}

// noun is how messages name a field: its Noun, whose article ("o", "a",
// "os", "as") gives the gender and number every word agrees with.
type noun struct {
	text             string
	feminine, plural bool
}

// nounOf returns f's Noun. Without one (or without an article) the message
// names "o campo «Label»", which is masculine singular whatever the label,
// so agreement still holds.
func nounOf(f Field) noun {
	if n, ok := parseNoun(f.Noun); ok {
		return n
	}
	return noun{text: "o campo «" + f.Label + "»"}
}

func parseNoun(s string) (noun, bool) {
	article, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	if strings.TrimSpace(rest) == "" {
		return noun{}, false
	}
	switch strings.ToLower(article) {
	case "o":
		return noun{text: s}, true
	case "a":
		return noun{text: s, feminine: true}, true
	case "os":
		return noun{text: s, plural: true}, true
	case "as":
		return noun{text: s, feminine: true, plural: true}, true
	}
	return noun{}, false
}

// pick returns the form that agrees with the noun.
func (n noun) pick(mascSingular, femSingular, mascPlural, femPlural string) string {
	switch {
	case n.plural && n.feminine:
		return femPlural
	case n.plural:
		return mascPlural
	case n.feminine:
		return femSingular
	}
	return mascSingular
}

// cap returns the noun to open a sentence.
func (n noun) cap() string {
	if n.text == "" {
		return ""
	}
	return strings.ToUpper(n.text[:1]) + n.text[1:]
}
