package pluginhost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// A form tool's offline build and Go's loader are served read-only to the
// users who may use the tool, as application/wasm and revalidated.
func TestOfflineBuildIsServedToThoseWhoMayUseTheTool(t *testing.T) {
	dir := install(t, "fixture", "fixture-premium")
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	for name, b := range map[string][]byte{
		"fixture.offline.wasm":         wasm,
		"fixture-premium.offline.wasm": wasm,
		"wasm_exec.js":                 []byte("globalThis.Go = class {};\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": dir})
	if res := srv.Client(t).Do("GET", "/api/tools/fixture/offline.wasm", nil); res.Status != 401 {
		t.Errorf("visitor: %d %s", res.Status, res.Body)
	}
	c, _ := srv.SignedIn(t, "offline@exemplo.com.br")
	res := c.Do("GET", "/api/tools/fixture/offline.wasm", nil)
	if res.Status != 200 || string(res.Body) != string(wasm) || res.Header.Get("Content-Type") != "application/wasm" ||
		res.Header.Get("Cache-Control") != "private, no-cache" || res.Header.Get("Last-Modified") == "" {
		t.Errorf("offline build: %d %v %q", res.Status, res.Header, res.Body)
	}
	res = c.Do("GET", "/api/tools/offline/wasm_exec.js", nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || len(res.Body) == 0 {
		t.Errorf("wasm_exec.js: %d %v", res.Status, res.Header)
	}
	if res := c.Do("GET", "/api/tools/fixture-premium/offline.wasm", nil); res.Status != 403 {
		t.Errorf("premium offline build for a free user: %d", res.Status)
	}
	if res := c.Do("GET", "/api/tools/nao-existe/offline.wasm", nil); res.Status != 404 {
		t.Errorf("unknown tool: %d", res.Status)
	}
	if err := os.Remove(filepath.Join(dir, "fixture.offline.wasm")); err != nil {
		t.Fatal(err)
	}
	if res := c.Do("GET", "/api/tools/fixture/offline.wasm", nil); res.Status != 404 || res.ErrorMessage() != "Esta ferramenta não funciona sem conexão." {
		t.Errorf("tool without an offline build: %d %s", res.Status, res.Body)
	}
	// The tool's own routes still reach the plugin.
	if res := c.Do("GET", "/api/tools/fixture/echo", nil); res.Status != 200 {
		t.Errorf("tool route: %d %s", res.Status, res.Body)
	}
}
