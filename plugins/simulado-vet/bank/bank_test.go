package bank

import (
	"strings"
	"testing"
)

// The bank holds at least 200 questions, spread over the twelve
// specialties, each well formed and unique.
func TestBankIsComplete(t *testing.T) {
	qs, err := Questions()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 200 {
		t.Errorf("%d questions, want at least 200", len(qs))
	}
	per := map[string]int{}
	seen := map[string]bool{}
	for _, q := range qs {
		per[q.Area]++
		if seen[q.Statement] {
			t.Errorf("%s: statement repeated", q.Key)
		}
		seen[q.Statement] = true
		opts := map[string]bool{}
		for _, o := range q.Options {
			if opts[strings.ToLower(o)] {
				t.Errorf("%s: option %q repeated", q.Key, o)
			}
			opts[strings.ToLower(o)] = true
		}
		if n := len([]rune(q.Statement)); n < 15 || n > 3000 {
			t.Errorf("%s: statement of %d characters (the content type takes 15 to 3000)", q.Key, n)
		}
		for _, o := range q.Options {
			if len([]rune(o)) > 400 {
				t.Errorf("%s: option over 400 characters", q.Key)
			}
		}
		if len(q.Explanation) < 60 {
			t.Errorf("%s: explanation too short", q.Key)
		}
	}
	for _, a := range Areas {
		if per[a.Value] < 15 {
			t.Errorf("area %s has %d questions, want at least 15", a.Value, per[a.Value])
		}
	}
}

func TestParseRefusesMalformedQuestions(t *testing.T) {
	cases := map[string]string{
		"two correct":   "## cirurgia\n? facil | x\nEnunciado\n* a\n* b\n- c\n- d\n> Explicação",
		"no correct":    "## cirurgia\n? facil | x\nEnunciado\n- a\n- b\n- c\n- d\n> Explicação",
		"three options": "## cirurgia\n? facil | x\nEnunciado\n* a\n- b\n- c\n> Explicação",
		"unknown area":  "## astrologia\n? facil | x\nEnunciado\n* a\n- b\n- c\n- d\n> Explicação",
		"difficulty":    "## cirurgia\n? trivial | x\nEnunciado\n* a\n- b\n- c\n- d\n> Explicação",
	}
	for name, text := range cases {
		if _, err := Parse(text); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
