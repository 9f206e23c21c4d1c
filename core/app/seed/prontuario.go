package seed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core"
)

// prontuarioTool is the medical record plugin the demo member's patients
// are written through.
const prontuarioTool = "prontuario-vet"

type demoPatient struct {
	patient map[string]any
	// records, oldest first; daysAgo dates each one before today.
	records []demoRecord
}

type demoRecord struct {
	daysAgo int
	kind    string
	data    map[string]any
}

// demoPatients are the demo member's patients. Vaccine next doses are set
// relative to today so the upcoming list and its reminder show something.
func demoPatients(today time.Time) []demoPatient {
	day := func(offset int) string { return today.AddDate(0, 0, offset).Format("2006-01-02") }
	return []demoPatient{
		{map[string]any{"name": "Thor", "species": "cao", "breed": "Labrador retriever", "sex": "macho", "neutered": true,
			"birth_date": "2019-04-12", "microchip": "982000411234567", "coat": "Chocolate", "allergies": "Dipirona (urticária em 2023).",
			"tutor": map[string]any{"name": "Marina Costa", "phone": "(11) 97654-3210", "email": "marina.costa@example.com",
				"cpf": "529.982.247-25", "address": "Rua das Acácias, 120, Pinheiros, São Paulo – SP"}},
			[]demoRecord{
				{360, "peso", map[string]any{"weight_kg": 31.2}},
				{365, "vacina", map[string]any{"vaccine": "V10 (polivalente)", "lot": "VX2291", "next_dose": day(5)}},
				{180, "peso", map[string]any{"weight_kg": 32.4}},
				{21, "consulta", map[string]any{"anamnesis": "Tutora relata prurido e balançar de cabeça há 5 dias, orelha direita com odor.",
					"physical_exam": "Conduto auditivo direito eritematoso, secreção ceruminosa marrom. Demais sistemas sem alterações.",
					"temperature_c": 38.6, "heart_rate": 96, "respiratory_rate": 24, "weight_kg": 33.1,
					"diagnoses": "Otite externa por Malassezia (citologia com leveduras).", "plan": "Limpeza otológica e tratamento tópico por 14 dias; retorno em 15 dias."}},
				{21, "prescricao", map[string]any{"drug": "Cetoconazol 2 % + hidrocortisona 1 % (solução otológica)", "presentation": "Solução otológica, frasco de 20 mL",
					"dose_mg_kg": 0.1, "weight_kg": 33.1, "route": "Otológica", "frequency": "A cada 12 horas", "duration": "14 dias",
					"quantity": "1 frasco", "instructions": "Limpar o conduto antes de aplicar 5 gotas na orelha direita."}},
				{6, "nota", map[string]any{"text": "Retorno: melhora clara, sem secreção. Manter limpeza semanal por 1 mês."}},
			}},
		{map[string]any{"name": "Mia", "species": "gato", "breed": "Sem raça definida", "sex": "femea", "neutered": true,
			"approx_age": "4 anos", "coat": "Tricolor",
			"tutor": map[string]any{"name": "Rafael Almeida", "phone": "(21) 99876-5432", "email": "rafael.almeida@example.com", "address": "Av. Atlântica, 800, Rio de Janeiro – RJ"}},
			[]demoRecord{
				{340, "vacina", map[string]any{"vaccine": "Antirrábica", "lot": "RB7710", "next_dose": day(25)}},
				{60, "peso", map[string]any{"weight_kg": 4.4}},
				{3, "consulta", map[string]any{"anamnesis": "Hiporexia há 2 dias, vômito uma vez.", "physical_exam": "Desidratação leve (5 %), abdome sem dor à palpação.",
					"temperature_c": 39.8, "heart_rate": 200, "respiratory_rate": 28, "weight_kg": 4.1,
					"diagnoses": "Gastroenterite? Pancreatite a descartar.", "plan": "Hemograma, bioquímica e lipase; fluidoterapia subcutânea."}},
				{2, "exame", map[string]any{"exam_name": "Hemograma e bioquímica", "result": "Leucocitose discreta (19.800/µL); ALT e creatinina dentro da referência."}},
			}},
		{map[string]any{"name": "Estrela", "species": "equino", "breed": "Mangalarga Marchador", "sex": "femea", "birth_date": "2016-09-03", "coat": "Tordilha",
			"tutor": map[string]any{"name": "Paulo Henrique Souza (Haras Boa Vista)", "phone": "(35) 3221-4455", "address": "Estrada Municipal, km 12, Pouso Alegre – MG"}},
			[]demoRecord{
				{90, "peso", map[string]any{"weight_kg": 452}},
				{30, "vacina", map[string]any{"vaccine": "Influenza equina", "lot": "EQ3021", "next_dose": day(150)}},
				{10, "peso", map[string]any{"weight_kg": 447}},
			}},
	}
}

// seedProntuario gives the demo member a few patients with records through
// the plugin's own API, as the member would. It does nothing when the
// member already has patients (active or archived) or the plugin is not
// loaded.
func (a demo) seedProntuario(ctx context.Context, userID string, stdout io.Writer) error {
	if a.Tools == nil {
		return nil
	}
	who := core.Principal{UserID: userID, Roles: []string{core.RoleUser, core.RoleTrial}}
	call := func(method, path string, body any) (int, []byte, error) {
		var b []byte
		if body != nil {
			var err error
			if b, err = json.Marshal(body); err != nil {
				return 0, nil, err
			}
		}
		return a.Tools.Call(ctx, who, prontuarioTool, method, path, b)
	}
	for _, path := range []string{"patients?per_page=1", "patients?per_page=1&archived=1"} {
		status, body, err := call("GET", path, nil)
		if core.ErrorCode(err) == core.ENOTFOUND {
			return nil // the plugin is not loaded (not built, or a server without plugins)
		}
		if err != nil {
			// An unavailable plugin leaves the demo without patients; the
			// rest of the demo still starts.
			fmt.Fprintf(stdout, "  Prontuário Vet: plugin indisponível, pacientes de demonstração não criados (%v)\n", err)
			return nil
		}
		var list struct{ Total int }
		if status != 200 || json.Unmarshal(body, &list) != nil {
			return fmt.Errorf("seed prontuario: list answered %d %s", status, body)
		}
		if list.Total > 0 {
			return nil
		}
	}
	today := time.Now()
	patients := demoPatients(today)
	for _, dp := range patients {
		status, body, err := call("POST", "patients", dp.patient)
		if err != nil || status != 201 {
			return fmt.Errorf("seed prontuario patient %v: %d %s %w", dp.patient["name"], status, body, err)
		}
		var p struct{ ID string }
		if err := json.Unmarshal(body, &p); err != nil {
			return fmt.Errorf("seed prontuario: %w", err)
		}
		for _, r := range dp.records {
			rec := map[string]any{"kind": r.kind, "date": today.AddDate(0, 0, -r.daysAgo).Format("2006-01-02"), "data": r.data}
			status, body, err := call("POST", "patients/"+p.ID+"/records", rec)
			if err != nil || status != 201 {
				return fmt.Errorf("seed prontuario record %s of %v: %d %s %w", r.kind, dp.patient["name"], status, body, err)
			}
		}
	}
	fmt.Fprintf(stdout, "  Prontuário Vet: %d pacientes de demonstração criados\n", len(patients))
	return nil
}
