package text_test

import (
	"testing"

	"github.com/vetclube/vetclube/core/text"
)

func TestCleanName(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"Ana", "Ana", true},
		{"  Ana   Maria  ", "Ana Maria", true},
		{"José", "José", true},
		{"D'Ávila", "D'Ávila", true},
		{"\u200b", "", false},
		{"\u200b\u200c\u200d\ufeff", "", false},
		{"\u202e\u202d\u2066\u2069", "", false},
		{"An\u200ba", "Ana", true},
		{"\u202eanA", "anA", true},
		{"", "", false},
		{"   ", "", false},
		{"123", "123", false},
		{"-.-", "-.-", false},
		{"Ana\x00Maria", "Ana Maria", true},
		{"Ana\n\tMaria", "Ana Maria", true},
		{"\x00\x01", "", false},
		{"Ana\xffMaria", "AnaMaria", true},
		{"\xff\xfe", "", false},
		{"李", "李", true},
	}
	for _, c := range cases {
		got, ok := text.CleanName(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("CleanName(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestStripFormat(t *testing.T) {
	cases := map[string]string{
		"plain text":           "plain text",
		"a\u00adb":             "ab",
		"\u202eevil\u202c":     "evil",
		"zero\u200bwidth":      "zerowidth",
		"ação\u2067x\u2069":    "açãox",
		"keeps\nnewlines\ttoo": "keeps\nnewlines\ttoo",
	}
	for in, want := range cases {
		if got := text.StripFormat(in); got != want {
			t.Errorf("StripFormat(%q) = %q; want %q", in, got, want)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Ana", "\u200b", "\u202eabc", "a\x00b", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := text.CleanName(s)
		again, ok2 := text.CleanName(got)
		if again != got || ok2 != ok {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, again)
		}
		if got != text.StripFormat(got) {
			t.Fatalf("format characters left in %q", got)
		}
	})
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		seconds int
		want    string
	}{
		{0, ""}, {-5, ""}, {6, "6s"}, {25, "25s"}, {59, "59s"}, {60, "1min"}, {89, "1min"}, {90, "2min"},
		{660, "11min"}, {1320, "22min"}, {3300, "55min"}, {3570, "1h"}, {3600, "1h"}, {3900, "1h05"}, {7200, "2h"}, {21600, "6h"},
	} {
		if got := text.Duration(c.seconds); got != c.want {
			t.Errorf("Duration(%d) = %q, want %q", c.seconds, got, c.want)
		}
	}
}
