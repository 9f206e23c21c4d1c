// Package offlinetest proves that a form tool's offline build (package
// offline, GOOS=js GOARCH=wasm) answers byte for byte what its server
// handler answers: every worked example runs through the real handler and
// through the WebAssembly build under Node, and the two answers must match.
package offlinetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Example is one worked example: a route of the tool and its JSON body.
type Example struct {
	Route string
	Body  string
}

// Answer is what a route answered.
type Answer struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// Server is the answer of h, the handler the server runs.
func Server(h http.Handler, ex Example) Answer {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/"+strings.TrimPrefix(ex.Route, "/"), strings.NewReader(ex.Body))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	return Answer{Status: rec.Code, Body: rec.Body.String()}
}

// runner loads wasm_exec.js and the tool's wasm in Node, then answers every
// example of the input file, in order, as a JSON array.
const runner = `
const fs = require("fs");
const [wasmExec, wasmFile, id, inputFile] = process.argv.slice(2);
globalThis.require = require;
globalThis.fs = fs;
globalThis.path = require("path");
if (!globalThis.crypto) globalThis.crypto = require("crypto").webcrypto;
require(wasmExec);
(async () => {
  const go = new Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject);
  go.run(instance);
  const fn = globalThis.vetclubeOffline && globalThis.vetclubeOffline[id];
  if (typeof fn !== "function") { console.error("vetclubeOffline." + id + " is not registered"); process.exit(2); }
  const out = JSON.parse(fs.readFileSync(inputFile, "utf8")).map((ex) => {
    const r = fn(ex.Route, ex.Body);
    return { status: r.status, body: r.body };
  });
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
`

// WasmExec is Go's JavaScript support file for GOOS=js (lib/wasm since Go
// 1.24, misc/wasm before).
func WasmExec() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", err
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// Compare builds the plugin in the current directory for GOOS=js
// GOARCH=wasm, runs every example under Node with id's offline function and
// fails the test where an answer differs from h's. It skips only when Node
// is missing.
func Compare(t *testing.T, id string, h http.Handler, examples []Example) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the offline build cannot be run")
	}
	wasmExec, err := WasmExec()
	if err != nil {
		t.Fatalf("wasm_exec.js not found in GOROOT: %v", err)
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, id+".offline.wasm")
	build := exec.Command("go", "build", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
	input, _ := json.Marshal(examples)
	inputFile, runnerFile := filepath.Join(dir, "examples.json"), filepath.Join(dir, "run.cjs")
	if err := os.WriteFile(inputFile, input, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runnerFile, []byte(runner), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(node, runnerFile, wasmExec, wasm, id, inputFile)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var offline []Answer
	if err := json.Unmarshal(stdout.Bytes(), &offline); err != nil {
		t.Fatalf("node answered %q: %v", stdout.String(), err)
	}
	if len(offline) != len(examples) {
		t.Fatalf("node answered %d examples of %d", len(offline), len(examples))
	}
	for i, ex := range examples {
		server := Server(h, ex)
		if offline[i] != server {
			t.Errorf("%s %s:\n server  %d %s\n offline %d %s", ex.Route, ex.Body, server.Status, server.Body, offline[i].Status, offline[i].Body)
		}
	}
}
