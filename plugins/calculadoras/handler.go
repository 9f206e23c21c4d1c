package main

import (
	"math"
	"net/http"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
)

var speciesField = sdk.Field{Name: "especie", Label: "Espécie", Noun: "a espécie", Type: sdk.FieldSelect, Required: true, Default: Dog,
	Options: speciesOptions()}

func speciesOptions() []sdk.Option {
	var out []sdk.Option
	for _, s := range species {
		out = append(out, sdk.Option{Value: s.Value, Label: s.Label})
	}
	return out
}

// weightField accepts the widest range of any species; each handler then
// checks the species' own range (checkSpecies).
func weightField() sdk.Field {
	var help []string
	for _, s := range species {
		help = append(help, strings.ToLower(s.Label)+" "+limit(s.MinKg)+" a "+limit(s.MaxKg))
	}
	return sdk.Field{Name: "peso", Label: "Peso", Noun: "o peso", Type: sdk.FieldNumber, Unit: "kg", Required: true, Min: sdk.Ptr(0.01), Max: sdk.Ptr(MaxWeightKg), Step: 0.01,
		Help: "Faixa aceita por espécie (kg): " + strings.Join(help, "; ") + "."}
}

// onlyDogsAndCats is the species' message where a formula is validated
// only for dogs and cats.
const onlyDogsAndCats = "Esta fórmula vale só para cães e gatos."

// tinyVolume is shown when the volume is below what a syringe measures.
const tinyVolume = "Volume menor que 0,01 mL: dilua o medicamento para medir com segurança."

// checkSpecies records the problems of the species and of the weight for
// it; smallAnimalOnly refuses species the dog/cat formulas do not cover.
func checkSpecies(p sdk.Problems, sp string, kg float64, smallAnimalOnly bool) {
	info, ok := speciesInfo(sp)
	if !ok { // ReadForm already refused it
		return
	}
	if smallAnimalOnly && !info.SmallAnimalFit {
		p.Add("especie", onlyDogsAndCats)
	}
	if kg < info.MinKg || kg > info.MaxKg {
		p.Add("peso", "O peso deve estar entre "+limit(info.MinKg)+" e "+limit(info.MaxKg)+" kg para "+info.Plural+".")
	}
}

// limit writes a limit with only the decimals it needs: "0,05", "1.500".
func limit(v float64) string { return trimZeros(num(v, 4)) }

// trimZeros drops a display's trailing decimal zeros: "20,000" → "20".
func trimZeros(s string) string {
	if !strings.Contains(s, ",") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ",")
}

// sigDecimals is how many decimals show v with sig significant figures,
// never fewer than minDecimals (a whole number keeps all its digits).
func sigDecimals(v float64, sig, minDecimals int) int {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return minDecimals
	}
	d := sig - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	if d < minDecimals {
		d = minDecimals
	}
	if d > 12 {
		d = 12
	}
	return d
}

// sig is a value shown with 3 significant figures, so a tiny dose reads
// 0,00500 mg instead of 0,00.
func sig(label string, v float64, unit string) sdk.Value {
	return value(label, v, unit, sigDecimals(v, 3, 0))
}

// sigNum formats v with 3 significant figures.
func sigNum(v float64) string { return num(v, sigDecimals(v, 3, 0)) }

func stageOptions(species string) []sdk.Option {
	var out []sdk.Option
	for _, s := range merStages[species] {
		out = append(out, sdk.Option{Value: s.Value, Label: s.Label + " (× " + sdk.FormatNumber(s.Factor, 1) + ")"})
	}
	return out
}

