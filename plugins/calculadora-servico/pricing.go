package main

import (
	"math/big"
	"net/http"
	"strconv"

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
		{Name: "custos_fixos", Label: "Custos fixos mensais", Noun: "os custos fixos", Type: sdk.FieldNumber, Unit: "R$", Required: true, Min: sdk.Ptr(0), Max: sdk.Ptr(maxFixedMonthly), Step: 0.01,
			Help: "Aluguel, salários, pró-labore, contador, sistemas, energia…"},
		{Name: "horas_mes", Label: "Horas trabalhadas por mês", Noun: "as horas trabalhadas por mês", Type: sdk.FieldNumber, Unit: "h", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(744), Step: 1,
			Help: "Um mês tem no máximo 744 horas."},
		{Name: "duracao", Label: "Duração do serviço", Noun: "a duração do serviço", Type: sdk.FieldNumber, Unit: "min", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(maxMinutes), Step: 1,
			Help: "No máximo 24 horas (1.440 min)."},
		{Name: "materiais", Label: "Materiais e insumos do serviço", Noun: "os materiais e insumos", Type: sdk.FieldNumber, Unit: "R$", Min: sdk.Ptr(0), Max: sdk.Ptr(maxMaterials), Step: 0.01, Default: 0},
		{Name: "impostos", Label: "Impostos sobre o faturamento", Noun: "os impostos", Type: sdk.FieldNumber, Unit: "%", Min: sdk.Ptr(0), Max: sdk.Ptr(60), Step: 0.01, Default: 6},
		{Name: "taxa_cartao", Label: "Taxa do cartão", Noun: "a taxa do cartão", Type: sdk.FieldNumber, Unit: "%", Min: sdk.Ptr(0), Max: sdk.Ptr(20), Step: 0.01, Default: 0},
		{Name: "margem", Label: "Margem de lucro desejada", Noun: "a margem de lucro", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(0), Max: sdk.Ptr(90), Step: 0.1, Default: 20},
	},
}

// Breakdown is the computed price and where each real goes, in integer
// cents (HourlyCost is only shown, rounded like the rest).
//
// Rounding rule, so the parts shown always add up to the total shown: every
// amount is rounded half-up to the cent once, from exact decimal
// arithmetic (never from float64 noise). The fixed share, the materials, the
// price, the taxes and the card fee are each rounded; the profit is what is
// left of the rounded price (Price − Cost − Taxes − CardFee), as it is in
// the till. If rounding would leave a negative profit (a margin of 0 %), the
// price goes up a cent at a time until it does not.
type Breakdown struct {
	HourlyCost, FixedShare, Materials, Cost, Price, Taxes, CardFee, Profit int64
}

// Limits of the figures, so every amount fits in int64 cents with room to
// spare and no result is absurd for a veterinary service.
const (
	maxFixedMonthly = 10_000_000           // R$ 10 milhões por mês
	maxMaterials    = 1_000_000            // R$ 1 milhão por serviço
	maxMinutes      = 1440                 // 24 horas
	maxPriceCents   = 10_000_000_000 * 100 // R$ 10 bilhões
)

// Price works out the suggested price. Taxes, card fee and margin are
// percentages of the price itself, so the cost is divided by what remains.
// The figures are read as the decimals they print as (12.1 is 12,10, not
// the float64 nearest to it). ok is false when there is no price within
// reach: no hours, percentages adding up to 100 or more, or a price above
// R$ 10 bilhões (a margin so close to 100 % that the division explodes).
func Price(fixedMonthly, hoursPerMonth, minutes, materials, taxesPct, cardPct, marginPct float64) (b Breakdown, ok bool) {
	fixed, hours, mins := decimal(fixedMonthly), decimal(hoursPerMonth), decimal(minutes)
	taxes, card, margin := decimal(taxesPct), decimal(cardPct), decimal(marginPct)
	if hours.Sign() <= 0 {
		return Breakdown{}, false
	}
	hourly := new(big.Rat).Quo(fixed, hours)
	b.HourlyCost = cents(hourly)
	b.FixedShare = cents(new(big.Rat).Quo(new(big.Rat).Mul(hourly, mins), big.NewRat(60, 1)))
	b.Materials = cents(decimal(materials))
	b.Cost = b.FixedShare + b.Materials
	// What is left of each real of the price after taxes, fee and margin.
	left := new(big.Rat).Sub(big.NewRat(1, 1), percent(new(big.Rat).Add(new(big.Rat).Add(taxes, card), margin)))
	if left.Sign() <= 0 {
		return Breakdown{}, false
	}
	price := new(big.Rat).Quo(reais(b.Cost), left)
	if price.Cmp(reais(maxPriceCents)) > 0 {
		return Breakdown{}, false
	}
	b.Price = cents(price)
	for {
		b.Taxes = cents(new(big.Rat).Mul(reais(b.Price), percent(taxes)))
		b.CardFee = cents(new(big.Rat).Mul(reais(b.Price), percent(card)))
		b.Profit = b.Price - b.Cost - b.Taxes - b.CardFee
		if b.Profit >= 0 {
			return b, true
		}
		b.Price++
	}
}

