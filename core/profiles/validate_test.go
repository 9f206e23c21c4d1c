package profiles

import (
	"strings"
	"testing"
)

func validUpdate() Update {
	return Update{
		FirstName:   "Ana",
		LastName:    "Souza",
		Title:       "Médica-veterinária",
		Biography:   "Clínica de pequenos animais há 10 anos.",
		Specialties: []string{"clinica_geral"},
	}
}

func TestValidUpdatePasses(t *testing.T) {
	u := validUpdate()
	u.HasCRMV, u.CRMV = true, " crmv sp 012345 "
	u.Phone, u.HasWhatsApp = "+55 (11) 98765-4321", true
	u.CPF = "529.982.247-25"
	tz := "America/Manaus"
	u.TimeZone = &tz
	u.Specialties = []string{"cirurgia", " cirurgia", "oncologia"}
	if bad := u.Validate(); bad != nil {
		t.Fatalf("valid update refused: %v", bad)
	}
	if u.CRMV != "CRMV-SP 12345" || u.Phone != "11987654321" || u.CPF != "52998224725" {
		t.Errorf("not normalised: crmv %q phone %q cpf %q", u.CRMV, u.Phone, u.CPF)
	}
	if strings.Join(u.Specialties, ",") != "cirurgia,oncologia" {
		t.Errorf("specialties not deduplicated: %v", u.Specialties)
	}
}