// The forms are declared once: the manifest hands them to the web app, and
// each handler checks its submission against the same fields (sdk.ReadForm).
var (
	doseForm = sdk.Form{ID: "dose", Title: "Dose de medicamento", Action: "dose", Submit: "Calcular dose",
		Description: "Dose (mg) = dose (mg/kg) × peso (kg); volume (mL) = dose (mg) ÷ concentração (mg/mL). Vale para todas as espécies; 1 mg = 1.000 µg; 1 % = 10 mg/mL.",
		Fields: []sdk.Field{
			speciesField, weightField(),
			// The unit selects are optional: left out they mean mg/kg and
			// mg/mL, so submissions written before them still work.
			{Name: "unidade_dose", Label: "Unidade da dose", Noun: "a unidade da dose", Type: sdk.FieldSelect, Default: "mg_kg",
				Options: []sdk.Option{{Value: "mg_kg", Label: "mg/kg"}, {Value: "mcg_kg", Label: "µg/kg"}}},
			{Name: "dose_mg_kg", Label: "Dose", Noun: "a dose", Type: sdk.FieldNumber, Unit: "mg/kg", Required: true, Min: sdk.Ptr(0.0001), Step: 0.001,
				ShowIf: &sdk.Condition{Field: "unidade_dose", Values: []string{"mg_kg", ""}}},
			{Name: "dose_mcg_kg", Label: "Dose", Noun: "a dose", Type: sdk.FieldNumber, Unit: "µg/kg", Required: true, Min: sdk.Ptr(0.01), Step: 0.01,
				ShowIf: &sdk.Condition{Field: "unidade_dose", Values: []string{"mcg_kg"}}},
			{Name: "unidade_concentracao", Label: "Unidade da concentração", Noun: "a unidade da concentração", Type: sdk.FieldSelect, Default: "mg_ml",
				Options: []sdk.Option{{Value: "mg_ml", Label: "mg/mL"}, {Value: "pct", Label: "% (1 % = 10 mg/mL)"}}},
			{Name: "concentracao", Label: "Concentração", Noun: "a concentração", Type: sdk.FieldNumber, Unit: "mg/mL", Required: true, Min: sdk.Ptr(0.0001), Step: 0.001,
				ShowIf: &sdk.Condition{Field: "unidade_concentracao", Values: []string{"mg_ml", ""}}},
			{Name: "concentracao_pct", Label: "Concentração", Noun: "a concentração", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(0.0001), Max: sdk.Ptr(100), Step: 0.001,
				ShowIf: &sdk.Condition{Field: "unidade_concentracao", Values: []string{"pct"}}},
		}}
	energyForm = sdk.Form{ID: "energia", Title: "Necessidade energética (RER e MER)", Action: "energia", Submit: "Calcular energia",
		Description: "RER = 70 × peso^0,75 (kcal/dia); MER = RER × fator da fase de vida.",
		Fields: []sdk.Field{
			speciesField, weightField(),
			{Name: "fase_cao", Label: "Fase de vida", Noun: "a fase de vida", Type: sdk.FieldSelect, Required: true, Options: stageOptions(Dog), Default: "castrado",
				ShowIf: &sdk.Condition{Field: "especie", Values: []string{Dog}}},
			{Name: "fase_gato", Label: "Fase de vida", Noun: "a fase de vida", Type: sdk.FieldSelect, Required: true, Options: stageOptions(Cat), Default: "castrado",
				ShowIf: &sdk.Condition{Field: "especie", Values: []string{Cat}}},
		}}
	fluidsForm = sdk.Form{ID: "fluidoterapia", Title: "Fluidoterapia", Action: "fluidoterapia", Submit: "Calcular fluidoterapia",
		Description: "Manutenção + déficit de desidratação + perdas contínuas, distribuídos em 24 horas.",
		Fields: []sdk.Field{
			speciesField, weightField(),
			{Name: "desidratacao", Label: "Desidratação", Noun: "a desidratação", Type: sdk.FieldNumber, Unit: "%", Min: sdk.Ptr(0), Max: sdk.Ptr(15), Step: 0.5, Default: 0},
			{Name: "perdas", Label: "Perdas contínuas estimadas", Noun: "as perdas contínuas", Type: sdk.FieldNumber, Unit: "mL/24 h", Min: sdk.Ptr(0), Step: 1, Default: 0},
		}}
	transfusionForm = sdk.Form{ID: "transfusao", Title: "Volume de transfusão", Action: "transfusao", Submit: "Calcular volume",
		Description: "Volume (mL) = peso × volemia (cão 90, gato 60 mL/kg) × (Ht desejado − Ht do paciente) ÷ Ht do doador.",
		Fields: []sdk.Field{
			speciesField, weightField(),
			{Name: "ht_paciente", Label: "Hematócrito do paciente", Noun: "o hematócrito do paciente", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(80)},
			{Name: "ht_desejado", Label: "Hematócrito desejado", Noun: "o hematócrito desejado", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(80)},
			{Name: "ht_doador", Label: "Hematócrito do doador (ou da bolsa)", Noun: "o hematócrito do doador", Type: sdk.FieldNumber, Unit: "%", Required: true, Min: sdk.Ptr(1), Max: sdk.Ptr(90)},
		}}
	bsaForm = sdk.Form{ID: "superficie", Title: "Superfície corporal", Action: "superficie-corporal", Submit: "Calcular superfície",
		Description: "SC (m²) = K × peso (g)^(2/3) × 10⁻⁴; K = 10,1 (cão) e 10,0 (gato).",
		Fields: []sdk.Field{
			speciesField, weightField(),
			{Name: "dose_m2", Label: "Dose por m² (opcional)", Noun: "a dose por m²", Type: sdk.FieldNumber, Unit: "mg/m²", Min: sdk.Ptr(0), Step: 0.01},
		}}
	conversionForm = sdk.Form{ID: "conversao", Title: "Conversão de unidades", Action: "conversao", Submit: "Converter",
		Fields: []sdk.Field{
			{Name: "tipo", Label: "Conversão", Noun: "a conversão", Type: sdk.FieldSelect, Required: true, Default: "kg_lb", Options: []sdk.Option{
				{Value: "kg_lb", Label: "kg → lb"}, {Value: "lb_kg", Label: "lb → kg"},
				{Value: "c_f", Label: "°C → °F"}, {Value: "f_c", Label: "°F → °C"},
				{Value: "pct_mgml", Label: "% → mg/mL"}, {Value: "mgml_pct", Label: "mg/mL → %"},
				{Value: "mg_mcg", Label: "mg → µg"}, {Value: "mcg_mg", Label: "µg → mg"},
			}},
			{Name: "valor", Label: "Valor", Noun: "o valor", Type: sdk.FieldNumber, Required: true, Step: 0.001},
		}}
)

