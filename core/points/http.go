package points

import (
	"log/slog"
	"net/http"
	"strconv"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HandleBalance serves GET /api/points/balance: the caller's total and breakdown.
func HandleBalance(log *slog.Logger, l *Ledger) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		b, err := l.Balance(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, b)
	})
}

// HandleHistory serves GET /api/points/history?cursor=&limit=: the caller's
// ledger, newest first; next_cursor fetches the following page.
func HandleHistory(log *slog.Logger, l *Ledger) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		q := r.URL.Query()
		var cursor int64
		limit := 20
		var err error
		if v := q.Get("cursor"); v != "" {
			if cursor, err = strconv.ParseInt(v, 10, 64); err != nil || cursor < 0 {
				return core.Invalid("Parâmetro de paginação inválido.", map[string]string{"cursor": "Deve ser um número."})
			}
		}
		if v := q.Get("limit"); v != "" {
			if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
				return core.Invalid("Parâmetro de paginação inválido.", map[string]string{"limit": "Deve estar entre 1 e 100."})
			}
		}
		page, err := l.History(r.Context(), core.PrincipalFrom(r.Context()).UserID, cursor, limit)
		if err != nil {
			return err
		}
		if page.Entries == nil {
			page.Entries = []Entry{}
		}
		return httpx.Encode(w, http.StatusOK, page)
	})
}
