package pluginhost

import (
	"fmt"
	"strings"
	"unicode"
)

// A plugin's SQL already runs on connections logged in as its own role
// (sandbox.go), which is the real boundary. These rules come on top, so
// that a plugin cannot change the session it shares with its own later
// calls, hold a transaction open across calls, or reach programs and files
// even if a privilege were ever granted by mistake; each refusal names the
// rule so a plugin author knows what to change.

// refusedFirstWords are statements a plugin may not run: session settings,
// transaction control (every call is its own transaction), notifications,
// COPY (server files and programs), role and cluster administration.
var refusedFirstWords = map[string]string{
	"set":        "SET changes session settings, which the host fixes",
	"reset":      "RESET changes session settings, which the host fixes",
	"discard":    "DISCARD is done by the host after every call",
	"begin":      "each call is its own transaction",
	"start":      "each call is its own transaction",
	"commit":     "each call is its own transaction",
	"end":        "each call is its own transaction",
	"rollback":   "each call is its own transaction",
	"abort":      "each call is its own transaction",
	"savepoint":  "each call is its own transaction",
	"release":    "each call is its own transaction",
	"prepare":    "each call is its own transaction",
	"listen":     "LISTEN/NOTIFY are not part of the host API",
	"unlisten":   "LISTEN/NOTIFY are not part of the host API",
	"notify":     "LISTEN/NOTIFY are not part of the host API",
	"copy":       "COPY reads and writes server files and programs",
	"load":       "LOAD loads server libraries",
	"checkpoint": "CHECKPOINT is cluster administration",
}

// refusedPairs are two-word statement openings refused for the same reasons.
var refusedPairs = map[string]string{
	"alter system":      "cluster administration",
	"alter role":        "roles are managed by the host",
	"alter user":        "roles are managed by the host",
	"alter group":       "roles are managed by the host",
	"create role":       "roles are managed by the host",
	"create user":       "roles are managed by the host",
	"create group":      "roles are managed by the host",
	"drop role":         "roles are managed by the host",
	"drop user":         "roles are managed by the host",
	"create extension":  "extensions are installed by the core",
	"create database":   "databases are managed by the host",
	"alter database":    "databases are managed by the host",
	"create schema":     "a plugin has exactly one schema",
	"create tablespace": "cluster administration",
}

// refusedNames are functions no plugin may call anywhere in a statement.
var refusedNames = map[string]string{
	"set_config":           "session settings are fixed by the host",
	"pg_read_file":         "server files are out of reach",
	"pg_read_binary_file":  "server files are out of reach",
	"pg_ls_dir":            "server files are out of reach",
	"pg_stat_file":         "server files are out of reach",
	"lo_import":            "server files are out of reach",
	"lo_export":            "server files are out of reach",
	"dblink":               "connections to other databases are out of reach",
	"dblink_exec":          "connections to other databases are out of reach",
	"dblink_connect":       "connections to other databases are out of reach",
	"dblink_connect_u":     "connections to other databases are out of reach",
	"pg_terminate_backend": "other sessions are out of reach",
	// The core's live events travel on NOTIFY, and its advisory locks
	// serialise migrations and awards: a plugin must not speak on that
	// channel or hold those locks.
	"pg_notify":                    "LISTEN/NOTIFY are not part of the host API",
	"pg_advisory_lock":             "advisory locks are the core's",
	"pg_advisory_lock_shared":      "advisory locks are the core's",
	"pg_advisory_xact_lock":        "advisory locks are the core's",
	"pg_advisory_xact_lock_shared": "advisory locks are the core's",
	"pg_try_advisory_lock":         "advisory locks are the core's",
	"pg_try_advisory_xact_lock":    "advisory locks are the core's",
	"pg_cancel_backend":            "other sessions are out of reach",
}

// SQLRefusedError says why a plugin's statement was refused before it
// reached PostgreSQL.
type SQLRefusedError struct{ Reason string }

func (e *SQLRefusedError) Error() string { return "plugin SQL refused: " + e.Reason }

// checkCall checks the SQL of one SQLExec/SQLQuery call: exactly one
// statement, none of the refused ones.
func checkCall(sql string) error {
	stmts, err := splitStatements(sql)
	if err != nil {
		return err
	}
	if len(stmts) != 1 {
		return &SQLRefusedError{Reason: fmt.Sprintf("exactly one statement per call, got %d", len(stmts))}
	}
	return checkStatement(stmts[0])
}

