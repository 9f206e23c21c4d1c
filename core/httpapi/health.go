package httpapi

import (
	"context"
	_ "embed"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/postgres"
)

// handleHealthz answers while the process is up.
func handleHealthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = httpx.Encode(w, http.StatusOK, map[string]string{"status": "ok"})
	})
}

// handleReadyz answers 200 once the database is reachable and fully
// migrated, and 503 from the moment the instance starts stopping (draining
// reports true), so load balancers send it nothing new.
func handleReadyz(pool *pgxpool.Pool, draining func() bool) http.Handler {
	var migrated atomic.Bool // migrations never un-apply while we run
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if draining != nil && draining() {
			_ = httpx.Encode(w, http.StatusServiceUnavailable, map[string]string{"status": "stopping"})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := pool.Ping(ctx); err != nil {
			_ = httpx.Encode(w, http.StatusServiceUnavailable, map[string]string{"status": "database unreachable"})
			return
		}
		if !migrated.Load() {
			pending, err := postgres.Pending(ctx, pool)
			if err != nil || pending {
				_ = httpx.Encode(w, http.StatusServiceUnavailable, map[string]string{"status": "migrations pending"})
				return
			}
			migrated.Store(true)
		}
		_ = httpx.Encode(w, http.StatusOK, map[string]string{"status": "ready"})
	})
}

//go:embed openapi.json
var openAPIDocument []byte

func handleOpenAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(openAPIDocument)
	})
}