// Manifest describes the calculators; the web app renders each form.
var Manifest = sdk.Manifest{
	ID:             "calculadoras",
	Name:           "Calculadoras Veterinárias",
	Description:    "Dose de medicamentos, necessidade energética, fluidoterapia, transfusão, superfície corporal e conversões.",
	Version:        "1.1.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "calculator",
	Category:       "Clínica",
	Slug:           "calculadoras",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UIForm,
	Forms:          []sdk.Form{doseForm, energyForm, fluidsForm, transfusionForm, bsaForm, conversionForm},
}

// Handler serves every calculator.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /dose", handleDose)
	mux.HandleFunc("POST /energia", handleEnergy)
	mux.HandleFunc("POST /fluidoterapia", handleFluids)
	mux.HandleFunc("POST /transfusao", handleTransfusion)
	mux.HandleFunc("POST /superficie-corporal", handleBSA)
	mux.HandleFunc("POST /conversao", handleConversion)
	return mux
}

func num(v float64, d int) string { return sdk.FormatNumber(v, d) }

// valueTooLarge is answered when a conversion overflows (±Inf). Fields
// without an upper limit (a dose, a value to convert) can push a formula
// past the largest number; the calculator then names the input to fix
// instead of answering a figure nobody can use. The weight, hematocrits and
// dehydration have limits in the form, so their formulas stay finite.
const valueTooLarge = "O valor é grande demais para esta conversão."

func value(label string, v float64, unit string, decimals int) sdk.Value {
	d := num(v, decimals)
	if unit != "" {
		d += " " + unit
	}
	return sdk.Value{Label: label, Number: sdk.Round(v, decimals), Unit: unit, Display: d}
}

func handleDose(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, doseForm)
	if !ok || p.Respond(w) {
		return
	}
	sp, kg := in.String("especie"), in.Number("peso")
	checkSpecies(p, sp, kg, false)
	if p.Respond(w) {
		return
	}
	doseField, dose, doseUnit := "dose_mg_kg", in.Number("dose_mg_kg"), "mg/kg"
	mgPerKg := dose
	if in.String("unidade_dose") == "mcg_kg" {
		doseField, dose, doseUnit = "dose_mcg_kg", in.Number("dose_mcg_kg"), "µg/kg"
		mgPerKg = dose / 1000
	}
	concField, conc, concText := "concentracao", in.Number("concentracao"), ""
	if in.String("unidade_concentracao") == "pct" {
		pct := in.Number("concentracao_pct")
		concField, conc = "concentracao_pct", PercentToMgPerML(pct)
		concText = limit(pct) + " % = " + sigNum(conc) + " mg/mL; "
	}
	mg := DoseMg(mgPerKg, kg)
	ml := DoseVolumeML(mg, conc)
	if p.Finite(doseField, "A dose é grande demais para este cálculo.", mg) {
		p.Finite(concField, "A concentração é pequena demais para este cálculo.", ml)
	}
	if p.Respond(w) {
		return
	}
	values := []sdk.Value{sig("Dose total", mg, "mg")}
	if doseUnit == "µg/kg" {
		values = append(values, sig("Dose total em µg", mg*1000, "µg"))
	}
	values = append(values, sig("Volume a administrar", ml, "mL"))
	explanation := concText + limit(dose) + " " + doseUnit + " × " + limit(kg) + " kg = " + sigNum(mg) + " mg; " +
		sigNum(mg) + " mg ÷ " + sigNum(conc) + " mg/mL = " + sigNum(ml) + " mL."
	if ml < 0.01 {
		values = append(values, sdk.Value{Label: "Atenção", Display: tinyVolume})
		explanation = tinyVolume + " " + explanation
	}
	sdk.Result{
		Values:      values,
		Explanation: explanation,
		Reference:   "Plumb's Veterinary Drug Handbook, 10ª ed. (Budde & McCluskey, 2023).",
	}.Write(w)
}

