package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-pdf/fpdf"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// doc is an A4 portrait document with fpdf's core fonts, whose cp1252
// encoding covers Portuguese accents.
type doc struct {
	pdf *fpdf.Fpdf
	tr  func(string) string
}

func newDoc(title string, footer string) *doc {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetTitle(title, true)
	pdf.SetAuthor("VetClube", true)
	pdf.SetMargins(18, 18, 18)
	pdf.SetAutoPageBreak(true, 20)
	d := &doc{pdf: pdf, tr: pdf.UnicodeTranslatorFromDescriptor("")}
	pdf.SetFooterFunc(func() {
		pdf.SetY(-14)
		pdf.SetFont("Helvetica", "", 8)
		pdf.SetTextColor(107, 114, 128)
		pdf.CellFormat(0, 5, d.tr(footer+" — página "+fmt.Sprint(pdf.PageNo())+" de {nb}"), "", 0, "C", false, 0, "")
	})
	pdf.AliasNbPages("{nb}")
	pdf.AddPage()
	return d
}

func (d *doc) heading(size float64, text string) {
	d.pdf.SetFont("Helvetica", "B", size)
	d.pdf.SetTextColor(15, 118, 110)
	d.pdf.MultiCell(0, size*0.5, d.tr(text), "", "L", false)
	d.pdf.SetTextColor(31, 41, 55)
	d.pdf.Ln(1)
}

func (d *doc) para(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	d.pdf.SetFont("Helvetica", "", 10)
	d.pdf.MultiCell(0, 5, d.tr(text), "", "L", false)
	d.pdf.Ln(1)
}

// kv writes label: value lines, skipping empty values.
func (d *doc) kv(pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			continue
		}
		d.pdf.SetFont("Helvetica", "B", 10)
		w := d.pdf.GetStringWidth(d.tr(pairs[i]+": ")) + 1
		d.pdf.CellFormat(w, 5, d.tr(pairs[i]+": "), "", 0, "L", false, 0, "")
		d.pdf.SetFont("Helvetica", "", 10)
		d.pdf.MultiCell(0, 5, d.tr(pairs[i+1]), "", "L", false)
	}
}

func (d *doc) rule() {
	y := d.pdf.GetY() + 1
	d.pdf.SetDrawColor(209, 213, 219)
	d.pdf.Line(18, y, 192, y)
	d.pdf.Ln(3)
}

