package pluginhost_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// binDir holds the fixture plugin binaries, built once by TestMain.
var binDir string

func TestMain(m *testing.M) {
	if dir := os.Getenv("PLUGINHOST_HELPER_DIR"); dir != "" {
		runHelperHost(dir, os.Getenv("PLUGINHOST_HELPER_DB"))
		return
	}
	// Like the core, the test process (the plugins' parent) is not dumpable.
	if err := confine.MarkNonDumpable(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// A child test run (the unprivileged namespace path) reuses the
	// parent's fixture binaries.
	if dir := os.Getenv("PLUGINHOST_FIXTURE_DIR"); dir != "" {
		binDir = dir
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "pluginhost-fixtures-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	variants := map[string][2]string{
		"fixture":         {"./internal/fixture", ""},
		"fixture-premium": {"./internal/fixture", "-X main.pluginID=fixture-premium -X main.access=premium"},
		"fixture-future":  {"./internal/fixture", "-X main.pluginID=fixture-future -X main.minCoreVersion=99.0.0"},
		// The hostile plugin (internal/hostile) and its variants: one whose
		// migration tries to leave its role, one claiming an id with an
		// underscore (it would share a schema with "hostile-under").
		"hostile":       {"./internal/hostile", ""},
		"hostile-evil":  {"./internal/hostile", "-X main.pluginID=hostile-evil -X main.evilMigration=1"},
		"hostile_under": {"./internal/hostile", "-X main.pluginID=hostile_under"},
		// A second hostile plugin: the first attacks its role and files.
		"hostile-peer": {"./internal/hostile", "-X main.pluginID=hostile-peer"},
		// The real news plugin, for the content hooks over gRPC.
		"noticias": {"../../plugins/noticias", ""},
		// The content fixture (internal/contentfixture) implements every
		// content hook; its clash variant declares a second type at a route
		// the tests take first, so it is refused after its first type was
		// registered. The hostile content variant answers hooks it never
		// announced.
		"fixture-content":       {"./internal/contentfixture", ""},
		"fixture-content-clash": {"./internal/contentfixture", "-X main.pluginID=fixture-content-clash -X main.clashRoute=/rota-ocupada"},
		"hostile-content":       {"./internal/hostile", "-X main.pluginID=hostile-content -X main.contentMode=1"},
	}
	for name, v := range variants {
		cmd := exec.Command("go", "build", "-ldflags", v[1], "-o", filepath.Join(dir, name), v[0])
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building fixture plugin:", err)
			os.Exit(1)
		}
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// install copies fixture binaries into a fresh plugin directory and records
// their checksums, as `make plugins` does.
func install(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		installAs(t, dir, name, name)
	}
	return dir
}

func installAs(t testing.TB, dir, fixture, as string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(binDir, fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, as)
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := pluginhost.RecordChecksum(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// syncBuffer collects log output written from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type harness struct {
	m    *pluginhost.Manager
	pool *pgxpool.Pool
	logs *syncBuffer
	az   *authz.Authorizer
	mux  http.Handler
}

func start(t testing.TB, dir string, opts pluginhost.Options) *harness {
	t.Helper()
	return startOn(t, pgtest.NewURL(t), dir, opts)
}

func startOn(t testing.TB, dbURL, dir string, opts pluginhost.Options) *harness {
	t.Helper()
	pool, err := postgres.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(logs), &slog.HandlerOptions{Level: slog.LevelInfo}))
	opts.Dir = dir
	if opts.Sandbox.Memory == 0 {
		opts.Sandbox.Memory = raceMemory
	}
	m := pluginhost.New(opts, pool, points.New(pool), log)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	// A failed test shows what the host logged (a refused plugin says why).
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("host log:\n%s", logs.String())
		}
	})
	az, err := authz.New()
	if err != nil {
		t.Fatal(err)
	}
	r := chi.NewRouter()
	r.Handle("/api/tools/{id}/*", pluginhost.HandleCall(log, m, az))
	r.Handle("/api/tools", pluginhost.HandleList(log, m, az))
	r.Handle("/api/dashboard/cards", pluginhost.HandleCards(log, m))
	return &harness{m: m, pool: pool, logs: logs, az: az, mux: r}
}

func (h *harness) newUser(t testing.TB, roles ...string) core.Principal {
	t.Helper()
	var id string
	email := fmt.Sprintf("u%d@exemplo.com.br", time.Now().UnixNano())
	if err := h.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return core.Principal{UserID: id, Email: email, Roles: append([]string{core.RoleUser}, roles...)}
}

type result struct {
	Status int
	Body   []byte
}

func (r result) message() string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Message
}

func (r result) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %q: %v", r.Body, err)
	}
}

func (h *harness) call(p core.Principal, method, path string, body any) result {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(core.WithPrincipal(req.Context(), p))
	rec := httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	return result{Status: rec.Code, Body: rec.Body.Bytes()}
}

// runHelperHost is the child process of the SIGKILL test: a host that loads
// the plugins in dir, prints the fixture plugin's pid and waits to be killed.
func runHelperHost(dir, dbURL string) {
	ctx := context.Background()
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	m := pluginhost.New(pluginhost.Options{Dir: dir}, pool, points.New(pool), slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err := m.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("pid %d\n", m.PID("fixture"))
	select {}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] != 'Z'
}
