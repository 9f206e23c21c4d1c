package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func post(t *testing.T, path string, body map[string]any) (int, sdk.Result, map[string]string) {
	t.Helper()
	b, _ := json.Marshal(body)
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("POST", path, strings.NewReader(string(b))))
	var res sdk.Result
	var e struct {
		Error struct {
			Message string
			Fields  map[string]string
		}
	}
	if rec.Code == 200 {
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
	} else {
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
	}
	return rec.Code, res, e.Error.Fields
}

// want checks the labelled value, to the decimals the calculator shows.
func want(t *testing.T, res sdk.Result, label string, number float64) {
	t.Helper()
	for _, v := range res.Values {
		if strings.HasPrefix(v.Label, label) {
			if v.Number != number {
				t.Errorf("%s = %v (%s), want %v", label, v.Number, v.Display, number)
			}
			return
		}
	}
	t.Errorf("no value %q in %+v", label, res.Values)
}

func TestManifestIsValid(t *testing.T) {
	if err := Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestDose(t *testing.T) {
	// 10 kg dog, 5 mg/kg of a 50 mg/mL solution: 50 mg = 1 mL.
	_, res, _ := post(t, "/dose", map[string]any{"especie": "cao", "peso": 10, "dose_mg_kg": 5, "concentracao": 50})
	want(t, res, "Dose total", 50)
	want(t, res, "Volume a administrar", 1)
	// 4,5 kg cat, meloxicam 0,1 mg/kg at 1,5 mg/mL: 0,45 mg = 0,3 mL (Brazilian decimals accepted).
	_, res, _ = post(t, "/dose", map[string]any{"especie": "gato", "peso": "4,5", "dose_mg_kg": 0.1, "concentracao": 1.5})
	want(t, res, "Dose total", 0.45)
	want(t, res, "Volume a administrar", 0.3)
}

func TestDoseRefusesImpossibleInput(t *testing.T) {
	status, _, fields := post(t, "/dose", map[string]any{"especie": "cao", "peso": -2, "dose_mg_kg": 5, "concentracao": 0})
	if status != 422 || fields["peso"] != "O peso deve estar entre 0,01 e 1.500 kg." || fields["concentracao"] != "A concentração deve ser maior que zero." {
		t.Fatalf("%d %v", status, fields)
	}
	status, _, fields = post(t, "/dose", map[string]any{"dose_mg_kg": 5, "concentracao": 10})
	if status != 422 || fields["peso"] != "O peso é obrigatório." {
		t.Fatalf("missing weight: %d %v", status, fields)
	}
}

func TestEnergyMatchesPublishedRERTable(t *testing.T) {
	// RER = 70 × kg^0.75, as tabulated in Small Animal Clinical Nutrition.
	for kg, rer := range map[float64]float64{5: 234, 10: 394, 20: 662, 30: 897} {
		_, res, _ := post(t, "/energia", map[string]any{"especie": "cao", "peso": kg, "fase_cao": "castrado"})
		want(t, res, "RER", rer)
	}
	_, res, _ := post(t, "/energia", map[string]any{"especie": "cao", "peso": 10, "fase_cao": "castrado"})
	want(t, res, "MER", 630) // 393,6 × 1,6
	_, res, _ = post(t, "/energia", map[string]any{"especie": "gato", "peso": 4, "fase_gato": "castrado"})
	want(t, res, "RER", 198) // 70 × 2,828
	want(t, res, "MER", 238) // × 1,2
	if status, _, f := post(t, "/energia", map[string]any{"especie": "gato", "peso": 4, "fase_gato": "x"}); status != 422 || f["fase_gato"] == "" {
		t.Errorf("unknown life stage: %d %v", status, f)
	}
}

func TestFluidTherapy(t *testing.T) {
	// 10 kg dog, 8 % dehydrated: maintenance 132 × 10^0.75 = 742 mL, deficit
	// 800 mL, 1 542 mL in 24 h = 64,3 mL/h = 21,4 drops/min with a 20-drop set.
	_, res, _ := post(t, "/fluidoterapia", map[string]any{"especie": "cao", "peso": 10, "desidratacao": 8, "perdas": 0})
	want(t, res, "Manutenção", 742)
	want(t, res, "Déficit", 800)
	want(t, res, "Volume total", 1542)
	want(t, res, "Taxa", 64.3)
	if got := res.Tables[0].Rows[1][1]; got != "21,4 gotas/min" {
		t.Errorf("20 drops/mL: %q", got)
	}
	if got := res.Tables[0].Rows[2][1]; got != "64,3 gotas/min" {
		t.Errorf("60 drops/mL (microdrip: drops/min = mL/h): %q", got)
	}
	// 4 kg cat: 80 × 4^0.75 = 226 mL/day.
	_, res, _ = post(t, "/fluidoterapia", map[string]any{"especie": "gato", "peso": 4})
	want(t, res, "Manutenção", 226)
	if status, _, f := post(t, "/fluidoterapia", map[string]any{"especie": "cao", "peso": 10, "desidratacao": -1}); status != 422 || f["desidratacao"] != "A desidratação deve estar entre 0 e 15%." {
		t.Errorf("negative dehydration: %d %v", status, f)
	}
}

func TestTransfusion(t *testing.T) {
	// 20 kg dog from 15 % to 25 % with 45 % donor blood: 20 × 90 × 10 ÷ 45 = 400 mL
	// (the same as the 2 mL/kg per 1 % rule of thumb).
	_, res, _ := post(t, "/transfusao", map[string]any{"especie": "cao", "peso": 20, "ht_paciente": 15, "ht_desejado": 25, "ht_doador": 45})
	want(t, res, "Volume de sangue total", 400)
	// 4 kg cat from 12 % to 20 % with 35 % donor blood: 4 × 60 × 8 ÷ 35 = 55 mL.
	_, res, _ = post(t, "/transfusao", map[string]any{"especie": "gato", "peso": 4, "ht_paciente": 12, "ht_desejado": 20, "ht_doador": 35})
	want(t, res, "Volume de sangue total", 55)
	status, _, f := post(t, "/transfusao", map[string]any{"especie": "cao", "peso": 20, "ht_paciente": 30, "ht_desejado": 25, "ht_doador": 45})
	if status != 422 || f["ht_desejado"] != "O hematócrito desejado deve ser maior que o do paciente." {
		t.Errorf("desired below patient: %d %v", status, f)
	}
}

func TestBodySurfaceAreaMatchesMerckTable(t *testing.T) {
	for _, c := range []struct {
		species string
		kg, m2  float64
	}{{"cao", 10, 0.469}, {"cao", 20, 0.744}, {"cao", 1, 0.101}, {"gato", 4, 0.252}, {"gato", 2, 0.159}} {
		_, res, _ := post(t, "/superficie-corporal", map[string]any{"especie": c.species, "peso": c.kg})
		want(t, res, "Superfície corporal", c.m2)
	}
	_, res, _ := post(t, "/superficie-corporal", map[string]any{"especie": "cao", "peso": 10, "dose_m2": 100})
	want(t, res, "Dose total", 46.88)
}

func TestConversions(t *testing.T) {
	for _, c := range []struct {
		kind    string
		in, out float64
	}{{"kg_lb", 10, 22.046}, {"lb_kg", 22.046, 10}, {"c_f", 39, 102.2}, {"f_c", 100.4, 38}, {"pct_mgml", 2, 20}, {"mgml_pct", 50, 5}, {"mg_mcg", 0.25, 250}, {"mcg_mg", 500, 0.5}} {
		_, res, _ := post(t, "/conversao", map[string]any{"tipo": c.kind, "valor": c.in})
		want(t, res, "Resultado", c.out)
	}
	if status, _, f := post(t, "/conversao", map[string]any{"tipo": "kg_lb", "valor": -1}); status != 422 || f["valor"] != "O valor não pode ser negativo." {
		t.Errorf("negative weight conversion: %d %v", status, f)
	}
}

// Extreme inputs overflow a formula into ±Inf; JSON cannot carry it, and no
// vet can use it. Each calculator answers 422 naming the input to check:
// the form's own limit when the field has one, else the overflow itself.
func TestExtremeInputsAreRefusedWithAFieldMessage(t *testing.T) {
	cases := []struct {
		path  string
		body  map[string]any
		field string
		msg   string
	}{
		{"/dose", map[string]any{"especie": "cao", "peso": 100, "dose_mg_kg": 1e308, "concentracao": 50}, "dose_mg_kg", "A dose é grande demais para este cálculo."},
		{"/dose", map[string]any{"especie": "cao", "peso": 100, "dose_mg_kg": 1e303, "concentracao": 0.0001}, "concentracao", "A concentração é pequena demais para este cálculo."},
		{"/dose", map[string]any{"especie": "cao", "peso": 10, "dose_mg_kg": 1000, "concentracao": 1e-320}, "concentracao", "A concentração deve ser de no mínimo 0,0001 mg/mL."},
		{"/fluidoterapia", map[string]any{"especie": "cao", "peso": 1e308, "desidratacao": 10}, "peso", "O peso deve estar entre 0,01 e 1.500 kg."},
		{"/transfusao", map[string]any{"especie": "cao", "peso": 1e308, "ht_paciente": 20, "ht_desejado": 30, "ht_doador": 50}, "peso", "O peso deve estar entre 0,01 e 1.500 kg."},
		{"/superficie-corporal", map[string]any{"especie": "cao", "peso": 1e306}, "peso", "O peso deve estar entre 0,01 e 1.500 kg."},
		{"/superficie-corporal", map[string]any{"especie": "cao", "peso": 100, "dose_m2": 1e308}, "dose_m2", "A dose por m² é grande demais para este cálculo."},
		{"/conversao", map[string]any{"tipo": "mg_mcg", "valor": 1e306}, "valor", "O valor é grande demais para esta conversão."},
		{"/conversao", map[string]any{"tipo": "c_f", "valor": 1e308}, "valor", "O valor é grande demais para esta conversão."},
	}
	for _, c := range cases {
		status, _, fields := post(t, c.path, c.body)
		if status != 422 || fields[c.field] != c.msg {
			t.Errorf("%s %v: %d %v, want 422 with %q on %s", c.path, c.body, status, fields, c.msg, c.field)
		}
	}
}

// validInput is a submission each calculator accepts, by form id.
var validInput = map[string]map[string]any{
	"dose":          {"especie": "cao", "peso": 10, "dose_mg_kg": 5, "concentracao": 50},
	"energia":       {"especie": "cao", "peso": 10, "fase_cao": "castrado"},
	"fluidoterapia": {"especie": "cao", "peso": 10, "desidratacao": 5, "perdas": 10},
	"transfusao":    {"especie": "cao", "peso": 20, "ht_paciente": 15, "ht_desejado": 25, "ht_doador": 45},
	"superficie":    {"especie": "cao", "peso": 10, "dose_m2": 100},
	"conversao":     {"tipo": "kg_lb", "valor": 10},
}

// Every field of every calculator, left out, too small, zero, too large or
// not a number, gets a message that names it and agrees with it in gender
// and number; a representative set is compared word for word.
func TestEveryFieldsMessagesAreGrammatical(t *testing.T) {
	got := map[string]string{}
	for _, form := range Manifest.Forms {
		body, ok := validInput[form.ID]
		if !ok {
			t.Fatalf("no valid input for form %s", form.ID)
		}
		for _, f := range form.Fields {
			if f.Noun == "" {
				t.Errorf("%s: field %s has no Noun, so its messages cannot agree with it", form.ID, f.Name)
			}
		}
		for k, v := range sdktest.WalkForm(t, Handler(), form, body) {
			got[form.ID+"/"+k] = v
		}
	}
	for key, want := range map[string]string{
		"dose/dose_mg_kg/missing":              "A dose é obrigatória.",
		"dose/dose_mg_kg/zero":                 "A dose deve ser maior que zero.",
		"dose/dose_mg_kg/too-small":            "A dose deve ser de no mínimo 0,0001 mg/kg.",
		"dose/concentracao/missing":            "A concentração é obrigatória.",
		"dose/peso/missing":                    "O peso é obrigatório.",
		"dose/peso/too-large":                  "O peso deve estar entre 0,01 e 1.500 kg.",
		"dose/peso/not-valid":                  "Informe o peso em números.",
		"energia/especie/missing":              "Selecione a espécie.",
		"energia/fase_gato/missing":            "Selecione a fase de vida.",
		"energia/fase_cao/not-valid":           "Selecione a fase de vida entre as opções.",
		"fluidoterapia/perdas/too-small":       "As perdas contínuas não podem ser negativas.",
		"fluidoterapia/desidratacao/too-large": "A desidratação deve estar entre 0 e 15%.",
		"transfusao/ht_doador/too-large":       "O hematócrito do doador deve estar entre 1 e 90%.",
		"transfusao/ht_paciente/zero":          "O hematócrito do paciente deve estar entre 1 e 80%.",
		"superficie/dose_m2/too-small":         "A dose por m² não pode ser negativa.",
		"conversao/valor/missing":              "O valor é obrigatório.",
		"conversao/tipo/not-valid":             "Selecione a conversão entre as opções.",
	} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q", key, got[key], want)
		}
	}
	if len(got) < 40 {
		t.Errorf("only %d messages walked: %v", len(got), fmt.Sprint(got))
	}
}