func (d *doc) write(w http.ResponseWriter, filename string) {
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		sdk.WriteError(w, http.StatusInternalServerError, "Não foi possível gerar o PDF. Tente novamente.", nil)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

func kg(v *float64) string {
	if v == nil {
		return ""
	}
	return sdk.FormatNumber(*v, 2) + " kg"
}

func numUnit(v *float64, decimals int, unit string) string {
	if v == nil {
		return ""
	}
	return sdk.FormatNumber(*v, decimals) + " " + unit
}

var sexLabels = map[string]string{"macho": "Macho", "femea": "Fêmea", "indefinido": "Não informado"}

func yesNo(b bool) string {
	if b {
		return "Sim"
	}
	return "Não"
}

func (d *doc) patientBlock(p Patient) {
	pd := p.Data
	age := pd.ApproxAge
	if pd.BirthDate != "" {
		age = "nascido em " + brDate(pd.BirthDate)
	}
	d.kv("Paciente", p.Name, "Espécie", p.SpeciesLabel, "Raça", pd.Breed, "Sexo", sexLabels[pd.Sex],
		"Castrado", yesNo(pd.Neutered), "Idade", age, "Pelagem", pd.Coat, "Microchip", pd.Microchip, "Peso", kg(p.LatestKg))
	d.kv("Tutor", pd.Tutor.Name, "Endereço", pd.Tutor.Address, "Telefone", pd.Tutor.Phone, "E-mail", pd.Tutor.Email, "CPF", pd.Tutor.CPF)
}

var vitalLabels = []struct{ key, label, unit string }{
	{"temperature_c", "Temperatura", "°C"}, {"heart_rate", "Frequência cardíaca", "bpm"}, {"respiratory_rate", "Frequência respiratória", "mpm"},
}

func vitalLine(f VitalFlag, unit string) string {
	s := sdk.FormatNumber(f.Value, 1) + " " + unit
	if f.Min != nil && f.Max != nil {
		s += " (referência " + sdk.FormatNumber(*f.Min, 1) + "–" + sdk.FormatNumber(*f.Max, 1) + ")"
	}
	switch f.Status {
	case "alto":
		s += " — ACIMA DA REFERÊNCIA"
	case "baixo":
		s += " — ABAIXO DA REFERÊNCIA"
	}
	return s
}

func (d *doc) recordBlock(r Record) {
	dd := r.Data
	d.heading(11, brDate(r.Date)+" — "+r.KindLabel)
	switch r.Kind {
	case KindConsultation:
		d.kv("Anamnese", dd.Anamnesis, "Exame físico", dd.PhysicalExam)
		for _, v := range vitalLabels {
			if f, ok := r.Vitals[v.key]; ok {
				d.kv(v.label, vitalLine(f, v.unit))
			}
		}
		d.kv("Peso", kg(dd.WeightKg), "Suspeitas diagnósticas", dd.Diagnoses, "Conduta", dd.Plan)
	case KindVaccination:
		d.kv("Vacina", dd.Vaccine, "Lote", dd.Lot, "Próxima dose", brDate(dd.NextDose))
	case KindPrescription:
		d.kv("Medicamento", dd.Drug, "Forma", dd.Presentation, "Concentração", numUnit(dd.Concentration, 4, "mg/mL"),
			"Dose", numUnit(dd.DoseMgKg, 4, "mg/kg")+" × "+kg(dd.WeightKg)+" = "+numUnit(dd.DoseMg, 2, "mg"),
			"Volume por administração", numUnit(dd.VolumeML, 2, "mL"), "Via", dd.Route, "Frequência", dd.Frequency, "Duração", dd.Duration,
			"Quantidade", dd.Quantity, "Orientações", dd.Instructions)
	case KindExam:
		names := []string{}
		for _, a := range dd.Attachments {
			names = append(names, a.Name)
		}
		d.kv("Exame", dd.ExamName, "Resultado", dd.Result, "Anexos", strings.Join(names, ", "))
	case KindWeight:
		d.kv("Peso", kg(dd.WeightKg))
	case KindNote:
		d.para(dd.Text)
	}
	if r.Revisions > 0 {
		d.pdf.SetFont("Helvetica", "I", 8)
		d.pdf.MultiCell(0, 4, d.tr(fmt.Sprintf("Registro corrigido %d vez(es); as versões anteriores ficam no histórico do prontuário.", r.Revisions)), "", "L", false)
	}
	d.rule()
}

// patientPDF is the patient's full record (CFMV Res. 1.321/2020: the copy
// delivered to the tutor on request), every record newest first.
func (a *api) patientPDF(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	ws, err := a.s.weights(ctx, user(r), p.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	if len(ws) > 0 {
		p.LatestKg = &ws[len(ws)-1].Kg
	}
	p.decorate()
	vet, _ := a.svc.vet(ctx)
	d := newDoc("Prontuário — "+p.Name, "Prontuário de "+p.Name+" — gerado em "+a.now().Format("02/01/2006"))
	d.heading(18, "Prontuário veterinário")
	d.kv("Médico(a)-veterinário(a)", vet.Name, "CRMV", vet.CRMV)
	d.rule()
	d.patientBlock(p)
	d.kv("Alergias", p.Data.Allergies, "Condições crônicas", p.Data.Chronic)
	if p.Archived {
		d.kv("Situação", "Arquivado")
	}
	d.rule()
	for page := 1; ; page++ {
		list, total, err := a.s.records(ctx, user(r), p.ID, "", page, 100)
		if err != nil {
			a.fail(w, err)
			return
		}
		for _, rec := range list {
			rec.decorate(p.Species)
			d.recordBlock(rec)
		}
		if page*100 >= total {
			if total == 0 {
				d.para("Nenhum registro.")
			}
			break
		}
	}
	d.write(w, "prontuario-"+slug(p.Name)+".pdf")
}

// prescriptionPDF prints a prescription sheet with what CFMV Res.
// 1.318/2020 asks for: the vet, the animal (name, species, sex, breed,
// weight, coat), the tutor (name, address), the product with
// concentration, form and quantity, dose, route, frequency, duration and
// warnings, the date, and the signature with the CRMV number.
func (a *api) prescriptionPDF(w http.ResponseWriter, r *http.Request) {
	rec, p, ok := a.loadRecord(w, r)
	if !ok {
		return
	}
	if rec.Kind != KindPrescription {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Só receitas podem ser impressas como receituário.", nil)
		return
	}
	p.decorate()
	p.LatestKg = rec.Data.WeightKg
	vet, err := a.svc.vet(r.Context())
	if err != nil {
		a.fail(w, err)
		return
	}
	d := newDoc("Receituário — "+p.Name, "Receituário emitido pelo VetClube")
	d.heading(16, vet.Name)
	crmv := vet.CRMV
	if crmv == "" {
		crmv = "CRMV não informado no perfil"
	}
	d.para("Médico(a)-veterinário(a) — " + crmv)
	d.rule()
	d.heading(14, "Receituário")
	d.patientBlock(p)
	d.rule()
	dd := rec.Data
	d.heading(12, "Uso "+strings.ToLower(dd.Route))
	d.kv("Medicamento", dd.Drug, "Forma farmacêutica", dd.Presentation, "Concentração", numUnit(dd.Concentration, 4, "mg/mL"), "Quantidade", dd.Quantity)
	dose := numUnit(dd.DoseMgKg, 4, "mg/kg") + " (" + numUnit(dd.DoseMg, 2, "mg") + " para " + kg(dd.WeightKg)
	if dd.VolumeML != nil {
		dose += ", " + numUnit(dd.VolumeML, 2, "mL") + " por administração"
	}
	d.kv("Dose", dose+")", "Via de administração", dd.Route, "Frequência", dd.Frequency, "Duração do tratamento", dd.Duration, "Orientações e advertências", dd.Instructions)
	d.pdf.Ln(4)
	d.para("Data: " + brDate(rec.Date))
	d.pdf.Ln(14)
	d.pdf.SetDrawColor(31, 41, 55)
	y := d.pdf.GetY()
	d.pdf.Line(60, y, 150, y)
	d.pdf.Ln(2)
	d.pdf.SetFont("Helvetica", "", 10)
	d.pdf.CellFormat(0, 5, d.tr(vet.Name+" — "+crmv), "", 1, "C", false, 0, "")
	d.pdf.Ln(6)
	d.pdf.SetFont("Helvetica", "I", 8)
	d.pdf.MultiCell(0, 4, d.tr("Este receituário não se aplica a medicamentos sujeitos a controle especial, que seguem o regime do MAPA (notificação de receita pelo SIPEAGRO)."), "", "L", false)
	d.write(w, "receita-"+slug(p.Name)+"-"+rec.Date+".pdf")
}

// slug is a file-name-safe form of s.
func slug(s string) string {
	var b strings.Builder
	for _, r := range fold(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteRune('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "paciente"
	}
	if len(out) > 40 {
		out = out[:40]
	}
	return out
}
