// Package offline runs a form tool's own HTTP handler inside the browser
// (GOOS=js GOARCH=wasm), so a calculator keeps working without a signal and
// answers exactly what the server answers: the same handler, the same form
// checks, the same pt-BR messages. The server stays the authority online;
// the web app calls this only when the network is unreachable.
//
// A plugin opts in with a file offline_js.go in its main package:
//
//	func main() { offline.Serve(Manifest.ID, Handler()) }
//
// and `make plugins` builds bin/plugins/<id>.offline.wasm from it.
package offline

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall/js"
)

// Serve registers globalThis.vetclubeOffline[id](route, body) and blocks.
// The function answers {status, body}: the HTTP status and the JSON text the
// route would answer at /api/tools/<id>/<route>.
func Serve(id string, h http.Handler) {
	reg := js.Global().Get("vetclubeOffline")
	if reg.IsUndefined() || reg.IsNull() {
		reg = js.Global().Get("Object").New()
		js.Global().Set("vetclubeOffline", reg)
	}
	reg.Set(id, js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return map[string]any{"status": http.StatusBadRequest, "body": ""}
		}
		status, body := Call(h, args[0].String(), args[1].String())
		return map[string]any{"status": status, "body": body}
	}))
	if ready := js.Global().Get("vetclubeOfflineReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(id)
	}
	select {}
}

// Call posts body to route on h in memory and returns the status and body.
func Call(h http.Handler, route, body string) (int, string) {
	req, err := http.NewRequest(http.MethodPost, "/"+strings.TrimPrefix(route, "/"), strings.NewReader(body))
	if err != nil {
		return http.StatusBadRequest, ""
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}
