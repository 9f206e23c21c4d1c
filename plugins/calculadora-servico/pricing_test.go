package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestManifestIsValid(t *testing.T) {
	if err := Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestPriceBreakdown(t *testing.T) {
	// R$ 16.000/month over 160 h = R$ 100/h; a 30-min consult uses R$ 50 of
	// fixed cost plus R$ 10 of materials = R$ 60. With 6 % tax, 4 % card fee
	// and 30 % margin, 60 % of the price is left for cost: 60 ÷ 0,6 = R$ 100.
	body := `{"custos_fixos":16000,"horas_mes":160,"duracao":30,"materiais":10,"impostos":6,"taxa_cartao":4,"margem":30}`
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/preco", strings.NewReader(body)))
	var res sdk.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if res.Values[0].Number != 100 || res.Values[0].Display != "R$ 100,00" {
		t.Errorf("price = %+v", res.Values[0])
	}
	if res.Values[1].Number != 60 || res.Values[2].Number != 30 {
		t.Errorf("cost/profit = %+v", res.Values)
	}
	rows := res.Tables[0].Rows
	if rows[2][1] != "R$ 6,00" || rows[3][1] != "R$ 4,00" || rows[5][1] != "R$ 100,00" {
		t.Errorf("breakdown rows = %v", rows)
	}
	// R$ 7.500 ÷ 150 h = R$ 50/h; 45 min = R$ 37,50 + R$ 37,50 materials = R$ 75;
	// 8 + 3,5 + 25 = 36,5 % of the price, so 75 ÷ 0,635 = R$ 118,11.
	if got := sdk.FormatBRL(Price(7500, 150, 45, 37.5, 8, 3.5, 25).Price); got != "R$ 118,11" {
		t.Errorf("second example price = %s, want R$ 118,11", got)
	}
}

func TestPricingRefusesImpossibleInput(t *testing.T) {
	for body, want := range map[string][2]string{
		`{"custos_fixos":1000,"horas_mes":0,"duracao":30,"margem":20}`:                                  {"horas_mes", "As horas trabalhadas por mês devem estar entre 1 e 744 h."},
		`{"custos_fixos":1000,"horas_mes":745,"duracao":30,"margem":20}`:                                {"horas_mes", "As horas trabalhadas por mês devem estar entre 1 e 744 h."},
		`{"custos_fixos":-1,"horas_mes":100,"duracao":30,"margem":20}`:                                  {"custos_fixos", "Os custos fixos não podem ser negativos."},
		`{"custos_fixos":1000,"horas_mes":100,"duracao":30,"impostos":30,"taxa_cartao":20,"margem":50}`: {"margem", "Impostos, taxa do cartão e margem somados devem ficar abaixo de 100%."},
		`{"horas_mes":100,"duracao":30,"margem":20}`:                                                    {"custos_fixos", "Os custos fixos são obrigatórios."},
	} {
		field := want[0]
		rec := httptest.NewRecorder()
		Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/preco", strings.NewReader(body)))
		var e struct {
			Error struct{ Fields map[string]string }
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != 422 || e.Error.Fields[field] != want[1] {
			t.Errorf("%s: %d %s, want %q for %s", body, rec.Code, rec.Body, want[1], field)
		}
	}
}

// Extreme amounts overflow into ±Inf, which JSON cannot carry: 422 naming
// the input, never a 200 with an empty body.
func TestPricingRefusesNonFiniteResults(t *testing.T) {
	for body, field := range map[string]string{
		`{"custos_fixos":1e308,"horas_mes":1,"duracao":1e308,"margem":20}`:                                  "custos_fixos",
		`{"custos_fixos":1e306,"horas_mes":1,"duracao":60,"materiais":1.79e308,"margem":20}`:                "materiais",
		`{"custos_fixos":1e306,"horas_mes":1,"duracao":60,"impostos":60,"taxa_cartao":20,"margem":19.9999}`: "margem",
	} {
		rec := httptest.NewRecorder()
		Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/preco", strings.NewReader(body)))
		var e struct {
			Error struct{ Fields map[string]string }
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != 422 || e.Error.Fields[field] == "" {
			t.Errorf("%s: %d %s, want a message for %s", body, rec.Code, rec.Body, field)
		}
	}
}

func TestAFreeServiceShowsNoShareOfAZeroPrice(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/preco", strings.NewReader(`{"custos_fixos":0,"horas_mes":100,"duracao":30,"margem":20}`)))
	var res sdk.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if rows := res.Tables[0].Rows; rows[0][2] != "—" || rows[1][2] != "—" {
		t.Errorf("shares of a zero price = %v", rows)
	}
}

// Every field, left out, too small, zero, too large or not a number, gets a
// message that names it and agrees with it in gender and number.
func TestEveryFieldsMessagesAreGrammatical(t *testing.T) {
	for _, f := range priceForm.Fields {
		if f.Noun == "" {
			t.Errorf("field %s has no Noun, so its messages cannot agree with it", f.Name)
		}
	}
	got := sdktest.WalkForm(t, Handler(), priceForm, map[string]any{
		"custos_fixos": 16000, "horas_mes": 160, "duracao": 30, "materiais": 10, "impostos": 6, "taxa_cartao": 4, "margem": 30,
	})
	for key, want := range map[string]string{
		"custos_fixos/missing":   "Os custos fixos são obrigatórios.",
		"custos_fixos/too-small": "Os custos fixos não podem ser negativos.",
		"horas_mes/too-small":    "As horas trabalhadas por mês devem estar entre 1 e 744 h.",
		"duracao/missing":        "A duração do serviço é obrigatória.",
		"duracao/zero":           "A duração do serviço deve ser maior que zero.",
		"duracao/too-small":      "A duração do serviço deve ser de no mínimo 1 min.",
		"materiais/too-small":    "Os materiais e insumos não podem ser negativos.",
		"impostos/too-large":     "Os impostos devem estar entre 0 e 60%.",
		"taxa_cartao/too-large":  "A taxa do cartão deve estar entre 0 e 20%.",
		"margem/missing":         "A margem de lucro é obrigatória.",
		"margem/not-valid":       "Informe a margem de lucro em números.",
	} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q", key, got[key], want)
		}
	}
}