// A 50 g patient (a hamster) at 0,1 mg/kg of a 1,5 mg/mL solution: 0,00500 mg
// in 0,00333 mL. The figures keep 3 significant digits instead of reading
// 0,00, and the result says the volume cannot be measured without diluting.
func TestTinyPatientKeepsSignificantFiguresAndWarns(t *testing.T) {
	_, res, _ := post(t, "/dose", map[string]any{"especie": "exotico", "peso": "0,05", "dose_mg_kg": 0.1, "concentracao": 1.5})
	want(t, res, "Dose total", 0.005)
	want(t, res, "Volume a administrar", 0.00333)
	for _, v := range res.Values {
		if v.Label == "Volume a administrar" && v.Display != "0,00333 mL" {
			t.Errorf("volume display %q", v.Display)
		}
	}
	const warn = "Volume menor que 0,01 mL: dilua o medicamento para medir com segurança."
	if last := res.Values[len(res.Values)-1]; last.Display != warn || !strings.HasPrefix(res.Explanation, warn) {
		t.Errorf("no warning: %+v %q", res.Values, res.Explanation)
	}
	// 0,01 mL and above are measurable: no warning.
	_, res, _ = post(t, "/dose", map[string]any{"especie": "cao", "peso": 10, "dose_mg_kg": 5, "concentracao": 50})
	if strings.Contains(res.Explanation, "dilua") || len(res.Values) != 2 {
		t.Errorf("warning on a 1 mL volume: %+v", res)
	}
}

