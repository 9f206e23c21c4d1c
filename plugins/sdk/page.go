package sdk

import (
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// Page bounds for PageFrom.
const (
	DefaultPageLimit = 20
	MaxPageLimit     = 100
	maxCursorLength  = 200
)

// Page is a list request's ?limit= and ?cursor=. Cursor is opaque to the
// client: the plugin hands out Next cursors (an id, a timestamp and id) and
// reads them back here, checking them as any other input.
type Page struct {
	Limit  int
	Cursor string // "" for the first page
}

// PageFrom reads ?limit= (1 to MaxPageLimit, default DefaultPageLimit) and
// ?cursor= (at most 200 printable characters). On nonsense the problems
// name the parameter in pt-BR; Respond answers them with 422:
//
//	page, problems := sdk.PageFrom(r)
//	if problems.Respond(w) { return }
func PageFrom(r *http.Request) (Page, Problems) {
	q := r.URL.Query()
	p := Page{Limit: DefaultPageLimit}
	problems := Problems{}
	if vs, ok := q["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
		switch {
		case len(vs) > 1:
			problems["limit"] = "Informe o limite uma vez só."
		case err != nil:
			problems["limit"] = "O limite deve ser um número inteiro."
		case n < 1 || n > MaxPageLimit:
			problems["limit"] = "O limite deve estar entre 1 e " + strconv.Itoa(MaxPageLimit) + "."
		default:
			p.Limit = n
		}
	}
	if vs, ok := q["cursor"]; ok {
		c := vs[0]
		switch {
		case len(vs) > 1:
			problems["cursor"] = "Informe o cursor uma vez só."
		case len(c) > maxCursorLength || strings.IndexFunc(c, func(r rune) bool { return !unicode.IsPrint(r) || r == unicode.ReplacementChar }) >= 0:
			problems["cursor"] = "O cursor da página é inválido."
		default:
			p.Cursor = c
		}
	}
	if len(problems) > 0 {
		return Page{Limit: DefaultPageLimit}, problems
	}
	return p, nil
}

// PageResult is a page of a list as the web app reads it: the items and the
// cursor of the next page ("" on the last one).
type PageResult[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// PageOf is a page of items with the next page's cursor; items is never
// encoded as null.
func PageOf[T any](items []T, next string) PageResult[T] {
	if items == nil {
		items = []T{}
	}
	return PageResult[T]{Items: items, NextCursor: next}
}
