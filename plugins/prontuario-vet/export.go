package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// exportFile is one file of a member's data export.
type exportFile = sdk.ExportFile

type exportPatient struct {
	Patient
	Revisions []revision     `json:"revisions"`
	Records   []exportRecord `json:"records"`
}

type exportRecord struct {
	Record
	History []recordRevision `json:"history"`
}

// allData reads every patient (archived included) and record of userID,
// with their edit history.
func (s *store) allData(ctx context.Context, userID string) ([]exportPatient, error) {
	var patients []Patient
	if err := s.host.Query(ctx, &patients, `SELECT `+patientCols+` FROM patients WHERE user_id = $1::uuid ORDER BY lower(name), id`, userID); err != nil {
		return nil, err
	}
	var records []Record
	if err := s.host.Query(ctx, &records, `SELECT `+recordCols+` FROM records r WHERE r.user_id = $1::uuid ORDER BY r.occurred_on DESC, r.created_at DESC`, userID); err != nil {
		return nil, err
	}
	var revs []struct {
		RecordID string `json:"record_id"`
		recordRevision
	}
	if err := s.host.Query(ctx, &revs, `
		SELECT record_id::text AS record_id, edited_by, to_char(edited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS edited_at,
		       to_char(previous_occurred_on, 'YYYY-MM-DD') AS date, previous AS data
		FROM record_revisions WHERE user_id = $1::uuid ORDER BY edited_at DESC, id DESC`, userID); err != nil {
		return nil, err
	}
	var prevs []struct {
		PatientID string `json:"patient_id"`
		revision
	}
	if err := s.host.Query(ctx, &prevs, `
		SELECT patient_id::text AS patient_id, edited_by, to_char(edited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS edited_at, previous
		FROM patient_revisions WHERE user_id = $1::uuid ORDER BY edited_at DESC, id DESC`, userID); err != nil {
		return nil, err
	}
	history := map[string][]recordRevision{}
	for _, rv := range revs {
		history[rv.RecordID] = append(history[rv.RecordID], rv.recordRevision)
	}
	byPatient := map[string][]exportRecord{}
	species := map[string]string{}
	for _, p := range patients {
		species[p.ID] = p.Species
	}
	for _, r := range records {
		r.decorate(species[r.PatientID])
		h := history[r.ID]
		if h == nil {
			h = []recordRevision{}
		}
		byPatient[r.PatientID] = append(byPatient[r.PatientID], exportRecord{Record: r, History: h})
	}
	patientRevs := map[string][]revision{}
	for _, pr := range prevs {
		patientRevs[pr.PatientID] = append(patientRevs[pr.PatientID], pr.revision)
	}
	out := []exportPatient{}
	for _, p := range patients {
		p.decorate()
		recs := byPatient[p.ID]
		if recs == nil {
			recs = []exportRecord{}
		}
		pr := patientRevs[p.ID]
		if pr == nil {
			pr = []revision{}
		}
		out = append(out, exportPatient{Patient: p, Revisions: pr, Records: recs})
	}
	return out, nil
}

func exportJSON(data []exportPatient) ([]byte, error) {
	return json.MarshalIndent(map[string]any{"patients": data}, "", "  ")
}

// exportCSV is one row per record (a patient without records has one row
// with the record columns empty), the record's own fields as JSON.
func exportCSV(data []exportPatient) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("\ufeff") // spreadsheet programs read the accents right
	w := csv.NewWriter(&buf)
	header := []string{"paciente_id", "paciente", "especie", "raca", "sexo", "castrado", "nascimento", "idade_aproximada", "microchip", "pelagem",
		"tutor", "telefone", "email", "cpf", "endereco", "alergias", "condicoes_cronicas", "arquivado",
		"registro_id", "tipo", "data", "dados", "corrigido_vezes"}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for _, p := range data {
		d := p.Data
		base := []string{p.ID, p.Name, p.SpeciesLabel, d.Breed, sexLabels[d.Sex], yesNo(d.Neutered), d.BirthDate, d.ApproxAge, d.Microchip, d.Coat,
			d.Tutor.Name, d.Tutor.Phone, d.Tutor.Email, d.Tutor.CPF, d.Tutor.Address, d.Allergies, d.Chronic, yesNo(p.Archived)}
		for i, v := range base {
			base[i] = csvSafe(v)
		}
		if len(p.Records) == 0 {
			if err := w.Write(append(base, "", "", "", "", "")); err != nil {
				return nil, err
			}
		}
		for _, r := range p.Records {
			js, err := json.Marshal(r.Data)
			if err != nil {
				return nil, err
			}
			row := append(append([]string{}, base...), r.ID, r.KindLabel, r.Date, csvSafe(string(js)), fmt.Sprint(r.Revisions))
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// csvSafe keeps a spreadsheet from reading a typed value as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// export answers all of the vet's data as JSON or CSV (?format=csv).
func (a *api) export(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	if format != "json" && format != "csv" {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Formato inválido: use json ou csv.", map[string]string{"format": "Use json ou csv."})
		return
	}
	data, err := a.s.allData(r.Context(), user(r))
	if err != nil {
		a.fail(w, err)
		return
	}
	var body []byte
	if format == "csv" {
		body, err = exportCSV(data)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		body, err = exportJSON(data)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="prontuario-vet.`+format+`"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// exportUser is the member's data for an LGPD export: every patient and
// record with their history, as JSON and CSV.
func exportUser(ctx context.Context, host *sdk.Host, userID string) ([]exportFile, error) {
	if !uuidPattern.MatchString(userID) {
		return nil, fmt.Errorf("export user: bad id %q", userID)
	}
	data, err := (&store{host: host}).allData(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("export user: %w", err)
	}
	js, err := exportJSON(data)
	if err != nil {
		return nil, fmt.Errorf("export user: %w", err)
	}
	cs, err := exportCSV(data)
	if err != nil {
		return nil, fmt.Errorf("export user: %w", err)
	}
	return []exportFile{{Name: "prontuario-vet.json", Data: js}, {Name: "prontuario-vet.csv", Data: cs}}, nil
}

// deleteUser erases every patient and record of the member (LGPD deletion).
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	// Reminders of a member whose data is gone would name deleted patients.
	if _, err := host.CancelScheduledNotifications(ctx, ""); err != nil {
		return err
	}
	return (&store{host: host}).deleteUser(ctx, userID)
}
