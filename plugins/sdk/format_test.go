package sdk

import "testing"

func TestFormatNumberAndBRL(t *testing.T) {
	cases := []struct {
		v    float64
		d    int
		want string
	}{{1234.5, 2, "1.234,50"}, {0.4688, 3, "0,469"}, {1000000, 0, "1.000.000"}, {-12.3, 1, "-12,3"}, {-0.001, 2, "0,00"}}
	for _, c := range cases {
		if got := FormatNumber(c.v, c.d); got != c.want {
			t.Errorf("FormatNumber(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
	if got := FormatBRL(1530.456); got != "R$ 1.530,46" {
		t.Errorf("FormatBRL = %q", got)
	}
}

func TestInputNumberAcceptsBrazilianDecimals(t *testing.T) {
	in := Input{"a": "12,5", "b": 3.0, "c": "1.234,5", "d": "abc"}
	for name, want := range map[string]float64{"a": 12.5, "b": 3, "c": 1234.5} {
		if v, ok := in.Number(name); !ok || v != want {
			t.Errorf("%s = %v %v, want %v", name, v, ok, want)
		}
	}
	if _, ok := in.Number("d"); ok {
		t.Error("text accepted as a number")
	}
}
