package sdk

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

var testForm = Form{ID: "f", Title: "Teste", Action: "f", Fields: []Field{
	{Name: "peso", Label: "Peso", Noun: "o peso", Type: FieldNumber, Unit: "kg", Required: true, Min: Ptr(0.01), Max: Ptr(150)},
	{Name: "dose", Label: "Dose", Noun: "a dose", Type: FieldNumber, Unit: "mg/kg", Required: true, Min: Ptr(0.0001)},
	{Name: "custos", Label: "Custos fixos", Noun: "os custos fixos", Type: FieldNumber, Unit: "R$", Required: true, Min: Ptr(0)},
	{Name: "perdas", Label: "Perdas contínuas", Noun: "as perdas contínuas", Type: FieldNumber, Min: Ptr(0)},
	{Name: "horas", Label: "Horas", Noun: "as horas", Type: FieldNumber, Unit: "h", Min: Ptr(1)},
	{Name: "teto", Label: "Teto", Noun: "o teto", Type: FieldNumber, Unit: "%", Max: Ptr(15)},
	{Name: "materiais", Label: "Materiais", Noun: "os materiais", Type: FieldNumber, Unit: "R$", Min: Ptr(0), Max: Ptr(1e6)},
	{Name: "entrada", Label: "Entrada", Noun: "a entrada", Type: FieldNumber, Unit: "R$", Min: Ptr(1.5)},
	{Name: "especie", Label: "Espécie", Noun: "a espécie", Type: FieldSelect, Required: true,
		Options: []Option{{Value: "cao", Label: "Cão"}, {Value: "gato", Label: "Gato"}}},
	{Name: "fase_cao", Label: "Fase", Noun: "a fase de vida", Type: FieldSelect, Required: true,
		Options: []Option{{Value: "adulto", Label: "Adulto"}}, ShowIf: &Condition{Field: "especie", Values: []string{"cao"}}},
	{Name: "nome", Label: "Nome do paciente", Type: FieldText, Required: true},
	{Name: "castrado", Label: "Castrado", Noun: "a castração", Type: FieldBoolean},
	{Name: "data", Label: "Data da consulta", Noun: "a data da consulta", Type: FieldDate},
}}

func check(t *testing.T, body map[string]any) (FormValues, Problems) {
	t.Helper()
	raw := Input{}
	b, _ := json.Marshal(body)
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	return CheckForm(testForm, raw)
}

func TestCheckFormMessagesAgreeWithTheNoun(t *testing.T) {
	cases := []struct {
		name  string
		body  map[string]any
		field string
		want  string
	}{
		{"masc. singular required", map[string]any{}, "peso", "O peso é obrigatório."},
		{"fem. singular required", map[string]any{}, "dose", "A dose é obrigatória."},
		{"masc. plural required", map[string]any{"custos": ""}, "custos", "Os custos fixos são obrigatórios."},
		{"no noun: the field's label", map[string]any{}, "nome", "O campo «Nome do paciente» é obrigatório."},
		{"required select", map[string]any{}, "especie", "Selecione a espécie."},
		{"select outside its options", map[string]any{"especie": "peixe"}, "especie", "Selecione a espécie entre as opções."},
		{"shown select", map[string]any{"especie": "cao"}, "fase_cao", "Selecione a fase de vida."},
		{"range, below", map[string]any{"peso": 0}, "peso", "O peso deve estar entre 0,01 e 150 kg."},
		{"range, above", map[string]any{"peso": "150,5"}, "peso", "O peso deve estar entre 0,01 e 150 kg."},
		{"positive, zero", map[string]any{"dose": 0}, "dose", "A dose deve ser maior que zero."},
		{"positive, plural", map[string]any{"horas": -2}, "horas", "As horas devem ser maiores que zero."},
		{"minimum above zero", map[string]any{"horas": 0.5}, "horas", "As horas devem ser de no mínimo 1 h."},
		{"minimum with decimals", map[string]any{"dose": 0.00001}, "dose", "A dose deve ser de no mínimo 0,0001 mg/kg."},
		{"fem. plural negative", map[string]any{"perdas": -1}, "perdas", "As perdas contínuas não podem ser negativas."},
		{"masc. plural negative", map[string]any{"custos": -1}, "custos", "Os custos fixos não podem ser negativos."},
		{"maximum only, percent", map[string]any{"teto": 16}, "teto", "O teto deve ser de no máximo 15%."},
		{"money range, below", map[string]any{"materiais": -1}, "materiais", "Os materiais devem estar entre R$ 0,00 e R$ 1.000.000,00."},
		{"money range, above", map[string]any{"materiais": "R$ 1.000.000,01"}, "materiais", "Os materiais devem estar entre R$ 0,00 e R$ 1.000.000,00."},
		{"money minimum", map[string]any{"entrada": "1,25"}, "entrada", "A entrada deve ser de no mínimo R$ 1,50."},
		{"not a number, plural", map[string]any{"custos": "muitos"}, "custos", "Informe os custos fixos em números."},
		{"not a number", map[string]any{"dose": "muito"}, "dose", "Informe a dose em números."},
		{"not a boolean", map[string]any{"castrado": "sim"}, "castrado", "Informe sim ou não para a castração."},
		{"not a date", map[string]any{"data": "31/02/2026"}, "data", "Informe uma data válida para a data da consulta."},
		{"text not a string", map[string]any{"nome": 3}, "nome", "Informe um texto para o campo «Nome do paciente»."},
	}
	for _, c := range cases {
		_, p := check(t, c.body)
		if got := p[c.field]; got != c.want {
			t.Errorf("%s: %s = %q, want %q", c.name, c.field, got, c.want)
		}
	}
}

