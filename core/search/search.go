// Package search is the one place that turns what a reader types into a
// search box into SQL, so every list (courses, videos, news, events, and any
// later one) finds the same things the same way:
//
//   - partial words and no accents: each word is a prefix over the
//     accent-free Portuguese stems of the row's search vector ("dermato"
//     finds "Dermatologia", "vacina" finds "vacinação"), built by the
//     database function vetclube_prefix_tsquery (migrations/00160_search.sql);
//     every word must match;
//   - typos, as a fallback: when the words match nothing of that kind at
//     all, rows whose title is similar to them (pg_trgm word similarity ≥
//     0.6) are found instead ("dermatolgia" finds "Dermatologia"), for
//     searches of four characters or more. The fallback never mixes into
//     real matches, so a search narrows a list without reordering it.
//
// Only letters and digits of the input reach the database, and only as a
// bound parameter: quotes, tsquery operators (& | ! : * ( )) and the like
// separate words and never change a query's structure.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLength is the longest search a reader may send, in characters.
const MaxLength = 200

// MsgTooLong refuses a longer search.
const MsgTooLong = "A busca deve ter no máximo 200 caracteres."

// Word limits: a search of more words or longer words than any title holds
// only makes the query bigger.
const (
	maxWords   = 8
	maxWordLen = 40
	// minTypoLen is the shortest search (in characters of its words) also
	// matched by similarity: shorter ones share trigrams with too much.
	minTypoLen = 4
)

// Query is a parsed search.
type Query struct {
	words []string
	given bool
}

// Parse keeps the words of s: runs of letters and digits, lower-cased, at
// most eight of at most forty characters each.
func Parse(s string) Query {
	s = strings.TrimSpace(s)
	q := Query{given: s != ""}
	if n := MaxLength * 4; len(s) > n {
		s = s[:n]
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	}) {
		if !utf8.ValidString(w) {
			continue
		}
		if r := []rune(w); len(r) > maxWordLen {
			w = string(r[:maxWordLen])
		}
		q.words = append(q.words, strings.ToLower(w))
		if len(q.words) == maxWords {
			break
		}
	}
	return q
}

// TooLong says whether s is longer than MaxLength characters.
func TooLong(s string) bool {
	return utf8.RuneCountInString(strings.TrimSpace(s)) > MaxLength
}

// Given says whether the reader typed anything at all. A search made only
// of punctuation is given but has no words, and matches nothing.
func (q Query) Given() bool { return q.given }

// Words are the search's words joined by spaces.
func (q Query) Words() string { return strings.Join(q.words, " ") }

// Target is what a search runs over.
type Target struct {
	// Alias is the outer query's name for the table's rows ("p").
	Alias string
	// Table holds the rows ("content_published"); Vector and Title are its
	// tsvector and title columns.
	Table, Vector, Title string
	// Scope limits, in the table's unqualified columns, the rows that count
	// as "something of this kind matches the words" for the typo fallback
	// ("type = $1", "published"). It should not depend on the outer row.
	Scope string
}

// Match is the SQL of a search.
type Match struct {
	// Where is the condition a row must meet.
	Where string
	// Score is the row's relevance, higher first (for a "relevance" order).
	Score string
}

// SQL builds the search over t. arg binds a parameter and returns its
// placeholder. A query that was not given matches every row.
func (q Query) SQL(arg func(any) string, t Target) Match {
	if !q.given {
		return Match{Where: "true", Score: "0::float4"}
	}
	if len(q.words) == 0 {
		return Match{Where: "false", Score: "0::float4"}
	}
	p := arg(q.Words())
	tsq := "vetclube_prefix_tsquery(" + p + ")"
	folded := "vetclube_fold(" + p + ")"
	vector, title := t.Alias+"."+t.Vector, "vetclube_fold("+t.Alias+"."+t.Title+")"
	where := vector + " @@ " + tsq
	if utf8.RuneCountInString(strings.Join(q.words, "")) >= minTypoLen {
		scope := ""
		if t.Scope != "" {
			scope = " AND (" + t.Scope + ")"
		}
		// <% is word_similarity(folded, title) >= pg_trgm.word_similarity_threshold
		// (0.6), answered by the trigram index on vetclube_fold(title); the
		// NOT EXISTS does not depend on the row, so it runs once.
		where = "(" + where + " OR (" + folded + " <% " + title +
			" AND NOT EXISTS (SELECT 1 FROM " + t.Table + " WHERE " + t.Vector + " @@ " + tsq + scope + ")))"
	}
	score := "(coalesce(ts_rank(" + vector + ", " + tsq + ", 32), 0) + word_similarity(" + folded + ", " + title + "))"
	return Match{Where: where, Score: score}
}
