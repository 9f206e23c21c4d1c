package main

import (
	"math"
	"strings"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/vetcalc"
)

// Record kinds.
const (
	KindConsultation = "consulta"
	KindVaccination  = "vacina"
	KindPrescription = "prescricao"
	KindExam         = "exame"
	KindWeight       = "peso"
	KindNote         = "nota"
)

var kindLabels = map[string]string{
	KindConsultation: "Consulta", KindVaccination: "Vacinação", KindPrescription: "Receita",
	KindExam: "Exame", KindWeight: "Peso", KindNote: "Anotação",
}

// Attachment is a tool file (PDF or image) attached to an exam.
type Attachment struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// RecordData holds every kind's fields; a record keeps only its kind's.
type RecordData struct {
	// consulta
	Anamnesis       string   `json:"anamnesis,omitempty"`
	PhysicalExam    string   `json:"physical_exam,omitempty"`
	TemperatureC    *float64 `json:"temperature_c,omitempty"`
	HeartRate       *float64 `json:"heart_rate,omitempty"`
	RespiratoryRate *float64 `json:"respiratory_rate,omitempty"`
	Diagnoses       string   `json:"diagnoses,omitempty"`
	Plan            string   `json:"plan,omitempty"`
	// consulta and peso
	WeightKg *float64 `json:"weight_kg,omitempty"`
	// vacina
	Vaccine  string `json:"vaccine,omitempty"`
	Lot      string `json:"lot,omitempty"`
	NextDose string `json:"next_dose,omitempty"`
	// prescricao
	Drug          string   `json:"drug,omitempty"`
	Presentation  string   `json:"presentation,omitempty"`
	Concentration *float64 `json:"concentration_mg_ml,omitempty"`
	DoseMgKg      *float64 `json:"dose_mg_kg,omitempty"`
	DoseMg        *float64 `json:"dose_mg,omitempty"`
	VolumeML      *float64 `json:"volume_ml,omitempty"`
	Route         string   `json:"route,omitempty"`
	Frequency     string   `json:"frequency,omitempty"`
	Duration      string   `json:"duration,omitempty"`
	Quantity      string   `json:"quantity,omitempty"`
	Instructions  string   `json:"instructions,omitempty"`
	// exame
	ExamName    string       `json:"exam_name,omitempty"`
	Result      string       `json:"result,omitempty"`
	Attachments []Attachment `json:"attachments,omitempty"`
	// nota
	Text string `json:"text,omitempty"`
}

type recordInput struct {
	Kind    string     `json:"kind"`
	Date    string     `json:"date"`
	Data    RecordData `json:"data"`
	Version int        `json:"version"`
}

// Routes a prescription may name (written in full: CFMV Res. 1.318/2020
// asks for prescriptions without abbreviations).
var routes = []string{"Oral", "Subcutânea", "Intramuscular", "Intravenosa", "Tópica", "Oftálmica", "Otológica", "Inalatória", "Retal", "Transdérmica"}

func validRoute(r string) bool {
	for _, x := range routes {
		if x == r {
			return true
		}
	}
	return false
}

