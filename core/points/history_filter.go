package points

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HistoryGroups are the ledger's kinds as /pontos groups them (its
// filter): the balance's parts.
var HistoryGroups = map[string][]Kind{
	"desafios": {KindChallenge},
	"cursos":   {KindCourse},
	"posts":    {KindPost},
	"checkin":  {KindCheckin, KindCheckinBonus},
	"outros":   {KindReferral, KindReferralReversal, KindPlugin},
	"gastos":   {KindRedemption, KindRedemptionRefund},
}

// HistoryPeriods are the periods the history may be limited to.
var HistoryPeriods = map[string]time.Duration{
	"7d":   7 * 24 * time.Hour,
	"30d":  30 * 24 * time.Hour,
	"90d":  90 * 24 * time.Hour,
	"365d": 365 * 24 * time.Hour,
}

// FilteredHistory is History limited to some kinds (none = all) and to
// entries made since since (zero = any time).
func (l *Ledger) FilteredHistory(ctx context.Context, userID string, kinds []Kind, since time.Time, cursor int64, limit int) (Page, error) {
	if len(kinds) == 0 && since.IsZero() {
		return l.History(ctx, userID, cursor, limit)
	}
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	if cursor <= 0 {
		cursor = 1<<63 - 1
	}
	ks := make([]string, len(kinds))
	for i, k := range kinds {
		ks[i] = string(k)
	}
	rows, err := l.pool.Query(ctx, `SELECT id, user_id, amount, kind, idempotency_key, metadata, created_at
		FROM points_ledger WHERE user_id = $1 AND id < $2
		  AND (cardinality($4::text[]) = 0 OR kind = ANY($4))
		  AND ($5::timestamptz IS NULL OR created_at >= $5)
		ORDER BY id DESC LIMIT $3`, userID, cursor, limit+1, ks, nullTime(since))
	if err != nil {
		return Page{}, fmt.Errorf("read filtered history: %w", err)
	}
	entries, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := row.Scan(&e.ID, &e.UserID, &e.Amount, &e.Kind, &e.IdempotencyKey, &e.Metadata, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return Page{}, fmt.Errorf("read filtered history: %w", err)
	}
	p := Page{Entries: entries}
	if len(entries) > limit {
		p.Entries = entries[:limit]
		p.NextCursor = entries[limit-1].ID
	}
	return p, nil
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// HandleFilteredHistory serves GET /api/points/history?cursor=&limit=&kind=&period=:
// the caller's ledger, newest first, optionally one group of kinds
// (desafios, cursos, posts, checkin, outros, gastos) and a period (7d, 30d,
// 90d, 365d); next_cursor fetches the following page.
func HandleFilteredHistory(log *slog.Logger, l *Ledger) http.Handler {
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
		var kinds []Kind
		if v := q.Get("kind"); v != "" {
			g, ok := HistoryGroups[v]
			if !ok {
				return core.Invalid("Filtro de tipo inválido.", map[string]string{"kind": "Use desafios, cursos, posts, checkin, outros ou gastos."})
			}
			kinds = g
		}
		var since time.Time
		if v := q.Get("period"); v != "" {
			d, ok := HistoryPeriods[v]
			if !ok {
				return core.Invalid("Filtro de período inválido.", map[string]string{"period": "Use 7d, 30d, 90d ou 365d."})
			}
			since = time.Now().Add(-d)
		}
		page, err := l.FilteredHistory(r.Context(), core.PrincipalFrom(r.Context()).UserID, kinds, since, cursor, limit)
		if err != nil {
			return err
		}
		if page.Entries == nil {
			page.Entries = []Entry{}
		}
		return httpx.Encode(w, http.StatusOK, page)
	})
}