// checkMigration splits a migration into statements and checks each.
func checkMigration(sql string) ([]string, error) {
	stmts, err := splitStatements(sql)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(stmts))
	for _, s := range stmts {
		if err := checkStatement(s); err != nil {
			return nil, err
		}
		out = append(out, s.text)
	}
	return out, nil
}

type statement struct {
	text  string
	words []string // lowercased keywords and identifiers, in order
}

func checkStatement(s statement) error {
	if len(s.words) == 0 {
		return &SQLRefusedError{Reason: "empty statement"}
	}
	first := s.words[0]
	if why, ok := refusedFirstWords[first]; ok {
		return &SQLRefusedError{Reason: strings.ToUpper(first) + " is not allowed (" + why + ")"}
	}
	if len(s.words) > 1 {
		pair := first + " " + s.words[1]
		if why, ok := refusedPairs[pair]; ok {
			return &SQLRefusedError{Reason: strings.ToUpper(pair) + " is not allowed (" + why + ")"}
		}
	}
	for _, w := range s.words {
		if why, ok := refusedNames[w]; ok {
			return &SQLRefusedError{Reason: w + " is not allowed (" + why + ")"}
		}
	}
	return nil
}

// splitStatements cuts sql at top-level semicolons, skipping comments,
// string literals (standard, E” and dollar-quoted) and quoted identifiers,
// and records each statement's words (quoted identifiers by their exact
// content, the rest lowercased) for checkStatement.
func splitStatements(sql string) ([]statement, error) {
	var out []statement
	var cur statement
	start := 0
	flush := func(end int) {
		cur.text = strings.TrimSpace(sql[start:end])
		if len(cur.words) > 0 || cur.text != "" {
			out = append(out, cur)
		}
		cur = statement{}
	}
	unterminated := func(what string) error {
		return &SQLRefusedError{Reason: "unterminated " + what}
	}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ';':
			flush(i)
			i++
			start = i
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			depth := 0
			for {
				if i+1 >= len(sql) {
					return nil, unterminated("comment")
				}
				if sql[i] == '/' && sql[i+1] == '*' {
					depth++
					i += 2
				} else if sql[i] == '*' && sql[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		case c == '\'':
			backslash := i > 0 && (sql[i-1] == 'e' || sql[i-1] == 'E') && (i < 2 || !isWordByte(sql[i-2]))
			i++
			for {
				if i >= len(sql) {
					return nil, unterminated("string")
				}
				if backslash && sql[i] == '\\' {
					i += 2
					continue
				}
				if sql[i] == '\'' {
					if i+1 < len(sql) && sql[i+1] == '\'' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
		case c == '"':
			j := i + 1
			var b strings.Builder
			for {
				if j >= len(sql) {
					return nil, unterminated("quoted identifier")
				}
				if sql[j] == '"' {
					if j+1 < len(sql) && sql[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(sql[j])
				j++
			}
			cur.words = append(cur.words, b.String())
			i = j + 1
		case c == '$' && (i == 0 || !isWordByte(sql[i-1])):
			// $tag$ ... $tag$ (a bare $1 parameter is not a quote).
			j := i + 1
			for j < len(sql) && isWordByte(sql[j]) && !(j == i+1 && sql[j] >= '0' && sql[j] <= '9') {
				j++
			}
			if j < len(sql) && sql[j] == '$' {
				tag := sql[i : j+1]
				end := strings.Index(sql[j+1:], tag)
				if end < 0 {
					return nil, unterminated("dollar-quoted string")
				}
				i = j + 1 + end + len(tag)
			} else {
				i = j
			}
		case isWordByte(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(sql) && (isWordByte(sql[j]) || sql[j] == '$') {
				j++
			}
			cur.words = append(cur.words, strings.ToLower(sql[i:j]))
			i = j
		default:
			i++
		}
	}
	flush(len(sql))
	// Drop pieces with no word at all: empty ones ("SELECT 1;" is one
	// statement) and comment-only ones; nothing in them could run.
	kept := out[:0]
	for _, s := range out {
		if len(s.words) > 0 {
			kept = append(kept, s)
		}
	}
	return kept, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}