// A 450 kg cow, oxytetracycline LA 20 mg/kg at 200 mg/mL: 9 000 mg = 45 mL.
func TestLargeAnimalDose(t *testing.T) {
	_, res, _ := post(t, "/dose", map[string]any{"especie": "bovino", "peso": 450, "dose_mg_kg": 20, "concentracao": 200})
	want(t, res, "Dose total", 9000)
	want(t, res, "Volume a administrar", 45)
	// Each species has its own weight range.
	for _, c := range []struct {
		species string
		kg      float64
		msg     string
	}{
		{"gato", 45, "O peso deve estar entre 0,05 e 20 kg para gatos."},
		{"equino", 1300, "O peso deve estar entre 5 e 1.200 kg para equinos."},
		{"bovino", 1600, "O peso deve estar entre 0,01 e 1.500 kg."},
		{"bovino", 2, "O peso deve estar entre 10 e 1.500 kg para bovinos."},
	} {
		status, _, f := post(t, "/dose", map[string]any{"especie": c.species, "peso": c.kg, "dose_mg_kg": 1, "concentracao": 10})
		if status != 422 || f["peso"] != c.msg {
			t.Errorf("%s %v kg: %d %v, want %q", c.species, c.kg, status, f, c.msg)
		}
	}
	// A 1 500 kg bull is accepted.
	if status, _, f := post(t, "/dose", map[string]any{"especie": "bovino", "peso": 1500, "dose_mg_kg": 1, "concentracao": 10}); status != 200 {
		t.Errorf("1 500 kg bull: %d %v", status, f)
	}
}

