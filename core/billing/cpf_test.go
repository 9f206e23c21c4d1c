package billing_test

import (
	"testing"

	"github.com/vetclube/vetclube/core/billing"
)

func TestCPFCheckDigits(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"529.982.247-25", "52998224725", true},
		{"52998224725", "52998224725", true},
		{" 111.444.777-35 ", "11144477735", true},
		{"390.533.447-05", "39053344705", true},
		{"935.411.347-80", "93541134780", true},
		{"000.000.001-91", "00000000191", true}, // first check digit 9, second 1
		{"529.982.247-24", "", false},           // second check digit wrong
		{"529.982.247-35", "", false},           // first check digit wrong
		{"111.111.111-11", "", false},           // repeated digits pass the arithmetic, no one's CPF
		{"000.000.000-00", "", false},
		{"5299822472", "", false},   // 10 digits
		{"529982247250", "", false}, // 12 digits
		{"529.982.247-2a", "", false},
		{"", "", false},
		{"123.456.789-09", "12345678909", true},
		{"123.456.789-00", "", false},
	}
	for _, tt := range tests {
		got, ok := billing.NormalizeCPF(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormalizeCPF(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if got := billing.FormatCPF("52998224725"); got != "529.982.247-25" {
		t.Errorf("FormatCPF = %q", got)
	}
}
