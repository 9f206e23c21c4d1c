package profiles_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vetclube/vetclube/core/profiles"
)

// The fuzz targets run their seeds (below and testdata/fuzz) as ordinary
// tests; `go test -fuzz=FuzzX ./core/profiles` explores further.

func FuzzNormalizeCPF(f *testing.F) {
	for _, s := range []string{"123.456.789-09", "12345678909", "111.111.111-11", "", " ", "123.456.789-0", "1234567890a",
		"123 456 789 09", "１２３４５６７８９０９", "\x00", "12345678909\n", strings.Repeat("1", 1000), "529.982.247-25", "-/.-/."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := profiles.NormalizeCPF(raw)
		if err != nil {
			if got != "" || !utf8.ValidString(err.Error()) || err.Error() == "" {
				t.Fatalf("NormalizeCPF(%q) = %q, %v", raw, got, err)
			}
			return
		}
		if len(got) != 11 || strings.Trim(got, "0123456789") != "" {
			t.Fatalf("NormalizeCPF(%q) = %q: not 11 ASCII digits", raw, got)
		}
		if !cpfCheckDigitsOK(got) {
			t.Fatalf("NormalizeCPF(%q) = %q: wrong check digits accepted", raw, got)
		}
		if again, err := profiles.NormalizeCPF(got); err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
		}
	})
}

// cpfCheckDigitsOK recomputes both check digits independently of the
// validator (modulo 11 with weights 10..2 and 11..2).
func cpfCheckDigitsOK(d string) bool {
	for _, n := range []int{9, 10} {
		sum := 0
		for i := range n {
			sum += int(d[i]-'0') * (n + 1 - i)
		}
		r := sum % 11
		want := 0
		if r >= 2 {
			want = 11 - r
		}
		if int(d[n]-'0') != want {
			return false
		}
	}
	return true
}

var canonicalCRMV = regexp.MustCompile(`^CRMV-[A-Z]{2} [1-9][0-9]{0,5}$`)

func FuzzNormalizeCRMV(f *testing.F) {
	for _, s := range []string{"CRMV-SP 12345", "crmv sp 12345", "CRMV/SP-12345", "SP 12345", "12345-SP", "CRMV-SP nº 12345",
		"CRMV-XX 1", "CRMV-SP 0000", "CRMV-SP 1234567", "", "ß 1", "ﬀ 12", "CRMV-SP\u00a012345", "\x00SP 1", "CRMV-sp ١٢٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := profiles.NormalizeCRMV(raw)
		if err != nil {
			if got != "" || err.Error() == "" {
				t.Fatalf("NormalizeCRMV(%q) = %q, %v", raw, got, err)
			}
			return
		}
		if !canonicalCRMV.MatchString(got) {
			t.Fatalf("NormalizeCRMV(%q) = %q: not the canonical form", raw, got)
		}
		if again, err := profiles.NormalizeCRMV(got); err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
		}
	})
}

func FuzzNormalizePhone(f *testing.F) {
	for _, s := range []string{"(11) 98765-4321", "+55 11 98765-4321", "011 3456-7890", "1134567890", "(00) 98765-4321",
		"+", "", "5511987654321", "055119876543210", "(11) 8765-4321", "\x00", "１１９８７６５４３２１"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := profiles.NormalizePhone(raw)
		if err != nil {
			if got != "" || err.Error() == "" {
				t.Fatalf("NormalizePhone(%q) = %q, %v", raw, got, err)
			}
			return
		}
		if (len(got) != 10 && len(got) != 11) || strings.Trim(got, "0123456789") != "" {
			t.Fatalf("NormalizePhone(%q) = %q", raw, got)
		}
		if again, err := profiles.NormalizePhone(got); err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
		}
	})
}

// FuzzUpdateValidate checks that whatever Validate accepts fits the
// database: the profiles table's CHECK constraints count characters
// (char_length), and PostgreSQL refuses NUL in text. An accepted value that
// broke either would be a 500 instead of a field message.
func FuzzUpdateValidate(f *testing.F) {
	f.Add("Ana", "Lima", "Clínica de pequenos animais", "Atendo cães e gatos há dez anos.", "CRMV-SP 12345", "(11) 98765-4321", "529.982.247-25", "America/Sao_Paulo", true, true)
	f.Add("\u200bAna\u202e", "Lima", strings.Repeat("a\u200b", 200), strings.Repeat("b\u200d", 3000), "", "", "", "", false, false)
	f.Add("A\x00", "\t", "ab\ncd", "linha\r\nlinha\tcom tab e letras", "SP 1", "+", "1", "Local", true, false)
	f.Add(strings.Repeat("é", 101), strings.Repeat("x", 100), strings.Repeat("t", 121), strings.Repeat("b", 2001), "x", "x", "x", " America/Sao_Paulo", false, true)
	f.Add("Ana", "Lima", strings.Repeat("\u0301", 130), "a"+strings.Repeat("\u0301", 2100), "", "", "", "UTC", false, false)
	f.Fuzz(func(t *testing.T, first, last, title, bio, crmv, phone, cpf, tz string, hasCRMV, whatsapp bool) {
		for _, s := range []string{first, last, title, bio, crmv, phone, cpf, tz} {
			if !utf8.ValidString(s) {
				return // the JSON decoder refuses invalid UTF-8 before Validate runs
			}
		}
		u := profiles.Update{FirstName: first, LastName: last, Title: title, Biography: bio, CRMV: crmv, Phone: phone,
			CPF: cpf, HasCRMV: hasCRMV, HasWhatsApp: whatsapp, TimeZone: &tz}
		bad := u.Validate()
		for field, msg := range bad {
			if msg == "" || !utf8.ValidString(msg) {
				t.Fatalf("field %s: empty or invalid message %q", field, msg)
			}
		}
		if len(bad) > 0 {
			return
		}
		limits := map[string]struct {
			v   string
			max int
		}{
			"first_name": {u.FirstName, profiles.MaxName}, "last_name": {u.LastName, profiles.MaxName},
			"title": {u.Title, profiles.MaxTitle}, "biography": {u.Biography, profiles.MaxBiography},
		}
		for field, l := range limits {
			if n := utf8.RuneCountInString(l.v); n > l.max {
				t.Errorf("%s accepted with %d characters, over the database's %d", field, n, l.max)
			}
		}
		if strings.TrimSpace(u.FirstName) == "" {
			t.Errorf("blank first name accepted: %q", u.FirstName)
		}
		for _, s := range []string{u.FirstName, u.LastName, u.Title, u.Biography, u.CRMV, u.Phone, u.CPF} {
			if strings.ContainsRune(s, 0) {
				t.Errorf("NUL accepted in %q", s)
			}
		}
	})
}