// TestEveryValidationReason changes one thing in a valid update and expects
// exactly one field to be refused with the given pt-BR reason.
func TestEveryValidationReason(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Update)
		field  string
		reason string
	}{
		{"blank first name", func(u *Update) { u.FirstName = "   " }, "first_name", "Informe seu nome."},
		{"long first name", func(u *Update) { u.FirstName = strings.Repeat("a", 101) }, "first_name", "O nome deve ter no máximo 100 caracteres."},
		{"blank last name", func(u *Update) { u.LastName = "" }, "last_name", "Informe seu sobrenome."},
		{"long last name", func(u *Update) { u.LastName = strings.Repeat("é", 101) }, "last_name", "O sobrenome deve ter no máximo 100 caracteres."},
		{"short title", func(u *Update) { u.Title = "  Dr " }, "title", "O título deve ter pelo menos 3 caracteres."},
		{"long title", func(u *Update) { u.Title = strings.Repeat("t", 121) }, "title", "O título deve ter no máximo 120 caracteres."},
		{"short biography after trim", func(u *Update) { u.Biography = "   curta     " }, "biography", "A biografia deve ter pelo menos 10 caracteres."},
		{"long biography", func(u *Update) { u.Biography = strings.Repeat("b", 2001) }, "biography", "A biografia deve ter no máximo 2000 caracteres."},
		{"unknown specialty", func(u *Update) { u.Specialties = []string{"cirurgia", "astrologia"} }, "specialties", `Especialidade inválida: "astrologia".`},
		{"crmv missing", func(u *Update) { u.HasCRMV = true; u.CRMV = " " }, "crmv", "Informe o CRMV."},
		{"crmv malformed", func(u *Update) { u.HasCRMV = true; u.CRMV = "CRMV 12A45" }, "crmv", "CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345)."},
		{"crmv unknown state", func(u *Update) { u.HasCRMV = true; u.CRMV = "CRMV-XX 12345" }, "crmv", "UF do CRMV inválida: XX. Use a sigla de um estado brasileiro (ex.: CRMV-SP 12345)."},
		{"crmv zero number", func(u *Update) { u.HasCRMV = true; u.CRMV = "CRMV-SP 000" }, "crmv", "CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345)."},
		{"crmv while not a veterinarian", func(u *Update) { u.HasCRMV = true; u.CRMV = "CRMV-SP 1"; u.IsNotVeterinarian = true }, "has_crmv", "Quem não é médico-veterinário não pode informar CRMV."},
		{"phone with letters", func(u *Update) { u.Phone = "11 9876-ABCD" }, "phone", "Telefone inválido: use apenas números, com DDD (ex.: (11) 98765-4321)."},
		{"phone too short", func(u *Update) { u.Phone = "98765-4321" }, "phone", "Telefone inválido: informe DDD e número, com 10 ou 11 dígitos (ex.: (11) 98765-4321)."},
		{"phone bad DDD", func(u *Update) { u.Phone = "(20) 98765-4321" }, "phone", "DDD inválido: 20."},
		{"mobile without 9", func(u *Update) { u.Phone = "(11) 88765-4321" }, "phone", "Celular inválido: números com 11 dígitos começam com 9 depois do DDD."},
		{"landline bad first digit", func(u *Update) { u.Phone = "(11) 9876-4321" }, "phone", "Telefone fixo inválido: depois do DDD o número começa com 2, 3, 4 ou 5."},
		{"whatsapp without phone", func(u *Update) { u.HasWhatsApp = true }, "phone", "Informe o telefone para indicar que ele tem WhatsApp."},
		{"cpf with letters", func(u *Update) { u.CPF = "529.982.247-2X" }, "cpf", "CPF inválido: use apenas números (ex.: 123.456.789-09)."},
		{"cpf wrong length", func(u *Update) { u.CPF = "5299822472" }, "cpf", "CPF inválido: deve ter 11 dígitos."},
		{"cpf repeated digits", func(u *Update) { u.CPF = "111.111.111-11" }, "cpf", "CPF inválido."},
		{"cpf bad first check digit", func(u *Update) { u.CPF = "529.982.247-35" }, "cpf", "CPF inválido."},
		{"cpf bad second check digit", func(u *Update) { u.CPF = "529.982.247-26" }, "cpf", "CPF inválido."},
		{"unknown time zone", func(u *Update) { tz := "America/Atlantis"; u.TimeZone = &tz }, "time_zone", "Fuso horário inválido. Use um fuso IANA, como America/Sao_Paulo."},
		{"empty time zone", func(u *Update) { tz := ""; u.TimeZone = &tz }, "time_zone", "Fuso horário inválido. Use um fuso IANA, como America/Sao_Paulo."},
		{"Local is not a zone", func(u *Update) { tz := "Local"; u.TimeZone = &tz }, "time_zone", "Fuso horário inválido. Use um fuso IANA, como America/Sao_Paulo."},
		// Names made only of invisible or bidirectional characters.
		{"zero-width first name", func(u *Update) { u.FirstName = "\u200b\u200b\u200b" }, "first_name", "Informe seu nome."},
		{"bidi-override first name", func(u *Update) { u.FirstName = "\u202e\u202d\u2066\u2069" }, "first_name", "Informe seu nome."},
		{"invisible last name", func(u *Update) { u.LastName = "\u200b \ufeff \u00ad" }, "last_name", "Informe seu sobrenome."},
		{"first name without letters", func(u *Update) { u.FirstName = "12345" }, "first_name", "O nome deve conter letras."},
		{"last name of punctuation", func(u *Update) { u.LastName = "\u200b...\u202e" }, "last_name", "O sobrenome deve conter letras."},
		{"title without letters", func(u *Update) { u.Title = "!!!!" }, "title", "O título deve conter letras."},
		{"biography without letters", func(u *Update) { u.Biography = "1234567890 ..." }, "biography", "A biografia deve conter letras."},
		{"short title once invisible characters go", func(u *Update) { u.Title = "D\u200b\u200br" }, "title", "O título deve ter pelo menos 3 caracteres."},
		// Control characters: a field-level reason, never a database error.
		{"NUL in first name", func(u *Update) { u.FirstName = "Ana\x00" }, "first_name", MsgControlChars},
		{"NUL in last name", func(u *Update) { u.LastName = "\x00Souza" }, "last_name", MsgControlChars},
		{"NUL in title", func(u *Update) { u.Title = "Médica\x00veterinária" }, "title", MsgControlChars},
		{"escape in biography", func(u *Update) { u.Biography = "Clínica de \x1b[31mpequenos animais" }, "biography", MsgControlChars},
		{"DEL in biography", func(u *Update) { u.Biography = "Clínica de pequenos\x7f animais" }, "biography", MsgControlChars},
		{"C1 control in title", func(u *Update) { u.Title = "Médica\u0085vet" }, "title", MsgControlChars},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := validUpdate()
			tc.change(&u)
			bad := u.Validate()
			if len(bad) != 1 || bad[tc.field] != tc.reason {
				t.Errorf("got %v, want only %s: %q", bad, tc.field, tc.reason)
			}
		})
	}
}

