package main

import (
	"net/http"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Manifest describes the pricing calculator.
var Manifest = sdk.Manifest{
	ID:             "calculadora-servico",
	Name:           "Calculadora de Preço de Serviço",
	Description:    "Calcule o preço de uma consulta ou procedimento a partir dos seus custos, impostos, taxas e margem desejada.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "badge-dollar-sign",
	Category:       "Gestão",
	Slug:           "calculadora-servico",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UIForm,
	Forms:          []sdk.Form{priceForm},
}

// priceForm is declared once: the manifest hands it to the web app, and the
// handler checks each submission against the same fields (sdk.ReadForm).
var priceForm = sdk.Form{
	ID: "preco", Title: "Preço do serviço", Action: "preco", Submit: "Calcular preço",
	Description: "Preço = (custo fixo por hora × duração + materiais) ÷ (1 − impostos − taxa do cartão − margem).",
	Fields: []sdk.Field{
		{Name: "custos_fixos", Label: "Custos fixos mensais", Noun: "os custos fixos", Type: sdk.FieldNumber, Unit: "R$", Required: true, Min: sdk.Ptr(0), Step: 0.01,
			Help: "Aluguel, salários, pró-labore, contador, sistemas, energia…"},
		{Name: "horas_mes", Label: "Horas trabalhadas por mês", Noun: "as horas trabalhadas por mês", Type: sdk.FieldNumber, Unit: "h", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(744), Step: 1,
			Help: "Um mês tem no máximo 744 horas."},
		{Name: "duracao", Label: "Duração do serviço", Noun: "a duração do serviço", Type: sdk.FieldNumber, Unit: "min", Required: true, Min: sdk.Ptr(1), Step: 1},
		{Name: "materiais", Label: "Materiais e insumos do serviço", Noun: "os materiais e insumos", Type: sdk.FieldNumber, Unit: "R$", Min: sdk.Ptr(0), Step: 0.01, Default: 0},
		{Name: "impostos", Label: "Impostos sobre o faturamento", Noun: "os impostos", Type: sdk.FieldNumber, Unit: "%", Min: sdk.Ptr(0), Max: sdk.Ptr(60), Step: 0.01, Default: 6},
		{Name: "taxa_cartao", Label: "Taxa do cartão", Noun: "a taxa do cartão", Type: sdk.FieldNumber, Unit: "%", Min: sdk.Ptr(0), Max: sdk.Ptr(20), Step: 0.01, Default: 0},
		{Name: "margem", Label: "Margem de lucro desejada", Noun: "a margem de lucro", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(0), Max: sdk.Ptr(90), Step: 0.1, Default: 20},
	},
}

// Breakdown is the computed price and where each real goes.
type Breakdown struct {
	HourlyCost, FixedShare, Materials, Cost, Price, Taxes, CardFee, Profit float64
}

// Price works out the suggested price. Taxes, card fee and margin are
// percentages of the price itself, so the cost is divided by what remains.
func Price(fixedMonthly, hoursPerMonth, minutes, materials, taxesPct, cardPct, marginPct float64) Breakdown {
	b := Breakdown{HourlyCost: fixedMonthly / hoursPerMonth, Materials: materials}
	b.FixedShare = b.HourlyCost * minutes / 60
	b.Cost = b.FixedShare + materials
	b.Price = b.Cost / (1 - (taxesPct+cardPct+marginPct)/100)
	b.Taxes = b.Price * taxesPct / 100
	b.CardFee = b.Price * cardPct / 100
	b.Profit = b.Price * marginPct / 100
	return b
}

// Handler serves POST /preco.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /preco", func(w http.ResponseWriter, r *http.Request) {
		in, p, ok := sdk.ReadForm(w, r, priceForm)
		if !ok || p.Respond(w) {
			return
		}
		fixed, hours, minutes := in.Number("custos_fixos"), in.Number("horas_mes"), in.Number("duracao")
		materials, taxes := in.Number("materiais"), in.Number("impostos")
		card, margin := in.Number("taxa_cartao"), in.Number("margem")
		// A rule across fields, which no field's own limit can state.
		if taxes+card+margin >= 100 {
			p.Add("margem", "Impostos, taxa do cartão e margem somados devem ficar abaixo de 100%.")
		}
		if p.Respond(w) {
			return
		}
		b := Price(fixed, hours, minutes, materials, taxes, card, margin)
		// Amounts so extreme that a step overflows (±Inf) give no usable price:
		// name the input that drove the step past the limit.
		if p.Finite("custos_fixos", "Os custos fixos são grandes demais para este cálculo.", b.HourlyCost, b.FixedShare) &&
			p.Finite("materiais", "Os materiais são grandes demais para este cálculo.", b.Cost) {
			p.Finite("margem", "Com esses valores o preço fica grande demais; revise impostos, taxa do cartão e margem.", b.Price, b.Taxes, b.CardFee, b.Profit)
		}
		if p.Respond(w) {
			return
		}
		brl := func(label string, v float64) sdk.Value {
			return sdk.Value{Label: label, Number: sdk.Round(v, 2), Unit: "R$", Display: sdk.FormatBRL(v)}
		}
		pct := func(v float64) string { return sdk.FormatNumber(v, 2) + "%" }
		// A free service (no cost, so a price of zero) has no share to show.
		share := func(v float64) string {
			if b.Price == 0 {
				return "—"
			}
			return pct(100 * v / b.Price)
		}
		sdk.Result{
			Values: []sdk.Value{brl("Preço sugerido", b.Price), brl("Custo do serviço", b.Cost), brl("Lucro", b.Profit)},
			Tables: []sdk.Table{{
				Title:   "Composição do preço",
				Columns: []string{"Item", "Valor", "% do preço"},
				Rows: [][]string{
					{"Custo fixo (" + sdk.FormatBRL(b.HourlyCost) + "/h × " + sdk.FormatNumber(minutes, 0) + " min)", sdk.FormatBRL(b.FixedShare), share(b.FixedShare)},
					{"Materiais e insumos", sdk.FormatBRL(b.Materials), share(b.Materials)},
					{"Impostos", sdk.FormatBRL(b.Taxes), pct(taxes)},
					{"Taxa do cartão", sdk.FormatBRL(b.CardFee), pct(card)},
					{"Lucro", sdk.FormatBRL(b.Profit), pct(margin)},
					{"Total", sdk.FormatBRL(b.Price), "100,00%"},
				},
			}},
			Explanation: "Custo por hora = " + sdk.FormatBRL(fixed) + " ÷ " + sdk.FormatNumber(hours, 0) + " h = " + sdk.FormatBRL(b.HourlyCost) +
				". Como impostos, taxa e margem incidem sobre o preço, o custo de " + sdk.FormatBRL(b.Cost) + " é dividido por " +
				sdk.FormatNumber(100-taxes-card-margin, 2) + "%.",
		}.Write(w)
	})
	return mux
}