func handleEnergy(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, energyForm)
	if !ok || p.Respond(w) {
		return
	}
	sp, kg := in.String("especie"), in.Number("peso")
	checkSpecies(p, sp, kg, true)
	if p.Respond(w) {
		return
	}
	field := "fase_cao"
	if sp == Cat {
		field = "fase_gato"
	}
	// The form offers exactly merStages' values, so ReadForm already
	// refused any other; this only fetches the factor.
	stage, _ := merStage(sp, in.String(field))
	rer := RER(kg)
	mer := rer * stage.Factor
	rows := [][]string{}
	for _, s := range merStages[sp] {
		rows = append(rows, []string{s.Label, num(s.Factor, 1), num(rer*s.Factor, 0) + " kcal/dia"})
	}
	sdk.Result{
		Values: []sdk.Value{value("RER", rer, "kcal/dia", 0), value("MER ("+stage.Label+")", mer, "kcal/dia", 0)},
		Tables: []sdk.Table{{Title: "MER por fase de vida", Columns: []string{"Fase", "Fator", "MER"}, Rows: rows}},
		Explanation: "RER = 70 × " + num(kg, 2) + "^0,75 = " + num(rer, 0) + " kcal/dia; MER = RER × " +
			num(stage.Factor, 1) + " = " + num(mer, 0) + " kcal/dia. Ajuste pela condição corporal.",
		Reference: "WSAVA Global Nutrition Guidelines (2011); AAHA Nutrition and Weight Management Guidelines (2021).",
	}.Write(w)
}

func handleFluids(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, fluidsForm)
	if !ok || p.Respond(w) {
		return
	}
	sp, kg := in.String("especie"), in.Number("peso")
	checkSpecies(p, sp, kg, true)
	if p.Respond(w) {
		return
	}
	dehydration, losses := in.Number("desidratacao"), in.Number("perdas")
	maint := MaintenanceFluidML(sp, kg)
	deficit := DehydrationDeficitML(kg, dehydration)
	total := maint + deficit + losses
	rate := total / 24
	// The losses have no upper limit, but the largest number plus a bounded
	// maintenance and deficit still rounds to a finite total.
	rows := [][]string{}
	for _, set := range []float64{10, 20, 60} {
		rows = append(rows, []string{num(set, 0) + " gotas/mL", num(DropsPerMinute(rate, set), 1) + " gotas/min"})
	}
	k := "132"
	if sp == Cat {
		k = "80"
	}
	sdk.Result{
		Values: []sdk.Value{
			value("Manutenção", maint, "mL/24 h", 0),
			value("Déficit de desidratação", deficit, "mL", 0),
			value("Perdas contínuas", losses, "mL/24 h", 0),
			value("Volume total em 24 h", total, "mL", 0),
			value("Taxa", rate, "mL/h", 1),
		},
		Tables: []sdk.Table{{Title: "Gotejamento", Columns: []string{"Equipo", "Velocidade"}, Rows: rows}},
		Explanation: "Manutenção = " + k + " × " + num(kg, 2) + "^0,75 mL/dia; déficit = peso × % de desidratação × 10 mL; " +
			"taxa = volume total ÷ 24 h; gotas/min = mL/h × gotas/mL ÷ 60. Reavalie o paciente com frequência.",
		Reference: "AAHA/AAFP Fluid Therapy Guidelines for Dogs and Cats (Davis et al., JAAHA 2013).",
	}.Write(w)
}

