package billing

import "strings"

// NormalizeCPF returns the 11 digits of a CPF typed with or without its
// punctuation (123.456.789-09), and whether they form a valid CPF: both
// check digits right and not one digit repeated (000.000.000-00 passes the
// arithmetic but is no one's).
func NormalizeCPF(s string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.' || r == '-' || r == ' ':
		default:
			return "", false
		}
	}
	d := b.String()
	if len(d) != 11 {
		return "", false
	}
	if strings.Count(d, d[:1]) == 11 {
		return "", false
	}
	for n := 9; n <= 10; n++ {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(d[i]-'0') * (n + 1 - i)
		}
		check := sum * 10 % 11
		if check == 10 {
			check = 0
		}
		if int(d[n]-'0') != check {
			return "", false
		}
	}
	return d, true
}

// FormatCPF writes 11 digits as 123.456.789-09 (how Stripe's br_cpf expects it).
func FormatCPF(d string) string {
	if len(d) != 11 {
		return d
	}
	return d[:3] + "." + d[3:6] + "." + d[6:9] + "-" + d[9:]
}