// Dexmedetomidine 5 µg/kg for a 10 kg dog at 0,5 mg/mL: 0,05 mg = 50 µg in
// 0,1 mL. Lidocaine 2 % (20 mg/mL) at 2 mg/kg for a 10 kg dog: 20 mg = 1 mL.
func TestDoseInMicrogramsAndPercent(t *testing.T) {
	_, res, _ := post(t, "/dose", map[string]any{"especie": "cao", "peso": 10, "unidade_dose": "mcg_kg", "dose_mcg_kg": 5, "concentracao": 0.5})
	want(t, res, "Dose total", 0.05)
	want(t, res, "Dose total em µg", 50)
	want(t, res, "Volume a administrar", 0.1)
	_, res, _ = post(t, "/dose", map[string]any{"especie": "cao", "peso": 10, "dose_mg_kg": 2, "unidade_concentracao": "pct", "concentracao_pct": 2})
	want(t, res, "Dose total", 20)
	want(t, res, "Volume a administrar", 1)
	if !strings.HasPrefix(res.Explanation, "2 % = 20,0 mg/mL;") {
		t.Errorf("explanation %q", res.Explanation)
	}
	if status, _, f := post(t, "/dose", map[string]any{"especie": "cao", "peso": 10, "dose_mg_kg": 2, "unidade_concentracao": "pct", "concentracao_pct": 150}); status != 422 || f["concentracao_pct"] != "A concentração deve estar entre 0,0001 e 100%." {
		t.Errorf("150 %%: %d %v", status, f)
	}
}