// decimal returns v as the decimal it prints as.
func decimal(v float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(v, 'f', -1, 64))
	return r
}

// percent returns p/100.
func percent(p *big.Rat) *big.Rat { return new(big.Rat).Quo(p, big.NewRat(100, 1)) }

// reais returns an amount in cents as reais.
func reais(c int64) *big.Rat { return big.NewRat(c, 100) }

// cents rounds an amount in reais half-up to whole cents (amounts here are
// never negative).
func cents(r *big.Rat) int64 {
	x := new(big.Rat).Add(new(big.Rat).Mul(r, big.NewRat(100, 1)), big.NewRat(1, 2))
	return new(big.Int).Quo(x.Num(), x.Denom()).Int64()
}

// brl writes an amount in cents as "R$ 1.234,56".
func brl(c int64) string { return sdk.FormatBRL(float64(c) / 100) }

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
		// The field limits keep every amount far from overflow; only a margin
		// so close to 100 % that the price explodes is left to refuse.
		b, ok := Price(fixed, hours, minutes, materials, taxes, card, margin)
		if !ok {
			p.Add("margem", "Com esses valores o preço fica grande demais; revise impostos, taxa do cartão e margem.")
			p.Respond(w)
			return
		}
		money := func(label string, c int64) sdk.Value {
			return sdk.Value{Label: label, Number: float64(c) / 100, Unit: "R$", Display: brl(c)}
		}
		pct := func(v float64) string { return sdk.FormatNumber(v, 2) + "%" }
		// A free service (no cost, so a price of zero) has no share to show.
		share := func(c int64) string {
			if b.Price == 0 {
				return "—"
			}
			return pct(100 * float64(c) / float64(b.Price))
		}
		sdk.Result{
			Values: []sdk.Value{money("Preço sugerido", b.Price), money("Custo do serviço", b.Cost), money("Lucro", b.Profit)},
			Tables: []sdk.Table{{
				Title:   "Composição do preço",
				Columns: []string{"Item", "Valor", "% do preço"},
				// Each amount is rounded to the cent and the total is their sum
				// (see Breakdown), so the column adds up to what it shows.
				Rows: [][]string{
					{"Custo fixo (" + brl(b.HourlyCost) + "/h × " + sdk.FormatNumber(minutes, 0) + " min)", brl(b.FixedShare), share(b.FixedShare)},
					{"Materiais e insumos", brl(b.Materials), share(b.Materials)},
					{"Impostos", brl(b.Taxes), pct(taxes)},
					{"Taxa do cartão", brl(b.CardFee), pct(card)},
					{"Lucro", brl(b.Profit), share(b.Profit)},
					{"Total", brl(b.Price), "100,00%"},
				},
			}},
			Explanation: "Custo por hora = " + sdk.FormatBRL(fixed) + " ÷ " + sdk.FormatNumber(hours, 0) + " h = " + brl(b.HourlyCost) +
				". Como impostos, taxa e margem incidem sobre o preço, o custo de " + brl(b.Cost) + " é dividido por " +
				sdk.FormatNumber(100-taxes-card-margin, 2) + "%. Cada valor é arredondado ao centavo e o lucro é o que sobra do preço, " +
				"para que as parcelas somem o total.",
		}.Write(w)
	})
	return mux
}
