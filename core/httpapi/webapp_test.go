package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWebAppServesPrecompressedAssets(t *testing.T) {
	dist := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		path := filepath.Join(dist, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<html>shell</html>")
	write("index.html.gz", "gzipped-shell")
	write("assets/app-abc.js", "plain-js")
	write("assets/app-abc.js.br", "brotli-js")
	write("assets/app-abc.js.gz", "gzip-js")
	write("manifest.webmanifest", `{"name":"VetClube"}`)
	write("manifest.webmanifest.gz", "gzip-manifest")
	h := serveWebApp(dist, t.TempDir(), slog.New(slog.DiscardHandler))

	cases := []struct {
		name, path, accept          string
		wantBody, wantEnc, wantType string
		wantCache                   string
	}{
		{"brotli preferred", "/assets/app-abc.js", "gzip, deflate, br", "brotli-js", "br", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"gzip only", "/assets/app-abc.js", "gzip", "gzip-js", "gzip", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"br refused with q=0", "/assets/app-abc.js", "br;q=0, gzip", "gzip-js", "gzip", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"no encoding accepted", "/assets/app-abc.js", "", "plain-js", "", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"client route falls back to the gzipped shell", "/cursos/42", "gzip", "gzipped-shell", "gzip", "text/html; charset=utf-8", "no-cache"},
		// Browsers ignore a manifest served as text/plain: the PWA would not install.
		{"web manifest", "/manifest.webmanifest", "", `{"name":"VetClube"}`, "", "application/manifest+json", "no-cache"},
		{"gzipped web manifest", "/manifest.webmanifest", "gzip", "gzip-manifest", "gzip", "application/manifest+json", "no-cache"},
		{"shell without a brotli file", "/", "br", "<html>shell</html>", "", "text/html; charset=utf-8", "no-cache"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h(rec, req)
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != http.StatusOK || string(body) != tc.wantBody {
				t.Fatalf("status %d body %q, want 200 %q", rec.Code, body, tc.wantBody)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tc.wantEnc {
				t.Errorf("Content-Encoding %q, want %q", got, tc.wantEnc)
			}
			if got := rec.Header().Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type %q, want %q", got, tc.wantType)
			}
			if got := rec.Header().Get("Cache-Control"); got != tc.wantCache {
				t.Errorf("Cache-Control %q, want %q", got, tc.wantCache)
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", got)
			}
		})
	}
}

// A missing build file is a real 404 (a stale page must notice), but a
// client route with a dot in it (a signed preview token) gets the app shell.
func TestWebAppTellsMissingAssetsFromDottedRoutes(t *testing.T) {
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte("<html>shell</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := serveWebApp(dist, t.TempDir(), slog.New(slog.DiscardHandler))
	for path, want := range map[string]int{
		"/assets/app-old.js":                     http.StatusNotFound,
		"/assets/style-old.CSS":                  http.StatusNotFound,
		"/icons/logo.png":                        http.StatusNotFound,
		"/pre-visualizacao/eyJpZCI6IngifQ.c2ln":  http.StatusOK,
		"/noticias-veterinarias/versao-2.0-nova": http.StatusOK,
	} {
		rec := httptest.NewRecorder()
		h(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("%s: %d, want %d", path, rec.Code, want)
		}
	}
}

// TestWebAppGivesContentPagesTheirLinkPreview: a published item's page is
// served with its own title, description and Open Graph tags (escaped, as
// they are an editor's text); other client routes get the plain shell.
func TestWebAppGivesContentPagesTheirLinkPreview(t *testing.T) {
	dist := t.TempDir()
	shell := `<html><head><title>VetClube — app</title><meta name="description" content="App." /></head><body></body></html>`
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte(shell), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "index.html.gz"), []byte("gzipped-shell"), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := func(_ context.Context, p string) (string, string, bool, error) {
		if p == "/noticias-veterinarias/vacina-antirrabica" {
			return `Vacina "antirrábica" <já>`, "Campanha & calendário 2026", true, nil
		}
		if p == "/noticias-veterinarias/quebrada" {
			return "", "", false, errors.New("database down")
		}
		return "", "", false, nil
	}
	h := serveWebApp(dist, t.TempDir(), slog.New(slog.DiscardHandler), meta)

	get := func(path string) (int, string, http.Header) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h(rec, req)
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body), rec.Header()
	}
	code, body, hdr := get("/noticias-veterinarias/vacina-antirrabica")
	if code != http.StatusOK || hdr.Get("Content-Type") != "text/html; charset=utf-8" || hdr.Get("Cache-Control") != "no-cache" {
		t.Fatalf("status %d headers %v", code, hdr)
	}
	for _, want := range []string{
		`<title>Vacina &#34;antirrábica&#34; &lt;já&gt; · VetClube</title>`,
		`<meta name="description" content="Campanha &amp; calendário 2026" />`,
		`<meta property="og:title" content="Vacina &#34;antirrábica&#34; &lt;já&gt;" />`,
		`<meta property="og:description" content="Campanha &amp; calendário 2026" />`,
		`<meta property="og:type" content="article" />`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "VetClube — app") || strings.Count(body, "<title>") != 1 {
		t.Errorf("the shell's own title stayed:\n%s", body)
	}
	if i, j := strings.Index(body, "og:title"), strings.Index(body, "</head>"); i < 0 || i > j {
		t.Errorf("the tags are not in <head>:\n%s", body)
	}
	// Any other route, an unknown item or a failing lookup: the plain shell.
	for _, p := range []string{"/cursos/42", "/noticias-veterinarias/nao-existe", "/noticias-veterinarias/quebrada"} {
		if code, body, _ := get(p); code != http.StatusOK || body != "gzipped-shell" {
			t.Errorf("%s: %d %q, want the plain shell", p, code, body)
		}
	}
}
