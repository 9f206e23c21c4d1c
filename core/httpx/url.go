package httpx

import (
	"log/slog"
	"net/http"
	"net/url"

	"github.com/vetclube/vetclube/core"
)

// CheckURL refuses, with a pt-BR 422, a request whose path or query string
// holds text no handler should see: invalid UTF-8, control characters
// (tab and line breaks included, a URL part is one line) or a query string
// that does not parse. Go's URL.Query silently drops malformed pairs, so
// without this a handler could act on a different query than the one sent.
func CheckURL(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := URLProblem(r.URL); err != nil {
				WriteError(w, r, log, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// URLProblem returns the error CheckURL answers for u, or nil.
func URLProblem(u *url.URL) error {
	if p := URLTextProblem(u.Path); p != "" {
		return core.Errorf(core.EINVALID, "Endereço inválido: %s", lowerFirst(p))
	}
	if u.RawQuery == "" {
		return nil
	}
	values, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return core.Errorf(core.EINVALID, "Parâmetros de consulta malformados.")
	}
	for key, vs := range values {
		if p := URLTextProblem(key); p != "" {
			return core.Errorf(core.EINVALID, "Parâmetros de consulta inválidos: %s", lowerFirst(p))
		}
		for _, v := range vs {
			if p := URLTextProblem(v); p != "" {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{key: p})
			}
		}
	}
	return nil
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
