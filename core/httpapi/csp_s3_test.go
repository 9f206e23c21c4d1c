package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/storage/s3fake"
)

// cspDirective returns one directive of a Content-Security-Policy.
func cspDirective(csp, name string) string {
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

// With files on S3 the pages may load images, posters, playlists and
// segments (hls.js fetches these with XHR) from S3_PUBLIC_URL's origin;
// without S3 they stay on this origin.
func TestCSPAllowsTheS3FilesOrigin(t *testing.T) {
	fake := s3fake.Start(t, "publico", "privado")
	env := fake.Env("publico", "privado")
	env["S3_PUBLIC_URL"] = fake.URL + "/publico/"
	srv := apptest.Start(t, env)
	res := srv.Client(t).Do("GET", "/healthz", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("healthz %d", res.Status)
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, d := range []string{"img-src", "media-src", "connect-src"} {
		if got := cspDirective(csp, d); !strings.HasSuffix(got, " "+fake.URL) {
			t.Errorf("%s: %q, want it to allow %s", d, got, fake.URL)
		}
	}
	for _, d := range []string{"script-src", "default-src", "frame-src"} {
		if strings.Contains(cspDirective(csp, d), fake.URL) {
			t.Errorf("%s allows the files origin: %q", d, cspDirective(csp, d))
		}
	}

	local := apptest.Start(t, nil).Client(t).Do("GET", "/healthz", nil)
	if got := cspDirective(local.Header.Get("Content-Security-Policy"), "connect-src"); got != "connect-src 'self'" {
		t.Errorf("without S3: %q", got)
	}
}