func TestUncheckingCRMVClearsIt(t *testing.T) {
	u := validUpdate()
	u.HasCRMV, u.CRMV = false, "CRMV-SP 12345"
	if bad := u.Validate(); bad != nil {
		t.Fatal(bad)
	}
	if u.CRMV != "" {
		t.Errorf("crmv %q kept without has_crmv", u.CRMV)
	}
}

func TestNormalizeCRMVForms(t *testing.T) {
	for in, want := range map[string]string{
		"CRMV-SP 12345":    "CRMV-SP 12345",
		"crmv-sp 12345":    "CRMV-SP 12345",
		"CRMV/RJ-4567":     "CRMV-RJ 4567",
		"CRMV SP 12345":    "CRMV-SP 12345",
		"CRMVSP12345":      "CRMV-SP 12345",
		"SP 12345":         "CRMV-SP 12345",
		"12345-MG":         "CRMV-MG 12345",
		"CRMV-DF nº 998":   "CRMV-DF 998",
		"  crmv - pr  77 ": "CRMV-PR 77",
	} {
		got, err := NormalizeCRMV(in)
		if err != nil || got != want {
			t.Errorf("NormalizeCRMV(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"CRMV-SP", "12345", "CRMV-SP 1234567", "CRMV-SÃO 123", "CRM-SP 123"} {
		if got, err := NormalizeCRMV(in); err == nil {
			t.Errorf("NormalizeCRMV(%q) accepted as %q", in, got)
		}
	}
}

func TestNormalizePhoneForms(t *testing.T) {
	for in, want := range map[string]string{
		"(11) 98765-4321":    "11987654321",
		"+55 11 98765 4321":  "11987654321",
		"5511987654321":      "11987654321",
		"011 98765-4321":     "11987654321",
		"(21) 2345-6789":     "2123456789",
		"+55 (61) 3456-7890": "6134567890",
		"91 9 8123 4567":     "91981234567",
	} {
		got, err := NormalizePhone(in)
		if err != nil || got != want {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestValidCPFs(t *testing.T) {
	// Valid numbers from the Receita Federal check-digit rule (one with a
	// check digit that wraps to 0).
	for _, in := range []string{"529.982.247-25", "11144477735", "935.411.347-80", "123.456.789-09"} {
		if _, err := NormalizeCPF(in); err != nil {
			t.Errorf("NormalizeCPF(%q): %v", in, err)
		}
	}
}

// Format characters are stripped from what is stored and shown, so nothing
// invisible reaches another member's screen; line breaks stay in the
// biography only.
func TestTextFieldsAreCleaned(t *testing.T) {
	u := validUpdate()
	u.FirstName = "\u202eAna\u200b"
	u.LastName = "  de\tSouza \u2066Lima\u2069 "
	u.Title = "Médica-\u200bveterinária\n  clínica"
	u.Biography = "Clínica de pequenos animais.\r\nAtendo em São Paulo.\u202e"
	if bad := u.Validate(); bad != nil {
		t.Fatal(bad)
	}
	if u.FirstName != "Ana" || u.LastName != "de Souza Lima" || u.Title != "Médica-veterinária clínica" ||
		u.Biography != "Clínica de pequenos animais.\r\nAtendo em São Paulo." {
		t.Errorf("cleaned to %q %q %q %q", u.FirstName, u.LastName, u.Title, u.Biography)
	}
}

// Title and biography are optional: leaving them empty (or only invisible)
// saves; their minimum lengths apply only to what is filled.
func TestTitleAndBiographyOptional(t *testing.T) {
	u := validUpdate()
	u.Title, u.Biography = "", "  \u200b "
	if bad := u.Validate(); bad != nil {
		t.Fatalf("empty title and biography refused: %v", bad)
	}
	if u.Title != "" || u.Biography != "" {
		t.Errorf("stored %q %q", u.Title, u.Biography)
	}
}