func handleTransfusion(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, transfusionForm)
	if !ok || p.Respond(w) {
		return
	}
	sp, kg := in.String("especie"), in.Number("peso")
	checkSpecies(p, sp, kg, true)
	if p.Respond(w) {
		return
	}
	patient, desired, donor := in.Number("ht_paciente"), in.Number("ht_desejado"), in.Number("ht_doador")
	// Rules across fields, which a field's own limits cannot state.
	if desired <= patient {
		p.Add("ht_desejado", "O hematócrito desejado deve ser maior que o do paciente.")
	}
	if desired >= donor {
		p.Add("ht_doador", "O hematócrito do doador deve ser maior que o desejado.")
	}
	if p.Respond(w) {
		return
	}
	vol := TransfusionVolumeML(sp, kg, patient, desired, donor)
	bv := BloodVolumeMLPerKg(sp)
	sdk.Result{
		Values: []sdk.Value{value("Volume de sangue total", vol, "mL", 0), value("Volemia estimada", bv*kg, "mL", 0)},
		Explanation: num(kg, 2) + " kg × " + num(bv, 0) + " mL/kg × (" + num(desired, 0) + " − " + num(patient, 0) + ") ÷ " +
			num(donor, 0) + " = " + num(vol, 0) + " mL. Administre lentamente e monitore reações transfusionais.",
		Reference: "Davidow B. Transfusion medicine in small animals. Vet Clin North Am Small Anim Pract 2013;43(4):735-756.",
	}.Write(w)
}

func handleBSA(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, bsaForm)
	if !ok || p.Respond(w) {
		return
	}
	sp, kg, doseM2 := in.String("especie"), in.Number("peso"), in.Number("dose_m2")
	checkSpecies(p, sp, kg, true)
	if p.Respond(w) {
		return
	}
	bsa := BSA(sp, kg)
	if !p.Finite("dose_m2", "A dose por m² é grande demais para este cálculo.", bsa*doseM2) {
		p.Respond(w)
		return
	}
	k := "10,1"
	if sp == Cat {
		k = "10,0"
	}
	values := []sdk.Value{value("Superfície corporal", bsa, "m²", 3)}
	if doseM2 > 0 {
		values = append(values, value("Dose total", bsa*doseM2, "mg", 2))
	}
	sdk.Result{
		Values:      values,
		Explanation: "SC = " + k + " × (" + num(kg*1000, 0) + " g)^(2/3) × 10⁻⁴ = " + num(bsa, 3) + " m².",
		Reference:   "Merck Veterinary Manual, tabela de conversão peso–superfície corporal (cães e gatos).",
	}.Write(w)
}

// Absolute zero, below which no temperature exists.
const (
	absoluteZeroC = -273.15
	absoluteZeroF = -459.67
)

func handleConversion(w http.ResponseWriter, r *http.Request) {
	in, p, ok := sdk.ReadForm(w, r, conversionForm)
	if !ok || p.Respond(w) {
		return
	}
	kind, v := in.String("tipo"), in.Number("valor")
	// Only a temperature may be negative, and not below absolute zero.
	switch {
	case kind == "c_f" && v < absoluteZeroC:
		p.Add("valor", "O valor está abaixo do zero absoluto (−273,15 °C).")
	case kind == "f_c" && v < absoluteZeroF:
		p.Add("valor", "O valor está abaixo do zero absoluto (−459,67 °F).")
	case v < 0 && kind != "c_f" && kind != "f_c":
		p.Add("valor", "O valor não pode ser negativo.")
	}
	if p.Respond(w) {
		return
	}
	var out float64
	var from, to string
	var decimals int
	switch kind {
	case "kg_lb":
		out, from, to = KgToLb(v), "kg", "lb"
		decimals = sigDecimals(out, 3, 3)
	case "lb_kg":
		out, from, to = LbToKg(v), "lb", "kg"
		decimals = sigDecimals(out, 3, 3)
	case "c_f":
		out, from, to, decimals = CToF(v), "°C", "°F", 1
	case "f_c":
		out, from, to, decimals = FToC(v), "°F", "°C", 1
	case "pct_mgml":
		out, from, to = PercentToMgPerML(v), "%", "mg/mL"
		decimals = sigDecimals(out, 3, 0)
	case "mgml_pct":
		out, from, to = MgPerMLToPercent(v), "mg/mL", "%"
		decimals = sigDecimals(out, 3, 0)
	case "mg_mcg":
		out, from, to = v*1000, "mg", "µg"
		decimals = sigDecimals(out, 4, 0)
	case "mcg_mg":
		out, from, to = v/1000, "µg", "mg"
		decimals = sigDecimals(out, 4, 0)
	}
	if !p.Finite("valor", valueTooLarge, out) {
		p.Respond(w)
		return
	}
	res := value("Resultado", out, to, decimals)
	res.Display = trimZeros(num(out, decimals)) + " " + to
	sdk.Result{
		Values:      []sdk.Value{res},
		Explanation: trimZeros(num(v, 6)) + " " + from + " = " + res.Display + ".",
	}.Write(w)
}
