package httpx

import (
	"reflect"
	"strings"
	"unicode/utf8"
)

// Messages for text the API refuses wherever it arrives (JSON bodies, query
// strings, paths). PostgreSQL cannot store NUL in text, and control
// characters in names or searches are never typed by a person: they come
// from attacks or broken clients and would otherwise surface as a 500.
const (
	MsgInvalidUTF8   = "O texto contém bytes que não são UTF-8 válido."
	MsgControlChars  = "O texto contém caracteres de controle não permitidos."
	msgInvalidFields = "Dados inválidos."
)

// TextProblem returns the pt-BR reason s may not be accepted as text, or ""
// when it may. The rule every string in a request follows: valid UTF-8 and
// no control character (C0, DEL, C1) except tab, line feed and carriage
// return, which multi-line texts such as a biography need. Fields that must
// be one line refuse those three in their own validation.
func TextProblem(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if isControl(rune(c)) {
				return MsgControlChars
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return MsgInvalidUTF8
		}
		if isControl(r) {
			return MsgControlChars
		}
		i += size
	}
	return ""
}

// URLTextProblem is TextProblem for parts of a URL (a query value, a path
// segment), which are single-line: tab, line feed and carriage return are
// refused too.
func URLTextProblem(s string) string {
	if strings.ContainsAny(s, "\t\n\r") {
		return MsgControlChars
	}
	return TextProblem(s)
}

func isControl(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	}
	return false
}

// badText walks a decoded request value and returns the JSON name of the
// first field holding text TextProblem refuses (dotted for nested objects),
// with the reason. Byte slices (base64 in JSON, json.RawMessage) are not
// text and are checked on the raw body instead.
func badText(v reflect.Value, path string) (field, reason string) {
	switch v.Kind() {
	case reflect.String:
		if p := TextProblem(v.String()); p != "" {
			return path, p
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return badText(v.Elem(), path)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			sub := path
			if !(sf.Anonymous && name == "") {
				if name == "" {
					name = sf.Name
				}
				sub = join(path, name)
			}
			if f, p := badText(v.Field(i), sub); p != "" {
				return f, p
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", ""
		}
		for i := range v.Len() {
			if f, p := badText(v.Index(i), path); p != "" {
				return f, p
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			if k.Kind() == reflect.String {
				if p := TextProblem(k.String()); p != "" {
					return path, p
				}
				if f, p := badText(iter.Value(), join(path, k.String())); p != "" {
					return f, p
				}
				continue
			}
			if f, p := badText(iter.Value(), path); p != "" {
				return f, p
			}
		}
	}
	return "", ""
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// rawJSONTextProblem scans a syntactically valid JSON document for escapes
// that decode to refused control characters (\u0000, \b, \f, …). It is the
// backstop for text the typed walk cannot see, such as json.RawMessage
// fields passed on unparsed. Every backslash in valid JSON starts an escape
// inside a string, so a linear scan is exact.
func rawJSONTextProblem(b []byte) string {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		i++
		switch b[i] {
		case 'b', 'f':
			return MsgControlChars
		case 'u':
			if i+4 < len(b) {
				var r rune
				for _, h := range b[i+1 : i+5] {
					r <<= 4
					switch {
					case h >= '0' && h <= '9':
						r |= rune(h - '0')
					case h >= 'a' && h <= 'f':
						r |= rune(h-'a') + 10
					case h >= 'A' && h <= 'F':
						r |= rune(h-'A') + 10
					}
				}
				if isControl(r) {
					return MsgControlChars
				}
				i += 4
			}
		}
	}
	return ""
}
