// Package text holds the small rules for text that people type and others
// read: names and public text fields. It has no dependencies so that every
// domain package (auth, profiles, plugins' hosts) applies the same rule.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripFormat removes Unicode format characters (general category Cf): zero
// width spaces and joiners, bidirectional overrides and isolates (U+202A–202E,
// U+2066–2069), soft hyphens, BOMs. They are invisible, so a text made of them
// looks empty, and the bidirectional ones can reverse how the text around them
// is displayed to other people. Invalid UTF-8 bytes are dropped as well.
func StripFormat(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			continue
		}
		if unicode.Is(unicode.Cf, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isPlain reports whether s is ASCII without control characters, the common
// case, which needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// CleanName returns a person's name as it should be stored and shown: format
// characters removed, every run of white space (including control characters
// such as tabs, newlines and NUL) turned into one space, and the ends trimmed.
// ok is false when what remains has no letter at all, so a name of only
// invisible characters, punctuation or digits is refused by the caller with its
// own message ("Informe seu nome.").
func CleanName(s string) (name string, ok bool) {
	s = StripFormat(s)
	var b strings.Builder
	b.Grow(len(s))
	space, letter := false, false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if unicode.IsLetter(r) {
			letter = true
		}
		b.WriteRune(r)
	}
	return b.String(), letter
}
