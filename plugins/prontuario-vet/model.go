package main

import (
	"fmt"
	"math"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/vetcalc"
)

// Tutor is the animal's owner on file.
type Tutor struct {
	Name    string `json:"name"`
	Phone   string `json:"phone"`
	Email   string `json:"email"`
	CPF     string `json:"cpf"`
	Address string `json:"address"`
}

// PatientData is what the vet types about a patient (stored as jsonb).
type PatientData struct {
	Breed       string `json:"breed"`
	Sex         string `json:"sex"`
	Neutered    bool   `json:"neutered"`
	BirthDate   string `json:"birth_date"`
	ApproxAge   string `json:"approx_age"`
	Microchip   string `json:"microchip"`
	Coat        string `json:"coat"`
	Tutor       Tutor  `json:"tutor"`
	Allergies   string `json:"allergies"`
	Chronic     string `json:"chronic_conditions"`
	PhotoFileID string `json:"photo_file_id"`
}

// patientInput is a create or edit of a patient.
type patientInput struct {
	Name    string `json:"name"`
	Species string `json:"species"`
	PatientData
	// WeightKg, on create only, becomes the first weight record.
	WeightKg *float64 `json:"weight_kg"`
	// WeightDate is the member's own date for that weight (their time zone
	// may already be on another day than the server's); empty: today.
	WeightDate string `json:"weight_date"`
	// Version is the one the vet edited; a stale one is refused (409).
	Version int `json:"version"`
}

// Sexes a patient may have.
var sexes = map[string]bool{"macho": true, "femea": true, "indefinido": true}

var (
	uuidPattern      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	microchipPattern = regexp.MustCompile(`^[0-9A-Za-z]{9,15}$`)
	fileIDPattern    = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
	datePattern      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

func trimLimit(p sdk.Problems, field string, s *string, max int, label string) {
	*s = strings.TrimSpace(*s)
	if utf8.RuneCountInString(*s) > max {
		p.Add(field, fmt.Sprintf("%s deve ter no máximo %d caracteres.", label, max))
	}
}

// parseDate reads YYYY-MM-DD; empty is allowed by the caller.
func parseDate(s string) (time.Time, bool) {
	if !datePattern.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", s)
	return t, err == nil
}

func (in *patientInput) validate(now time.Time, creating bool) sdk.Problems {
	p := sdk.Problems{}
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "":
		p.Add("name", "Informe o nome do paciente.")
	case utf8.RuneCountInString(in.Name) > 80:
		p.Add("name", "O nome deve ter no máximo 80 caracteres.")
	}
	if _, ok := vetcalc.Lookup(in.Species); !ok {
		p.Add("species", "Selecione a espécie.")
	}
	d := &in.PatientData
	trimLimit(p, "breed", &d.Breed, 80, "A raça")
	trimLimit(p, "coat", &d.Coat, 80, "A pelagem")
	trimLimit(p, "approx_age", &d.ApproxAge, 40, "A idade aproximada")
	trimLimit(p, "allergies", &d.Allergies, 1000, "As alergias")
	trimLimit(p, "chronic_conditions", &d.Chronic, 1000, "As condições crônicas")
	if d.Sex == "" {
		d.Sex = "indefinido"
	}
	if !sexes[d.Sex] {
		p.Add("sex", "Selecione o sexo.")
	}
	d.BirthDate = strings.TrimSpace(d.BirthDate)
	if d.BirthDate != "" {
		t, ok := parseDate(d.BirthDate)
		switch {
		case !ok:
			p.Add("birth_date", "Data de nascimento inválida.")
		case t.After(now):
			p.Add("birth_date", "A data de nascimento não pode estar no futuro.")
		case t.Year() < now.Year()-80:
			p.Add("birth_date", "A data de nascimento é antiga demais.")
		}
	}
	d.Microchip = strings.ReplaceAll(strings.TrimSpace(d.Microchip), " ", "")
	if d.Microchip != "" && !microchipPattern.MatchString(d.Microchip) {
		p.Add("microchip", "O microchip deve ter de 9 a 15 letras ou números (o padrão ISO tem 15 dígitos).")
	}
	t := &d.Tutor
	trimLimit(p, "tutor.name", &t.Name, 120, "O nome do tutor")
	trimLimit(p, "tutor.address", &t.Address, 300, "O endereço")
	t.Phone = strings.TrimSpace(t.Phone)
	if t.Phone != "" {
		digits := onlyDigits(t.Phone)
		if len(digits) < 10 || len(digits) > 13 || utf8.RuneCountInString(t.Phone) > 30 {
			p.Add("tutor.phone", "Telefone inválido: informe DDD e número.")
		}
	}
	t.Email = strings.TrimSpace(t.Email)
	if t.Email != "" {
		if a, err := mail.ParseAddress(t.Email); err != nil || a.Address != t.Email || len(t.Email) > 254 {
			p.Add("tutor.email", "E-mail inválido.")
		}
	}
	t.CPF = strings.TrimSpace(t.CPF)
	if t.CPF != "" {
		if !ValidCPF(t.CPF) {
			p.Add("tutor.cpf", "CPF inválido: confira os dígitos.")
		} else {
			t.CPF = formatCPF(onlyDigits(t.CPF))
		}
	}
	d.PhotoFileID = strings.TrimSpace(d.PhotoFileID)
	if d.PhotoFileID != "" && !fileIDPattern.MatchString(d.PhotoFileID) {
		p.Add("photo_file_id", "Foto inválida.")
	}
	if creating && in.WeightKg != nil {
		checkWeight(p, "weight_kg", in.Species, *in.WeightKg)
	}
	if in.WeightDate != "" {
		if t, ok := parseDate(in.WeightDate); !ok || t.After(now.AddDate(0, 0, 1)) || t.Before(now.AddDate(0, 0, -2)) {
			p.Add("weight_date", "Data do peso inválida.")
		}
	} else {
		in.WeightDate = now.Format("2006-01-02")
	}
	return p
}

