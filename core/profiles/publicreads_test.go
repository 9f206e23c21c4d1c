package profiles_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/profiles"
)

// TestPublicReadsAreRateLimited: one visitor address, or one member, reads
// at most PublicReads public profiles per window and then gets 429 with the
// pt-BR reason; another address and a member behind the same address keep
// their own budgets.
func TestPublicReadsAreRateLimited(t *testing.T) {
	f := newFixture(t)
	f.svc.PublicReads.Max = 2
	ana := f.newUser(t, "ana@example.com", map[string]any{"first_name": "Ana"})
	bia := f.newUser(t, "bia@example.com", map[string]any{"first_name": "Bia"})

	r := chi.NewRouter()
	r.Method("GET", "/api/profiles/{id}", profiles.HandlePublic(slog.New(slog.NewTextHandler(io.Discard, nil)), f.svc))
	get := func(addr, reader string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/profiles/"+ana, nil)
		req.RemoteAddr = addr
		if reader != "" {
			req = req.WithContext(core.WithPrincipal(req.Context(), core.Principal{UserID: reader}))
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		return rec
	}
	for i := range 2 {
		if rec := get("203.0.113.7:5000", ""); rec.Code != http.StatusOK {
			t.Fatalf("visitor read %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := get("203.0.113.7:5001", "")
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("third visitor read from one address: %d %s", rec.Code, rec.Body)
	}
	var body struct {
		Error struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error.Message != profiles.MsgTooManyProfileReads {
		t.Fatalf("429 body %s (%v)", rec.Body, err)
	}
	if rec := get("198.51.100.9:5000", ""); rec.Code != http.StatusOK {
		t.Fatalf("another address: %d", rec.Code)
	}
	if rec := get("203.0.113.7:5002", bia); rec.Code != http.StatusOK {
		t.Fatalf("a member behind the same address: %d", rec.Code)
	}
}
