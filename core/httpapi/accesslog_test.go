package httpapi

import (
	"log/slog"
	"net/http/httptest"
	"testing"
)

// Successful reads are logged at debug (cheap on the hot path); writes at
// info; client errors at warn; server errors at error.
func TestAccessLogLevels(t *testing.T) {
	cases := []struct {
		method, path string
		status       int
		want         slog.Level
	}{
		{"GET", "/api/points/balance", 200, slog.LevelDebug},
		{"HEAD", "/api/content/noticias", 200, slog.LevelDebug},
		{"GET", "/healthz", 200, slog.LevelDebug},
		{"POST", "/api/checkin", 201, slog.LevelInfo},
		{"DELETE", "/api/auth/sessions/x", 204, slog.LevelInfo},
		{"GET", "/api/profile", 401, slog.LevelWarn},
		{"POST", "/api/checkin", 409, slog.LevelWarn},
		{"GET", "/api/profile", 500, slog.LevelError},
	}
	for _, c := range cases {
		if got := accessLevel(httptest.NewRequest(c.method, c.path, nil), c.status); got != c.want {
			t.Errorf("%s %s %d: %v, want %v", c.method, c.path, c.status, got, c.want)
		}
	}
}
