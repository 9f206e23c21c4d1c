// Package text holds the small rules for text that people type and others
// read: names and public text fields. It has no dependencies so that every
// domain package (auth, profiles, plugins' hosts) applies the same rule.
package text

import (
	"regexp"
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

// linkInName finds what makes a name a vehicle for a link or markup: a
// scheme, "www.", an address (name@host), a host name with a common
// top-level domain, or markup characters. Names land in e-mails and pages
// other people read; a real name has none of these.
var linkInName = regexp.MustCompile(`(?i)(://|www\.|[<>{}\[\]@\\/]|[\p{L}\d-]\.(com|net|org|br|io|info|biz|xyz|me|co|app|dev|online|site|top|ru|cn|link|ly|gg|tk|club|shop|store|vip|live|pro)\b)`)

// HasLinkOrMarkup reports whether a name carries a link, an address or
// markup (linkInName).
func HasLinkOrMarkup(name string) bool { return linkInName.MatchString(name) }
