package sdk

import "testing"

// numberCases is mirrored in web/src/features/ferramentas/components/
// validate.test.ts: the browser and the server read numbers alike.
var numberCases = []struct {
	in   string
	want float64
	ok   bool
}{
	{"12", 12, true},
	{"12,5", 12.5, true},
	{"1,5", 1.5, true},
	{"1.5", 1.5, true},
	{"1.25", 1.25, true},
	{"1.2345", 1.2345, true},
	{"0.5", 0.5, true},
	{"0.500", 0.5, true},
	{",5", 0.5, true},
	{"1.200", 1200, true},
	{"25.000", 25000, true},
	{"1.234.567", 1234567, true},
	{"1.234,5", 1234.5, true},
	{"1.234.567,89", 1234567.89, true},
	{"R$ 25.000,00", 25000, true},
	{"R$25.000,00", 25000, true},
	{" R$ 1.530,46 ", 1530.46, true},
	{"-12,5", -12.5, true},
	{"-R$ 3,00", -3, true},
	{"", 0, false},
	{"abc", 0, false},
	{"1e3", 0, false},
	{"1.2.3", 0, false},
	{"1.23,4", 0, false},
	{"12.34.567", 0, false},
	{"1,2,3", 0, false},
	{"1.234.5", 0, false},
	{"12,", 0, false},
	{"Inf", 0, false},
	{"NaN", 0, false},
	{"0x10", 0, false},
	{"R$", 0, false},
	{"-", 0, false},
}

func TestParseNumberReadsBrazilianFormats(t *testing.T) {
	for _, c := range numberCases {
		got, ok := ParseNumber(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