// validate checks the record for the patient's species and keeps only the
// fields of its kind; the prescription's dose is computed here with the
// calculators' formula (mg = mg/kg × kg; mL = mg ÷ mg/mL).
func (in *recordInput) validate(species string, now time.Time) sdk.Problems {
	p := sdk.Problems{}
	if _, ok := kindLabels[in.Kind]; !ok {
		p.Add("kind", "Tipo de registro inválido.")
		return p
	}
	in.Date = strings.TrimSpace(in.Date)
	if in.Date == "" {
		in.Date = now.Format("2006-01-02")
	}
	date, ok := parseDate(in.Date)
	switch {
	case !ok:
		p.Add("date", "Data inválida.")
	case date.After(now.AddDate(0, 0, 1)):
		p.Add("date", "A data do registro não pode estar no futuro.")
	case date.Year() < 1950:
		p.Add("date", "Data inválida.")
	}
	d := in.Data
	var out RecordData
	text := func(field string, s string, max int, label string, required bool) string {
		s = strings.TrimSpace(s)
		if required && s == "" {
			p.Add(field, "Preencha "+label+".")
		}
		if len([]rune(s)) > max {
			p.Add(field, "O texto de "+label+" é longo demais.")
		}
		return s
	}
	num := func(field string, v *float64, min, max float64, msg string) *float64 {
		if v == nil {
			return nil
		}
		if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < min || *v > max {
			p.Add(field, msg)
			return nil
		}
		x := *v
		return &x
	}
	switch in.Kind {
	case KindConsultation:
		out.Anamnesis = text("anamnesis", d.Anamnesis, 10000, "a anamnese", true)
		out.PhysicalExam = text("physical_exam", d.PhysicalExam, 10000, "o exame físico", false)
		out.TemperatureC = num("temperature_c", d.TemperatureC, 25, 46, "A temperatura deve estar entre 25 e 46 °C.")
		out.HeartRate = num("heart_rate", d.HeartRate, 1, 600, "A frequência cardíaca deve estar entre 1 e 600 bpm.")
		out.RespiratoryRate = num("respiratory_rate", d.RespiratoryRate, 1, 300, "A frequência respiratória deve estar entre 1 e 300 mpm.")
		if d.WeightKg != nil {
			checkWeight(p, "weight_kg", species, *d.WeightKg)
			out.WeightKg = num("weight_kg", d.WeightKg, 0, vetcalc.MaxWeightKg, "Peso inválido.")
		}
		out.Diagnoses = text("diagnoses", d.Diagnoses, 5000, "as suspeitas diagnósticas", false)
		out.Plan = text("plan", d.Plan, 5000, "a conduta", false)
	case KindVaccination:
		out.Vaccine = text("vaccine", d.Vaccine, 120, "a vacina", true)
		out.Lot = text("lot", d.Lot, 60, "o lote", false)
		out.NextDose = strings.TrimSpace(d.NextDose)
		if out.NextDose != "" {
			nd, ok := parseDate(out.NextDose)
			switch {
			case !ok:
				p.Add("next_dose", "Data da próxima dose inválida.")
			case date.IsZero() || !nd.After(date):
				p.Add("next_dose", "A próxima dose deve ser depois da data da vacinação.")
			case nd.After(date.AddDate(5, 0, 0)):
				p.Add("next_dose", "A próxima dose deve ser em até 5 anos.")
			}
		}
	case KindPrescription:
		out.Drug = text("drug", d.Drug, 200, "o medicamento", true)
		out.Presentation = text("presentation", d.Presentation, 200, "a forma farmacêutica", false)
		out.Route = strings.TrimSpace(d.Route)
		if !validRoute(out.Route) {
			p.Add("route", "Selecione a via de administração.")
		}
		out.Frequency = text("frequency", d.Frequency, 120, "a frequência", true)
		out.Duration = text("duration", d.Duration, 120, "a duração", true)
		out.Quantity = text("quantity", d.Quantity, 120, "a quantidade", false)
		out.Instructions = text("instructions", d.Instructions, 2000, "as orientações", false)
		out.DoseMgKg = num("dose_mg_kg", d.DoseMgKg, 0.0001, 10000, "A dose deve estar entre 0,0001 e 10.000 mg/kg.")
		if d.DoseMgKg == nil {
			p.Add("dose_mg_kg", "Informe a dose em mg/kg.")
		}
		if d.WeightKg == nil {
			p.Add("weight_kg", "Informe o peso do paciente.")
		} else {
			checkWeight(p, "weight_kg", species, *d.WeightKg)
			out.WeightKg = num("weight_kg", d.WeightKg, 0, vetcalc.MaxWeightKg, "Peso inválido.")
		}
		out.Concentration = num("concentration_mg_ml", d.Concentration, 0.0001, 100000, "A concentração deve estar entre 0,0001 e 100.000 mg/mL.")
		if out.DoseMgKg != nil && out.WeightKg != nil {
			mg := sdk.Round(vetcalc.DoseMg(*out.DoseMgKg, *out.WeightKg), 4)
			out.DoseMg = &mg
			if out.Concentration != nil {
				ml := sdk.Round(vetcalc.DoseVolumeML(mg, *out.Concentration), 4)
				out.VolumeML = &ml
			}
		}
	case KindExam:
		out.ExamName = text("exam_name", d.ExamName, 200, "o nome do exame", true)
		out.Result = text("result", d.Result, 20000, "o resultado", false)
		if len(d.Attachments) > 10 {
			p.Add("attachments", "Anexe no máximo 10 arquivos por exame.")
		}
		for _, a := range d.Attachments {
			if !fileIDPattern.MatchString(a.ID) {
				p.Add("attachments", "Anexo inválido.")
				break
			}
			out.Attachments = append(out.Attachments, Attachment{ID: a.ID})
		}
	case KindWeight:
		if d.WeightKg == nil {
			p.Add("weight_kg", "Informe o peso.")
		} else {
			checkWeight(p, "weight_kg", species, *d.WeightKg)
			out.WeightKg = num("weight_kg", d.WeightKg, 0, vetcalc.MaxWeightKg, "Peso inválido.")
		}
	case KindNote:
		out.Text = text("text", d.Text, 10000, "a anotação", true)
	}
	in.Data = out
	return p
}

