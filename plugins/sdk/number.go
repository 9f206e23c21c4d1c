package sdk

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Number text the Brazilian way. The same rule is checked in the browser by
// parseNumber in web/src/features/ferramentas/components/validate.ts; keep
// both (and their table tests) in step.
var (
	// "1.234.567,89", "1234,5", ",5": a comma is the decimal mark and any
	// dot must group thousands.
	withComma = regexp.MustCompile(`^(\d{1,3}(\.\d{3})+|\d*),\d+$`)
	// "1.200", "25.000", "1.234.567": a dot followed by exactly three
	// digits, after a first group that does not start with 0, groups
	// thousands.
	thousandsOnly = regexp.MustCompile(`^[1-9]\d{0,2}(\.\d{3})+$`)
	// "12", "1.5", "0.500", ".5": otherwise one dot is a decimal point.
	plainDecimal = regexp.MustCompile(`^(\d+(\.\d*)?|\.\d+)$`)
)

// ParseNumber reads a number typed or pasted the Brazilian way, with an
// optional sign and "R$" prefix:
//
//	"12,5" → 12.5    "R$ 25.000,00" → 25000   "1.200" → 1200
//	"1.5" → 1.5      "0.500" → 0.5            "1.2345" → 1.2345
//
// A comma is always the decimal mark, and dots before it group thousands.
// Without a comma a dot followed by exactly three digits (after a first
// group of 1–3 digits not starting with 0) groups thousands, as in pt-BR,
// so "1.200" is 1200; any other single dot is a decimal point ("1.5",
// "1.25", "0.500"). Exponents, hex, spaces inside the digits and "Inf" or
// "NaN" are refused. ok is false when s is not such a number.
func ParseNumber(s string) (v float64, ok bool) {
	s = strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = s[0] == '-'
		s = strings.TrimSpace(s[1:])
	}
	if rest, found := strings.CutPrefix(s, "R$"); found {
		s = strings.TrimSpace(rest)
	}
	switch {
	case withComma.MatchString(s):
		s = strings.Replace(strings.ReplaceAll(s, ".", ""), ",", ".", 1)
	case thousandsOnly.MatchString(s):
		s = strings.ReplaceAll(s, ".", "")
	case plainDecimal.MatchString(s):
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}
