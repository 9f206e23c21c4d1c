package pluginhost

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/httpx"
)

// A form tool may ship an offline build beside its executable: `make
// plugins` compiles plugins/<id>/offline_js.go (GOOS=js GOARCH=wasm) into
// <id>.offline.wasm and copies Go's wasm_exec.js once into the plugin
// directory. The web app loads them to compute without a network, with the
// same handler code the plugin runs here; online the server stays the
// authority. Names with a dot are never loaded as plugins (Manager.scan).
const (
	offlineSuffix   = ".offline.wasm"
	wasmExecFile    = "wasm_exec.js"
	msgNoOffline    = "Esta ferramenta não funciona sem conexão."
	offlineCaching  = "private, no-cache" // revalidated with Last-Modified; the service worker keeps a copy
	contentTypeWasm = "application/wasm"
)

// HandleOfflineWasm serves GET /api/tools/{id}/offline.wasm: the tool's
// offline build, to users who may use the tool.
func HandleOfflineWasm(log *slog.Logger, m *Manager, az *authz.Authorizer) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		pl, ok := m.plugin(chi.URLParam(r, "id"))
		if !ok {
			return core.Errorf(core.ENOTFOUND, msgNotFound)
		}
		man, _, _ := pl.info()
		if !az.Allowed(core.PrincipalFrom(r.Context()).Roles, capability(man.Access), "use") {
			return core.Errorf(core.EFORBIDDEN, msgPremiumOnly)
		}
		// The id is a loaded plugin's, so it is a valid file name.
		return serveOfflineFile(w, r, filepath.Join(m.opts.Dir, man.Id+offlineSuffix), contentTypeWasm)
	})
}

// HandleWasmExec serves GET /api/tools/offline/wasm_exec.js, Go's loader
// that every offline build needs.
func HandleWasmExec(log *slog.Logger, m *Manager) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		return serveOfflineFile(w, r, filepath.Join(m.opts.Dir, wasmExecFile), "text/javascript; charset=utf-8")
	})
}

// serveOfflineFile sends path, or its gzip copy (`make plugins` writes
// <file>.gz beside each offline build, a quarter of its size) to a client
// that accepts gzip: the build is megabytes, and it is fetched on phones.
func serveOfflineFile(w http.ResponseWriter, r *http.Request, path, contentType string) error {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return core.Errorf(core.ENOTFOUND, msgNoOffline)
	}
	send := path
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		// Only a copy at least as new as the build: a stale one never stands in.
		if gz, err := os.Stat(path + ".gz"); err == nil && !gz.IsDir() && !gz.ModTime().Before(st.ModTime()) {
			send = path + ".gz"
			h.Set("Content-Encoding", "gzip")
		}
	}
	f, err := os.Open(send)
	if err != nil {
		return core.Errorf(core.ENOTFOUND, msgNoOffline)
	}
	defer f.Close()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", offlineCaching)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0" {
			return true
		}
	}
	return false
}
