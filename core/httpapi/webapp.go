package httpapi

import (
	"context"
	"html"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// serveWebApp answers every path no route claimed: unknown /api paths get the
// JSON 404; /backoffice/… serves the react-admin build; anything else serves a
// file of the PWA build, or index.html so react-router handles client routes
// (its own not-found page answers unknown paths).
func serveWebApp(webDist, adminDist string, log *slog.Logger, meta ...pageMetaFunc) http.HandlerFunc {
	web := staticSite{dir: webDist, log: log}
	if len(meta) > 0 {
		web.meta = meta[0]
	}
	admin := staticSite{dir: adminDist, prefix: "/backoffice"}
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/"):
			httpx.WriteError(w, r, log, core.Errorf(core.ENOTFOUND, "Recurso não encontrado."))
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			httpx.WriteError(w, r, log, core.Errorf(core.ENOTFOUND, "Recurso não encontrado."))
		case r.URL.Path == "/backoffice":
			http.Redirect(w, r, "/backoffice/", http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, "/backoffice/"):
			admin.serve(w, r)
		default:
			web.serve(w, r)
		}
	}
}

// pageMetaFunc returns the link-preview title and description of the PWA
// page at a path, when it has its own (a published news item's page).
type pageMetaFunc func(ctx context.Context, urlPath string) (title, description string, ok bool, err error)

type staticSite struct {
	dir    string
	prefix string
	log    *slog.Logger
	// meta, when set, gives the app shell of some client routes their own
	// title and Open Graph tags: link previews (WhatsApp, Telegram, social
	// networks) read the HTML and never run the app.
	meta pageMetaFunc
}

func (s staticSite) serve(w http.ResponseWriter, r *http.Request) {
	rel := path.Clean("/" + strings.TrimPrefix(r.URL.Path, s.prefix))
	file := filepath.Join(s.dir, filepath.FromSlash(rel))
	if fi, err := os.Stat(file); err == nil && !fi.IsDir() {
		setCacheHeaders(w, rel)
		serveMaybeCompressed(w, r, file)
		return
	}
	// A missing asset is a real 404, not the app shell: a stale cached page
	// asking for an old chunk must fail loudly so the lazy-load retry reloads.
	if staticExt[strings.ToLower(path.Ext(rel))] && rel != "/index.html" {
		http.Error(w, "404 página não encontrada", http.StatusNotFound)
		return
	}
	index := filepath.Join(s.dir, "index.html")
	if _, err := os.Stat(index); err != nil {
		http.Error(w, "O aplicativo web ainda não foi compilado: rode `make run`.", http.StatusNotFound)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	if s.serveWithMeta(w, r, index, rel) {
		return
	}
	serveMaybeCompressed(w, r, index)
}

// serveWithMeta writes the app shell with the page's own title, description
// and Open Graph tags when the page has them; false leaves the plain shell.
func (s staticSite) serveWithMeta(w http.ResponseWriter, r *http.Request, index, rel string) bool {
	if s.meta == nil {
		return false
	}
	title, description, ok, err := s.meta(r.Context(), rel)
	if err != nil && s.log != nil {
		s.log.WarnContext(r.Context(), "page meta", "path", rel, "err", err)
	}
	if !ok || title == "" {
		return false
	}
	shell, err := os.ReadFile(index)
	if err != nil {
		return false
	}
	page := withPageMeta(string(shell), title, description)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Add("Vary", "Accept-Encoding")
	if r.Method == http.MethodHead {
		return true
	}
	_, _ = io.WriteString(w, page)
	return true
}

// withPageMeta puts a page's title and description into the shell: its
// <title>, its meta description and the og:/twitter: tags link previews read.
// Both are escaped: they are an editor's text.
func withPageMeta(shell, title, description string) string {
	t, d := html.EscapeString(title), html.EscapeString(description)
	if start := strings.Index(shell, "<title>"); start >= 0 {
		if end := strings.Index(shell[start:], "</title>"); end >= 0 {
			shell = shell[:start] + "<title>" + t + " · VetClube</title>" + shell[start+end+len("</title>"):]
		}
	}
	if d != "" {
		if start := strings.Index(shell, `<meta name="description"`); start >= 0 {
			if end := strings.Index(shell[start:], ">"); end >= 0 {
				shell = shell[:start] + `<meta name="description" content="` + d + `" />` + shell[start+end+1:]
			}
		}
	}
	tags := `<meta property="og:type" content="article" />` +
		`<meta property="og:site_name" content="VetClube" />` +
		`<meta property="og:title" content="` + t + `" />` +
		`<meta name="twitter:card" content="summary" />` +
		`<meta name="twitter:title" content="` + t + `" />`
	if d != "" {
		tags += `<meta property="og:description" content="` + d + `" />` +
			`<meta name="twitter:description" content="` + d + `" />`
	}
	if i := strings.Index(shell, "</head>"); i >= 0 {
		return shell[:i] + tags + shell[i:]
	}
	return tags + shell
}

// staticExt are the file types the builds produce: a missing one is a 404.
// Other paths with a dot (a signed preview token, an item slug) are client
// routes.
var staticExt = map[string]bool{
	".js": true, ".mjs": true, ".css": true, ".map": true, ".json": true, ".webmanifest": true, ".txt": true,
	".html": true, ".png": true, ".jpg": true, ".jpeg": true, ".webp": true, ".gif": true, ".svg": true, ".ico": true,
	".woff": true, ".woff2": true, ".wasm": true, ".br": true, ".gz": true, ".mp3": true, ".wav": true, ".ogg": true,
}

// precompressed lists the encodings the web build writes next to each text
// asset (web/scripts/compress.mjs), best first.
var precompressed = []struct{ encoding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveMaybeCompressed serves file.br or file.gz when the client accepts it and
// the build produced it, so the app shell travels compressed without spending
// CPU per request; otherwise the file itself.
func serveMaybeCompressed(w http.ResponseWriter, r *http.Request, file string) {
	w.Header().Add("Vary", "Accept-Encoding")
	// Set before ServeFile, which keeps a Content-Type already set; the
	// compressed variants need it as their own extension says nothing.
	if ctype := contentType(file); ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	accept := r.Header.Get("Accept-Encoding")
	for _, c := range precompressed {
		if !acceptsEncoding(accept, c.encoding) {
			continue
		}
		if fi, err := os.Stat(file + c.suffix); err == nil && !fi.IsDir() {
			w.Header().Set("Content-Encoding", c.encoding)
			http.ServeFile(w, r, file+c.suffix)
			return
		}
	}
	http.ServeFile(w, r, file)
}

// webTypes are the media types of PWA files that Go's table (and many
// systems' /etc/mime.types) lacks or gets wrong: browsers ignore a web
// manifest served as text/plain, so the app would not install.
var webTypes = map[string]string{
	".webmanifest": "application/manifest+json",
}

// contentType is the media type a web build file is served with.
func contentType(file string) string {
	ext := strings.ToLower(filepath.Ext(file))
	if t, ok := webTypes[ext]; ok {
		return t
	}
	if path.Base(filepath.ToSlash(file)) == "manifest.json" {
		return "application/manifest+json"
	}
	return mime.TypeByExtension(ext)
}

// acceptsEncoding reports whether an Accept-Encoding header allows enc (q=0 refuses it).
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// setCacheHeaders: Vite's hashed assets never change; everything else (the
// app shell, the service worker, the manifest) must be revalidated.
func setCacheHeaders(w http.ResponseWriter, rel string) {
	if strings.HasPrefix(rel, "/assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
}