// Range is a reference interval for a vital sign of an adult at rest.
type Range struct {
	Min, Max float64
}

// VitalRanges are the reference intervals of adult animals at rest (Merck
// Veterinary Manual, "Normal rectal temperature ranges" and "Resting heart
// rates" tables; Feitosa, Semiologia Veterinária, 4ª ed.). Birds and exotic
// animals vary too much between species to have one interval: none is
// shown for them.
var VitalRanges = map[string]map[string]Range{
	vetcalc.Dog:     {"temperature_c": {37.5, 39.2}, "heart_rate": {60, 160}, "respiratory_rate": {10, 30}},
	vetcalc.Cat:     {"temperature_c": {37.8, 39.2}, "heart_rate": {140, 220}, "respiratory_rate": {20, 30}},
	vetcalc.Bovine:  {"temperature_c": {38.0, 39.3}, "heart_rate": {40, 80}, "respiratory_rate": {10, 30}},
	vetcalc.Equine:  {"temperature_c": {37.2, 38.3}, "heart_rate": {28, 44}, "respiratory_rate": {8, 16}},
	vetcalc.SmallRu: {"temperature_c": {38.5, 40.0}, "heart_rate": {60, 90}, "respiratory_rate": {12, 30}},
	vetcalc.Swine:   {"temperature_c": {38.0, 39.5}, "heart_rate": {70, 120}, "respiratory_rate": {10, 20}},
}

// VitalFlag is one measured vital sign against its species' interval.
type VitalFlag struct {
	Value  float64  `json:"value"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	Status string   `json:"status"` // "baixo", "normal", "alto" or "sem_referencia"
}

func vitalFlags(species string, d RecordData) map[string]VitalFlag {
	out := map[string]VitalFlag{}
	for name, v := range map[string]*float64{"temperature_c": d.TemperatureC, "heart_rate": d.HeartRate, "respiratory_rate": d.RespiratoryRate} {
		if v == nil {
			continue
		}
		f := VitalFlag{Value: *v, Status: "sem_referencia"}
		if r, ok := VitalRanges[species][name]; ok {
			lo, hi := r.Min, r.Max
			f.Min, f.Max = &lo, &hi
			switch {
			case *v < r.Min:
				f.Status = "baixo"
			case *v > r.Max:
				f.Status = "alto"
			default:
				f.Status = "normal"
			}
		}
		out[name] = f
	}
	return out
}

// Record is a record as the API answers it.
type Record struct {
	ID        string     `json:"id"`
	PatientID string     `json:"patient_id"`
	Kind      string     `json:"kind"`
	Date      string     `json:"date"`
	Data      RecordData `json:"data"`
	Version   int        `json:"version"`
	Created   string     `json:"created_at"`
	Updated   string     `json:"updated_at"`
	Revisions int        `json:"revisions"`
	// Filled by the handler.
	KindLabel string               `json:"kind_label"`
	Vitals    map[string]VitalFlag `json:"vitals,omitempty"`
}

func (r *Record) decorate(species string) {
	r.KindLabel = kindLabels[r.Kind]
	if r.Kind == KindConsultation {
		r.Vitals = vitalFlags(species, r.Data)
	}
}