// The dog/cat formulas refuse other species on the species field instead of
// answering a figure nobody validated.
func TestDogAndCatFormulasRefuseOtherSpecies(t *testing.T) {
	const msg = "Esta fórmula vale só para cães e gatos."
	for path, body := range map[string]map[string]any{
		"/energia":             {"especie": "equino", "peso": 500},
		"/fluidoterapia":       {"especie": "bovino", "peso": 450, "desidratacao": 5},
		"/transfusao":          {"especie": "equino", "peso": 500, "ht_paciente": 12, "ht_desejado": 20, "ht_doador": 40},
		"/superficie-corporal": {"especie": "suino", "peso": 100},
	} {
		status, _, f := post(t, path, body)
		if status != 422 || f["especie"] != msg {
			t.Errorf("%s: %d %v", path, status, f)
		}
	}
}

func TestConversionDecimalsAndAbsoluteZero(t *testing.T) {
	for _, c := range []struct {
		kind, in, display string
	}{
		{"c_f", "39", "102,2 °F"}, {"f_c", "100,4", "38 °C"}, {"kg_lb", "10", "22,046 lb"},
		{"lb_kg", "0,01", "0,00454 kg"}, {"mcg_mg", "0,5", "0,0005 mg"}, {"mgml_pct", "0,5", "0,05 %"},
		{"c_f", "-273,15", "-459,7 °F"},
	} {
		_, res, _ := post(t, "/conversao", map[string]any{"tipo": c.kind, "valor": c.in})
		if len(res.Values) != 1 || res.Values[0].Display != c.display {
			t.Errorf("%s %s: %+v, want %q", c.kind, c.in, res.Values, c.display)
		}
	}
	if status, _, f := post(t, "/conversao", map[string]any{"tipo": "c_f", "valor": -300}); status != 422 || f["valor"] != "O valor está abaixo do zero absoluto (−273,15 °C)." {
		t.Errorf("-300 °C: %d %v", status, f)
	}
	if status, _, f := post(t, "/conversao", map[string]any{"tipo": "f_c", "valor": -500}); status != 422 || f["valor"] != "O valor está abaixo do zero absoluto (−459,67 °F)." {
		t.Errorf("-500 °F: %d %v", status, f)
	}
}
