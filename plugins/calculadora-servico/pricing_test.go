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
	if b, ok := Price(7500, 150, 45, 37.5, 8, 3.5, 25); !ok || brl(b.Price) != "R$ 118,11" {
		t.Errorf("second example price = %s, want R$ 118,11", brl(b.Price))
	}
}

// The parts shown must add up to the total shown. Rounded one by one from
// float64, R$ 10.000 ÷ 120 h, 40 min, R$ 12,50 of materials, 11,2 % tax,
// 4 % card fee and 30 % margin showed parts summing R$ 124,20 under a total
// of R$ 124,19 (and other inputs 131,15 under 131,16). In cents the fixed
// share is R$ 55,56, the cost R$ 68,06 and the price R$ 68,06 ÷ 0,548 =
// R$ 124,20, which the parts now add up to.
func TestBreakdownAddsUpToTheTotal(t *testing.T) {
	body := `{"custos_fixos":"10.000","horas_mes":120,"duracao":40,"materiais":"R$ 12,50","impostos":"11,2","taxa_cartao":4,"margem":30}`
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/preco", strings.NewReader(body)))
	var res sdk.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	rows := res.Tables[0].Rows
	var sum float64
	for _, row := range rows[:5] {
		v, ok := sdk.ParseNumber(row[1])
		if !ok {
			t.Fatalf("cell %q", row[1])
		}
		sum += v
	}
	if got := sdk.FormatBRL(sum); got != rows[5][1] || got != "R$ 124,20" || res.Values[0].Display != got {
		t.Errorf("parts add up to %s, total row %s, price %s; want R$ 124,20 throughout: %v", got, rows[5][1], res.Values[0].Display, rows)
	}
	// Half-up, from the decimals typed: R$ 100,00 ÷ 0,8 is R$ 125,00 flat;
	// R$ 0,05 ÷ 0,4 = R$ 0,125 rounds up to R$ 0,13, never down by float noise.
	for _, c := range []struct {
		materials, margin float64
		want              string
	}{{100, 20, "R$ 125,00"}, {0.05, 60, "R$ 0,13"}} {
		b, ok := Price(0, 1, 1, c.materials, 0, 0, c.margin)
		if !ok || brl(b.Price) != c.want || b.Cost+b.Taxes+b.CardFee+b.Profit != b.Price {
			t.Errorf("Price(materials %v, margin %v) = %+v, want %s", c.materials, c.margin, b, c.want)
		}
	}
}

// With no margin, rounding the fees must not leave a profit of -R$ 0,01:
// the price goes up a cent instead.
func TestRoundingNeverLeavesANegativeProfit(t *testing.T) {
	for c := 1; c < 2000; c++ {
		b, ok := Price(0, 1, 1, float64(c)/100, 6.5, 3.99, 0)
		if !ok || b.Profit < 0 || b.Profit > 1 || b.Cost+b.Taxes+b.CardFee+b.Profit != b.Price {
			t.Fatalf("materials %d cents: %+v", c, b)
		}
	}
}

func TestPricingRefusesImpossibleInput(t *testing.T) {
	for body, want := range map[string][2]string{
		`{"custos_fixos":1000,"horas_mes":0,"duracao":30,"margem":20}`:                                  {"horas_mes", "As horas trabalhadas por mês devem estar entre 1 e 744 h."},
		`{"custos_fixos":1000,"horas_mes":745,"duracao":30,"margem":20}`:                                {"horas_mes", "As horas trabalhadas por mês devem estar entre 1 e 744 h."},
		`{"custos_fixos":-1,"horas_mes":100,"duracao":30,"margem":20}`:                                  {"custos_fixos", "Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00."},
		`{"custos_fixos":"R$ 10.000.000,01","horas_mes":100,"duracao":30,"margem":20}`:                  {"custos_fixos", "Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00."},
		`{"custos_fixos":1000,"horas_mes":100,"duracao":1441,"margem":20}`:                              {"duracao", "A duração do serviço deve estar entre 1 e 1.440 min."},
		`{"custos_fixos":1000,"horas_mes":100,"duracao":30,"materiais":"1.000.001","margem":20}`:        {"materiais", "Os materiais e insumos devem estar entre R$ 0,00 e R$ 1.000.000,00."},
		`{"custos_fixos":"abc","horas_mes":100,"duracao":30,"margem":20}`:                               {"custos_fixos", "Informe os custos fixos em números."},
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

// Extreme amounts are refused by the fields' limits, and a margin so close
// to 100 % that the price explodes by the calculator: 422 naming the input,
// never a 200 with an absurd or empty body.
func TestPricingRefusesExtremeInput(t *testing.T) {
	for body, field := range map[string]string{
		`{"custos_fixos":1e308,"horas_mes":1,"duracao":1e308,"margem":20}`:                                         "custos_fixos",
		`{"custos_fixos":1e6,"horas_mes":1,"duracao":60,"materiais":1.79e308,"margem":20}`:                         "materiais",
		`{"custos_fixos":1e7,"horas_mes":1,"duracao":1440,"impostos":60,"taxa_cartao":20,"margem":19.9999}`:        "margem",
		`{"custos_fixos":1e7,"horas_mes":1,"duracao":1440,"impostos":60,"taxa_cartao":20,"margem":19.99999999999}`: "margem",
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
		"custos_fixos/too-small": "Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00.",
		"custos_fixos/too-large": "Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00.",
		"custos_fixos/not-valid": "Informe os custos fixos em números.",
		"horas_mes/too-small":    "As horas trabalhadas por mês devem estar entre 1 e 744 h.",
		"duracao/missing":        "A duração do serviço é obrigatória.",
		"duracao/zero":           "A duração do serviço deve estar entre 1 e 1.440 min.",
		"duracao/too-small":      "A duração do serviço deve estar entre 1 e 1.440 min.",
		"duracao/too-large":      "A duração do serviço deve estar entre 1 e 1.440 min.",
		"materiais/too-small":    "Os materiais e insumos devem estar entre R$ 0,00 e R$ 1.000.000,00.",
		"materiais/too-large":    "Os materiais e insumos devem estar entre R$ 0,00 e R$ 1.000.000,00.",
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
