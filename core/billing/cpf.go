package billing

import (
	"strings"

	"github.com/vetclube/vetclube/core/profiles"
)

// NormalizeCPF returns the 11 digits of a CPF typed with or without its
// punctuation (123.456.789-09), and whether they form a valid CPF: both
// check digits right and not one digit repeated (000.000.000-00 passes the
// arithmetic but is no one's). The rule is the profile's (one CPF rule in
// VetClube).
func NormalizeCPF(s string) (string, bool) {
	d, err := profiles.NormalizeCPF(strings.TrimSpace(s))
	return d, err == nil
}

// FormatCPF writes 11 digits as 123.456.789-09 (how Stripe's br_cpf expects it).
func FormatCPF(d string) string {
	if len(d) != 11 {
		return d
	}
	return d[:3] + "." + d[3:6] + "." + d[6:9] + "-" + d[9:]
}
