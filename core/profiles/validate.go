package profiles

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // time zones validate the same on hosts without /usr/share/zoneinfo
	"unicode"
	"unicode/utf8"

	"github.com/vetclube/vetclube/core/text"
)

// Field limits. The database repeats them as CHECK constraints.
const (
	MinTitle     = 3
	MinBiography = 10
	MaxName      = 100
	MaxTitle     = 120
	MaxBiography = 2000
)

// DefaultTimeZone is where most members live; check-in days follow it until
// the member picks another zone.
const DefaultTimeZone = "America/Sao_Paulo"

// length counts the characters (not bytes) a reader sees: format characters
// (zero-width, bidirectional controls) are invisible and not counted, and
// nor is white space at the ends.
func length(s string) int { return utf8.RuneCountInString(strings.TrimSpace(text.StripFormat(s))) }

// MsgControlChars refuses control characters (NUL, escape, ...) in a text
// field: nobody types them, and the database cannot store some of them.
const MsgControlChars = "O texto contém caracteres de controle não permitidos. Apague-os e tente novamente."

// hasControl reports a control character other than a tab or a line break
// (which pasted text often carries: single-line fields fold them into
// spaces, the biography keeps them).
func hasControl(s string) bool {
	for _, r := range s {
		if r != '\n' && r != '\r' && r != '\t' && unicode.IsControl(r) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// cleanName applies the shared rule for a person's name (core/text): format
// characters removed, white space collapsed, at least one letter. Control
// characters are refused rather than silently turned into spaces, so a
// client sending them hears about it.
func cleanName(bad map[string]string, field, raw, msgEmpty, msgNoLetter, msgLong string) string {
	if hasControl(raw) {
		bad[field] = MsgControlChars
		return ""
	}
	name, ok := text.CleanName(raw)
	switch {
	case name == "":
		bad[field] = msgEmpty
	case !ok:
		bad[field] = msgNoLetter
	case utf8.RuneCountInString(name) > MaxName:
		bad[field] = msgLong
	}
	return name
}

// cleanText prepares a public free-text field: control characters refused,
// format characters removed, the ends trimmed, and in a single-line field
// every run of white space made one space. A field of only invisible
// characters thus becomes empty.
func cleanText(bad map[string]string, field, raw string, multiline bool) string {
	if hasControl(raw) {
		bad[field] = MsgControlChars
		return ""
	}
	s := text.StripFormat(raw)
	if !multiline {
		return strings.Join(strings.Fields(s), " ")
	}
	return strings.TrimSpace(s)
}

// brazilianStates are the 27 federative units (UF), the suffix of a CRMV.
var brazilianStates = []string{
	"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
	"PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
}

// crmvPattern accepts what people type: "CRMV-SP 12345", "crmv sp 12345",
// "CRMV/SP-12345", "SP 12345", "12345-SP", "CRMV-SP nº 12345".
var (
	crmvPrefixed = regexp.MustCompile(`^(?:CRMV)?[\s\-/.:]*([A-Z]{2})[\s\-/.:]*(?:N[º°O.]?\s*)?(\d{1,6})$`)
	crmvSuffixed = regexp.MustCompile(`^(?:CRMV)?[\s\-/.:]*(\d{1,6})[\s\-/.:]*([A-Z]{2})$`)
)

// NormalizeCRMV returns the canonical "CRMV-UF NUMBER" form, or a pt-BR reason.
func NormalizeCRMV(raw string) (string, error) {
	s := strings.ToUpper(strings.TrimSpace(raw))
	if s == "" {
		return "", fmt.Errorf("Informe o CRMV.")
	}
	var uf, number string
	if m := crmvPrefixed.FindStringSubmatch(s); m != nil {
		uf, number = m[1], m[2]
	} else if m := crmvSuffixed.FindStringSubmatch(s); m != nil {
		number, uf = m[1], m[2]
	} else {
		return "", fmt.Errorf("CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345).")
	}
	if !slices.Contains(brazilianStates, uf) {
		return "", fmt.Errorf("UF do CRMV inválida: %s. Use a sigla de um estado brasileiro (ex.: CRMV-SP 12345).", uf)
	}
	number = strings.TrimLeft(number, "0")
	if number == "" {
		return "", fmt.Errorf("CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345).")
	}
	return "CRMV-" + uf + " " + number, nil
}

func digitsOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cpfAllowed are the characters people use when typing a CPF.
var cpfAllowed = regexp.MustCompile(`^[\d.\-\s/]*$`)

// NormalizeCPF returns the 11 digits of a CPF whose check digits are right,
// or a pt-BR reason.
func NormalizeCPF(raw string) (string, error) {
	if !cpfAllowed.MatchString(raw) {
		return "", fmt.Errorf("CPF inválido: use apenas números (ex.: 123.456.789-09).")
	}
	d := digitsOnly(raw)
	if len(d) != 11 {
		return "", fmt.Errorf("CPF inválido: deve ter 11 dígitos.")
	}
	if strings.Count(d, d[:1]) == 11 {
		return "", fmt.Errorf("CPF inválido.")
	}
	for _, n := range []int{9, 10} {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(d[i]-'0') * (n + 1 - i)
		}
		check := sum * 10 % 11
		if check == 10 {
			check = 0
		}
		if int(d[n]-'0') != check {
			return "", fmt.Errorf("CPF inválido.")
		}
	}
	return d, nil
}

// validDDDs are the Brazilian area codes in use (Anatel).
var validDDDs = map[string]bool{}

func init() {
	for _, ddd := range strings.Fields(`11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38
		41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79
		81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99`) {
		validDDDs[ddd] = true
	}
}

var phoneAllowed = regexp.MustCompile(`^\+?[\d\s().\-]*$`)

// NormalizePhone returns a Brazilian number as DDD + number digits (10 for a
// landline, 11 for a mobile), accepting an optional +55, or a pt-BR reason.
func NormalizePhone(raw string) (string, error) {
	if !phoneAllowed.MatchString(raw) {
		return "", fmt.Errorf("Telefone inválido: use apenas números, com DDD (ex.: (11) 98765-4321).")
	}
	d := digitsOnly(raw)
	if (len(d) == 12 || len(d) == 13) && strings.HasPrefix(d, "55") {
		d = d[2:]
	}
	if len(d) == 11 && d[0] == '0' || len(d) == 12 && d[0] == '0' {
		d = d[1:] // a trunk prefix: "0 11 98765-4321"
	}
	if len(d) != 10 && len(d) != 11 {
		return "", fmt.Errorf("Telefone inválido: informe DDD e número, com 10 ou 11 dígitos (ex.: (11) 98765-4321).")
	}
	if !validDDDs[d[:2]] {
		return "", fmt.Errorf("DDD inválido: %s.", d[:2])
	}
	if len(d) == 11 && d[2] != '9' {
		return "", fmt.Errorf("Celular inválido: números com 11 dígitos começam com 9 depois do DDD.")
	}
	if len(d) == 10 && (d[2] < '2' || d[2] > '5') {
		return "", fmt.Errorf("Telefone fixo inválido: depois do DDD o número começa com 2, 3, 4 ou 5.")
	}
	return d, nil
}

// ValidTimeZone reports whether name is an IANA zone such as America/Manaus.
func ValidTimeZone(name string) bool {
	if name == "" || name == "Local" || strings.TrimSpace(name) != name {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

// Update is what a member may change on their own profile (PUT /api/profile).
type Update struct {
	FirstName         string   `json:"first_name"`
	LastName          string   `json:"last_name"`
	Title             string   `json:"title"`
	Biography         string   `json:"biography"`
	Specialties       []string `json:"specialties"`
	HasCRMV           bool     `json:"has_crmv"`
	CRMV              string   `json:"crmv"`
	Phone             string   `json:"phone"`
	HasWhatsApp       bool     `json:"has_whatsapp"`
	IsNotVeterinarian bool     `json:"is_not_veterinarian"`
	CPF               string   `json:"cpf"`
	// TimeZone is optional: nil keeps the current zone.
	TimeZone *string `json:"time_zone"`
}

// Validate trims and normalises u in place and returns one pt-BR reason per
// invalid field (nil when everything is fine).
func (u *Update) Validate() map[string]string {
	bad := map[string]string{}

	u.FirstName = cleanName(bad, "first_name", u.FirstName, "Informe seu nome.", "O nome deve conter letras.",
		fmt.Sprintf("O nome deve ter no máximo %d caracteres.", MaxName))
	u.LastName = cleanName(bad, "last_name", u.LastName, "Informe seu sobrenome.", "O sobrenome deve conter letras.",
		fmt.Sprintf("O sobrenome deve ter no máximo %d caracteres.", MaxName))

	// Title and biography are optional: an empty one saves (completeness
	// lists it as missing); a filled one must meet its length.
	u.Title = cleanText(bad, "title", u.Title, false)
	switch n := length(u.Title); {
	case bad["title"] != "" || n == 0:
	case n < MinTitle:
		bad["title"] = fmt.Sprintf("O título deve ter pelo menos %d caracteres.", MinTitle)
	case n > MaxTitle:
		bad["title"] = fmt.Sprintf("O título deve ter no máximo %d caracteres.", MaxTitle)
	case !hasLetter(u.Title):
		bad["title"] = "O título deve conter letras."
	}
	u.Biography = cleanText(bad, "biography", u.Biography, true)
	switch n := length(u.Biography); {
	case bad["biography"] != "" || n == 0:
	case n < MinBiography:
		bad["biography"] = fmt.Sprintf("A biografia deve ter pelo menos %d caracteres.", MinBiography)
	case n > MaxBiography:
		bad["biography"] = fmt.Sprintf("A biografia deve ter no máximo %d caracteres.", MaxBiography)
	case !hasLetter(u.Biography):
		bad["biography"] = "A biografia deve conter letras."
	}

	specialties := make([]string, 0, len(u.Specialties))
	for _, s := range u.Specialties {
		s = strings.TrimSpace(s)
		if !isSpecialty(s) {
			bad["specialties"] = fmt.Sprintf("Especialidade inválida: %q.", s)
			break
		}
		if !slices.Contains(specialties, s) {
			specialties = append(specialties, s)
		}
	}
	u.Specialties = specialties

	if u.IsNotVeterinarian && u.HasCRMV {
		bad["has_crmv"] = "Quem não é médico-veterinário não pode informar CRMV."
	}
	if u.HasCRMV {
		crmv, err := NormalizeCRMV(u.CRMV)
		if err != nil {
			bad["crmv"] = err.Error()
		}
		u.CRMV = crmv
	} else {
		// Unticking "tenho CRMV" withdraws the number, so no stale
		// registration stays on a public profile.
		u.CRMV = ""
	}

	if strings.TrimSpace(u.Phone) == "" {
		u.Phone = ""
		if u.HasWhatsApp {
			bad["phone"] = "Informe o telefone para indicar que ele tem WhatsApp."
		}
	} else if phone, err := NormalizePhone(u.Phone); err != nil {
		bad["phone"] = err.Error()
	} else {
		u.Phone = phone
	}

	if strings.TrimSpace(u.CPF) == "" {
		u.CPF = ""
	} else if cpf, err := NormalizeCPF(u.CPF); err != nil {
		bad["cpf"] = err.Error()
	} else {
		u.CPF = cpf
	}

	if u.TimeZone != nil && !ValidTimeZone(*u.TimeZone) {
		bad["time_zone"] = "Fuso horário inválido. Use um fuso IANA, como America/Sao_Paulo."
	}

	if len(bad) == 0 {
		return nil
	}
	return bad
}
