package pluginhost_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	// The gzip copy `make plugins` writes goes to a client that accepts it;
	// the others get the build itself.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(wasm)
	_ = zw.Close()
	gzPath := filepath.Join(dir, "fixture.offline.wasm.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(gzPath, later, later); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", c.URLFor("/api/tools/fixture/offline.wasm"), nil)
	req.Header.Set("Accept-Encoding", "br, gzip;q=0.8")
	res = c.Send(req)
	if res.Status != 200 || res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(res.Body, gz.Bytes()) || res.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("gzip offline build: %d %v", res.Status, res.Header)
	}
	req, _ = http.NewRequest("GET", c.URLFor("/api/tools/fixture/offline.wasm"), nil)
	req.Header.Set("Accept-Encoding", "gzip;q=0")
	if res = c.Send(req); res.Header.Get("Content-Encoding") != "" || string(res.Body) != string(wasm) {
		t.Errorf("gzip refused, still compressed: %v", res.Header)
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