func checkWeight(p sdk.Problems, field, species string, kg float64) {
	info, ok := vetcalc.Lookup(species)
	if !ok {
		return
	}
	if math.IsNaN(kg) || kg < info.MinKg || kg > info.MaxKg {
		p.Add(field, fmt.Sprintf("O peso deve estar entre %s e %s kg para %s.", sdk.FormatNumber(info.MinKg, 2), sdk.FormatNumber(info.MaxKg, 0), info.Plural))
	}
}

func onlyDigits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ValidCPF checks a CPF's two check digits (módulo 11, Receita Federal).
// Punctuation is ignored; eleven equal digits are refused.
func ValidCPF(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9') && r != '.' && r != '-' && r != ' ' {
			return false
		}
	}
	d := onlyDigits(s)
	if len(d) != 11 || strings.Count(d, d[:1]) == 11 {
		return false
	}
	check := func(n int) byte {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(d[i]-'0') * (n + 1 - i)
		}
		r := sum * 10 % 11
		if r == 10 {
			r = 0
		}
		return byte('0' + r)
	}
	return check(9) == d[9] && check(10) == d[10]
}

func formatCPF(d string) string { return d[:3] + "." + d[3:6] + "." + d[6:9] + "-" + d[9:] }

// WhatsAppURL is the wa.me link for a Brazilian phone (country code 55
// added when missing), or "" when the number cannot be one.
func WhatsAppURL(phone string) string {
	d := onlyDigits(phone)
	switch {
	case len(d) == 10 || len(d) == 11:
		d = "55" + d
	case (len(d) == 12 || len(d) == 13) && strings.HasPrefix(d, "55"):
	default:
		return ""
	}
	return "https://wa.me/" + d
}

// fold lowercases s and removes accents, so a search for "joao" finds
// "João": the stored search text and the query are folded alike.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if f, ok := foldMap[r]; ok {
			b.WriteRune(f)
		} else if unicode.IsPrint(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var foldMap = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "áàâãäå", 'e': "éèêë", 'i': "íìîï", 'o': "óòôõö", 'u': "úùûü", 'c': "ç", 'n': "ñ", 'y': "ýÿ",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

func searchText(in patientInput) string {
	return fold(strings.Join([]string{in.Name, in.Tutor.Name, in.Microchip, in.Breed, onlyDigits(in.Tutor.Phone)}, " "))
}

// Patient is a patient as the API answers it.
type Patient struct {
	ID       string      `json:"id"`
	Name     string      `json:"name"`
	Species  string      `json:"species"`
	Data     PatientData `json:"data"`
	Archived bool        `json:"archived"`
	Version  int         `json:"version"`
	Created  string      `json:"created_at"`
	Updated  string      `json:"updated_at"`
	// Filled by the handler.
	SpeciesLabel string   `json:"species_label"`
	WhatsApp     string   `json:"whatsapp_url"`
	LatestKg     *float64 `json:"latest_weight_kg"`
}

func (p *Patient) decorate() {
	if info, ok := vetcalc.Lookup(p.Species); ok {
		p.SpeciesLabel = info.Label
	}
	p.WhatsApp = WhatsAppURL(p.Data.Tutor.Phone)
}
