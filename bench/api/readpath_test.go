package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// BenchmarkReadPath runs the real server's handler in-process (no network,
// no load generator) for the hot signed-in reads, to show their per-request
// cost with -benchmem: every allocation here is garbage the collector pays
// for at the p99 under load.
//
//	go test -run '^$' -bench ReadPath -benchmem ./bench/api/
func BenchmarkReadPath(b *testing.B) {
	srv := apptest.Start(b, map[string]string{"LOG_LEVEL": "info"})
	_, userID := srv.SignedIn(b, "readpath@example.com")
	tokens, err := srv.App.Auth.StartVerifiedSession(context.Background(), userID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{"/api/points/balance", "/api/profile", "/api/auth/session"} {
		b.Run(path, func(b *testing.B) {
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("Authorization", "Bearer "+tokens.Access)
			rec := httptest.NewRecorder()
			srv.App.Handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rec := httptest.NewRecorder()
				srv.App.Handler.ServeHTTP(rec, req)
			}
		})
	}
}
