package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

func TestHealthAndReadiness(t *testing.T) {
	srv := apptest.Start(t, nil)
	c := srv.Client(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if res := c.Do("GET", path, nil); res.Status != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, res.Status, res.Body)
		}
	}
}

func TestSecurityHeadersAndErrorShape(t *testing.T) {
	srv := apptest.Start(t, nil)
	res := srv.Client(t).Do("GET", "/api/does-not-exist", nil)
	if res.Status != http.StatusNotFound {
		t.Fatalf("status %d, want 404", res.Status)
	}
	if got := res.ErrorMessage(); got != "Recurso não encontrado." {
		t.Errorf("message %q", got)
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"frame-ancestors 'none'", "default-src 'self'", "script-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("missing nosniff")
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Error("missing request id")
	}
	if res.Header.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS must not be sent over plain http")
	}
	req, _ := http.NewRequest("GET", srv.URL+"/healthz", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	if res := srv.Client(t).Send(req); res.Header.Get("Strict-Transport-Security") == "" {
		t.Error("HSTS missing behind https")
	}
}

// An instance that starts stopping is not ready any more (load balancers
// send it nothing new) but still alive.
func TestReadinessTurnsFalseWhenStopping(t *testing.T) {
	srv := apptest.Start(t, nil)
	c := srv.Client(t)
	srv.App.Draining.Store(true)
	if res := c.Do("GET", "/readyz", nil); res.Status != http.StatusServiceUnavailable {
		t.Errorf("GET /readyz while stopping: %d %s", res.Status, res.Body)
	}
	if res := c.Do("GET", "/livez", nil); res.Status != http.StatusOK {
		t.Errorf("GET /livez while stopping: %d %s", res.Status, res.Body)
	}
}