func TestCheckFormReadsValidInput(t *testing.T) {
	v, p := check(t, map[string]any{"peso": "12,5", "materiais": "R$ 25.000,00", "horas": "1.200", "dose": 2, "custos": 0, "especie": "gato", "fase_cao": "nonsense",
		"nome": "  Rex ", "castrado": true, "data": "2026-01-05"})
	if len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	if v.Number("materiais") != 25000 || v.Number("horas") != 1200 {
		t.Errorf("pasted Brazilian numbers: %v %v", v.Number("materiais"), v.Number("horas"))
	}
	if v.Number("peso") != 12.5 || v.Number("dose") != 2 || !v.Has("custos") || v.Number("custos") != 0 {
		t.Errorf("numbers: %+v", v)
	}
	// fase_cao is hidden for a cat: neither checked nor read.
	if v.Has("fase_cao") || v.String("fase_cao") != "" {
		t.Errorf("hidden field read: %q", v.String("fase_cao"))
	}
	if v.String("nome") != "Rex" || !v.Bool("castrado") || v.String("data") != "2026-01-05" || v.String("especie") != "gato" {
		t.Errorf("values: %+v", v)
	}
	// Optional numbers left out read as zero and are not "present".
	if v.Has("perdas") || v.Number("perdas") != 0 {
		t.Errorf("perdas: %v %v", v.Has("perdas"), v.Number("perdas"))
	}
}

func TestReadFormAnswersMalformedJSON(t *testing.T) {
	rec := httptest.NewRecorder()
	_, _, ok := ReadForm(rec, httptest.NewRequest("POST", "/", strings.NewReader("{")), testForm)
	if ok || rec.Code != 422 || !strings.Contains(rec.Body.String(), "JSON inválido") {
		t.Fatalf("ok=%v %d %s", ok, rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	_, p, ok := ReadForm(rec, httptest.NewRequest("POST", "/", strings.NewReader(`{"peso": 1}`)), testForm)
	if !ok || rec.Body.Len() != 0 || p["dose"] != "A dose é obrigatória." {
		t.Fatalf("ok=%v body=%s problems=%v", ok, rec.Body, p)
	}
}

func TestManifestRefusesANounWithoutArticle(t *testing.T) {
	m := Manifest{ID: "x-y", Name: "n", Description: "d", Version: "1", MinCoreVersion: "1", Kind: KindTool,
		Access: AccessUser, UIKind: UIForm, Slug: "x-y", Forms: []Form{{ID: "f", Fields: []Field{{Name: "a", Noun: "peso"}}}}}
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "article") {
		t.Fatalf("err = %v", err)
	}
	m.Forms[0].Fields[0].Noun = "o peso"
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidID(t *testing.T) {
	for _, id := range []string{"a_b", "A-b", "a--b", "-ab", "ab-", "a", strings.Repeat("a", MaxIDLength+1), "a.b", "a/b", "1ab"} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	for _, id := range []string{"ab", "analise-swot", "calc2", strings.Repeat("a", MaxIDLength)} {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
}
