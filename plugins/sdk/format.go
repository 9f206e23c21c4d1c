package sdk

import (
	"math"
	"strconv"
	"strings"
)

// FormatNumber writes v the Brazilian way: "1.234,56" with the given number
// of decimals.
func FormatNumber(v float64, decimals int) string {
	neg := v < 0
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if frac != "" {
		out += "," + frac
	}
	if neg && strings.Trim(out, "0.,") != "" {
		out = "-" + out
	}
	return out
}

// FormatBRL writes an amount in reais: "R$ 1.234,56".
func FormatBRL(v float64) string {
	s := FormatNumber(v, 2)
	if strings.HasPrefix(s, "-") {
		return "-R$ " + s[1:]
	}
	return "R$ " + s
}

// Round rounds v to the given number of decimals. A v so large that scaling
// it would overflow is already a whole number in float64 and is returned
// as is (never turned into ±Inf).
func Round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	scaled := v * p
	if math.IsInf(scaled, 0) && !math.IsInf(v, 0) {
		return v
	}
	return math.Round(scaled) / p
}
