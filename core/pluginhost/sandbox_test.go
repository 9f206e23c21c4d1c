package pluginhost_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// sdkCookieKey is go-plugin's handshake variable, the one non-allow-listed
// name a plugin must see.
var sdkCookieKey = hostside.Handshake().MagicCookieKey

type sqlResult struct {
	Error string           `json:"error"`
	Rows  []map[string]any `json:"rows"`
	N     int64            `json:"n"`
}

// hostileSQL makes the hostile plugin run sql through the real host API
// (HTTP → plugin process → gRPC SQLExec/SQLQuery → host).
func (h *harness) hostileSQL(t *testing.T, user core.Principal, mode, sql string, args ...any) sqlResult {
	t.Helper()
	if args == nil {
		args = []any{}
	}
	res := h.call(user, "POST", "/api/tools/hostile/"+mode, map[string]any{"sql": sql, "args": args})
	if res.Status != 200 {
		t.Fatalf("%s %q: status %d %s", mode, sql, res.Status, res.Body)
	}
	var out sqlResult
	res.decode(t, &out)
	return out
}

// TestHostilePluginCannotEscapeItsSandbox drives every known escape through
// a real plugin process and checks that each one fails, leaves no trace,
// and that the core's own connections still answer correctly afterwards.
func TestHostilePluginCannotEscapeItsSandbox(t *testing.T) {
	ctx := context.Background()
	h := start(t, install(t, "hostile", "fixture"), pluginhost.Options{})
	if refused := h.m.Refused(); len(refused) > 0 {
		t.Fatalf("refused: %v", refused)
	}
	victim := h.newUser(t)
	attacker := h.newUser(t)
	// Another plugin's data, which the hostile one must neither read nor change.
	if res := h.call(victim, "POST", "/api/tools/fixture/notes", map[string]string{"body": "segredo"}); res.Status != 200 {
		t.Fatalf("fixture note: %d %s", res.Status, res.Body)
	}
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("vetclube-hostile-%d", os.Getpid()))
	os.Remove(marker)
	t.Cleanup(func() { os.Remove(marker) })

	coreCount := func(t *testing.T, sql string, args ...any) int {
		t.Helper()
		var n int
		if err := h.pool.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	noSuperAdmin := func(t *testing.T) {
		if n := coreCount(t, `SELECT count(*) FROM user_roles WHERE user_id = $1`, attacker.UserID); n != 0 {
			t.Errorf("the attacker got %d role rows", n)
		}
	}
	noMarker := func(t *testing.T) {
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("COPY TO PROGRAM ran: %s exists", marker)
		}
	}
	nothingInPublic := func(name string) func(t *testing.T) {
		return func(t *testing.T) {
			if n := coreCount(t, `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = $1`, name); n != 0 {
				t.Errorf("public.%s was created", name)
			}
		}
	}
	fixtureNotesIntact := func(t *testing.T) {
		if n := coreCount(t, `SELECT count(*) FROM plugin_fixture.notes WHERE body = 'segredo'`); n != 1 {
			t.Errorf("the other plugin's notes changed: %d", n)
		}
		if n := coreCount(t, `SELECT count(*) FROM plugin_fixture.notes`); n != 1 {
			t.Errorf("the other plugin has %d notes, want 1", n)
		}
	}
	noCoreSchema := func(t *testing.T) {
		if n := coreCount(t, `SELECT count(*) FROM pg_namespace WHERE nspname = $1`, postgres.AppRole); n != 0 {
			t.Errorf("a schema named like the core's role (first on its search_path) was created")
		}
	}
	roleUnchanged := func(t *testing.T) {
		var super, login, inherit bool
		if err := h.pool.QueryRow(ctx, `SELECT rolsuper, rolcanlogin, rolinherit FROM pg_roles WHERE rolname = $1`, pluginhost.RoleName("hostile")).
			Scan(&super, &login, &inherit); err != nil || super || !login || inherit {
			t.Errorf("plugin role: super %v login %v inherit %v (%v)", super, login, inherit, err)
		}
	}

	// A function body is opaque to the host's statement checks: these rows
	// create one (allowed, in the plugin's own schema) and call it, so the
	// database's own privileges are what must stop them.
	viaFunction := func(name, body string) []string {
		return []string{`CREATE OR REPLACE FUNCTION ` + name + `() RETURNS void LANGUAGE plpgsql AS $f$ BEGIN ` + body + ` END $f$`}
	}

	attacks := []struct {
		name   string
		mode   string // exec or query
		setup  []string
		sql    string
		args   []any
		absent func(t *testing.T)
	}{
		{name: "multi-statement", mode: "exec",
			sql:    fmt.Sprintf(`SELECT 1; INSERT INTO public.user_roles (user_id, role) VALUES ('%s', 'super_admin')`, attacker.UserID),
			absent: noSuperAdmin},
		{name: "multi-statement query", mode: "query",
			sql:    fmt.Sprintf(`SELECT 1 AS one; INSERT INTO public.user_roles (user_id, role) VALUES ('%s', 'super_admin')`, attacker.UserID),
			absent: noSuperAdmin},
		{name: "RESET ROLE", mode: "exec", sql: `RESET ROLE`},
		{name: "RESET ROLE behind a comment", mode: "exec", sql: `/* harmless */ reset role`},
		{name: "SET ROLE to the core", mode: "exec", sql: `SET ROLE ` + postgres.AppRole},
		{name: "SET ROLE to the superuser", mode: "exec", sql: `SET ROLE postgres`},
		{name: "SET SESSION AUTHORIZATION", mode: "exec", sql: `SET SESSION AUTHORIZATION postgres`},
		{name: "SET ROLE inside a function", mode: "query", setup: viaFunction("become_core", `EXECUTE 'SET ROLE `+postgres.AppRole+`';`),
			sql: `SELECT become_core()`},
		{name: "set_config role", mode: "query", sql: `SELECT set_config('role', $1, false)`, args: []any{postgres.AppRole}},
		{name: "set_config search_path, session-wide", mode: "query", sql: `SELECT pg_catalog.set_config('search_path', 'public', false)`},
		{name: "set_config as a quoted identifier", mode: "query", sql: `SELECT "set_config"('search_path', 'public', false)`},
		{name: "reading users", mode: "query", sql: `SELECT email, password_hash FROM public.users`},
		{name: "reading users through search_path", mode: "query", sql: `SELECT email FROM users`},
		{name: "reading the plugin passwords", mode: "query", sql: `SELECT password FROM public.plugin_db_credentials`},
		{name: "reading pg_authid", mode: "query", sql: `SELECT rolname, rolpassword FROM pg_authid`},
		{name: "writing user_roles", mode: "exec",
			sql: `INSERT INTO public.user_roles (user_id, role) VALUES ($1, 'super_admin')`, args: []any{attacker.UserID}, absent: noSuperAdmin},
		{name: "writing user_roles inside a function", mode: "query",
			setup: viaFunction("grant_me", fmt.Sprintf(`INSERT INTO public.user_roles (user_id, role) VALUES ('%s', 'super_admin');`, attacker.UserID)),
			sql:   `SELECT grant_me()`, absent: noSuperAdmin},
		{name: "COPY TO PROGRAM", mode: "exec", sql: `COPY (SELECT 1) TO PROGRAM 'touch ` + marker + `'`, absent: noMarker},
		{name: "COPY TO PROGRAM inside a function", mode: "query",
			setup: viaFunction("shell", `EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch `+marker+`''';`),
			sql:   `SELECT shell()`, absent: noMarker},
		{name: "pg_read_file", mode: "query", sql: `SELECT pg_read_file('/etc/passwd')`},
		{name: "pg_read_file inside a function", mode: "query",
			setup: viaFunction("readf", `PERFORM pg_read_file('/etc/passwd');`), sql: `SELECT readf()`},
		{name: "CREATE EXTENSION dblink", mode: "exec", sql: `CREATE EXTENSION IF NOT EXISTS dblink`},
		{name: "CREATE EXTENSION inside a function", mode: "query",
			setup: viaFunction("ext", `EXECUTE 'CREATE EXTENSION IF NOT EXISTS dblink';`), sql: `SELECT ext()`},
		{name: "dblink as the superuser", mode: "query", sql: `SELECT * FROM dblink('dbname=postgres user=postgres', 'SELECT 1') AS t(x int)`},
		{name: "creating a table in public", mode: "exec", sql: `CREATE TABLE public.planted (x int)`, absent: nothingInPublic("planted")},
		{name: "creating a function in public", mode: "exec",
			sql:    `CREATE FUNCTION public.planted_fn() RETURNS int LANGUAGE sql AS 'SELECT 1'`,
			absent: nothingInPublic("planted_fn")},
		{name: "a schema named like the core's role", mode: "query",
			setup: viaFunction("mkschema", `EXECUTE 'CREATE SCHEMA `+postgres.AppRole+`';`), sql: `SELECT mkschema()`, absent: noCoreSchema},
		{name: "CREATE SCHEMA", mode: "exec", sql: `CREATE SCHEMA ` + postgres.AppRole, absent: noCoreSchema},
		{name: "reading another plugin's schema", mode: "query", sql: `SELECT body FROM plugin_fixture.notes`},
		{name: "writing another plugin's schema", mode: "exec",
			sql: `INSERT INTO plugin_fixture.notes (user_id, body) VALUES ($1, 'plantado')`, args: []any{attacker.UserID}, absent: fixtureNotesIntact},
		{name: "deleting another plugin's rows", mode: "exec", sql: `DELETE FROM plugin_fixture.notes`, absent: fixtureNotesIntact},
		{name: "transaction control", mode: "exec", sql: `BEGIN`},
		{name: "COMMIT", mode: "exec", sql: `COMMIT`},
		{name: "LISTEN", mode: "exec", sql: `LISTEN user_events`},
		{name: "NOTIFY on the core's event channel", mode: "exec", sql: `NOTIFY user_events, 'x'`},
		{name: "pg_notify on the core's event channel", mode: "query", sql: `SELECT pg_notify('user_events', 'x')`},
		{name: "holding the core's migration lock", mode: "query", sql: `SELECT pg_advisory_xact_lock(1)`},
		{name: "changing its own role", mode: "exec", sql: `ALTER ROLE CURRENT_USER CREATEROLE`, absent: roleUnchanged},
		{name: "changing its own role inside a function", mode: "query",
			setup: viaFunction("escalate", `EXECUTE 'ALTER ROLE CURRENT_USER SUPERUSER';`), sql: `SELECT escalate()`, absent: roleUnchanged},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			for _, s := range a.setup {
				if res := h.hostileSQL(t, attacker, "exec", s); res.Error != "" {
					t.Fatalf("setup %q failed: %s", s, res.Error)
				}
			}
			res := h.hostileSQL(t, attacker, a.mode, a.sql, a.args...)
			if res.Error == "" {
				t.Fatalf("the attack succeeded: rows %v, n %d", res.Rows, res.N)
			}
			t.Logf("refused: %s", res.Error)
			if a.absent != nil {
				a.absent(t)
			}
		})
	}

	// search_path planting: the plugin creates tables named like the core's
	// in its own schema and tries to make its session prefer them.
	for _, s := range []string{
		`CREATE TABLE users (id uuid, email text)`,
		`INSERT INTO users VALUES ('` + victim.UserID + `', 'plantado@evil.example')`,
		`CREATE TABLE profiles (user_id uuid, first_name text, last_name text, title text, avatar_url text)`,
		`INSERT INTO profiles VALUES ('` + victim.UserID + `', 'Plantado', 'Evil', '', '')`,
	} {
		if res := h.hostileSQL(t, attacker, "exec", s); res.Error != "" {
			t.Fatalf("planting %q: %s", s, res.Error)
		}
	}
	// A function changes the session's settings where no statement check can
	// see it; the host resets the connection after the call.
	if res := h.hostileSQL(t, attacker, "exec", viaFunction("plant_path", `PERFORM "set_config"('search_path', 'plugin_hostile, public', false); PERFORM "set_config"('statement_timeout', '1', false);`)[0]); res.Error != "" {
		t.Fatal(res.Error)
	}
	for range 4 {
		if res := h.hostileSQL(t, attacker, "query", `SELECT plant_path()`); res.Error != "" {
			t.Fatal(res.Error)
		}
	}

	// The plugin's session is still its own role, on its own schema, and
	// what a call changed did not outlive it.
	res := h.hostileSQL(t, attacker, "query", `SELECT current_user AS cu, session_user AS su, current_setting('search_path') AS sp, current_setting('statement_timeout') AS st`)
	if res.Error != "" || len(res.Rows) != 1 {
		t.Fatalf("whoami: %+v", res)
	}
	role := pluginhost.RoleName("hostile")
	if row := res.Rows[0]; row["cu"] != role || row["su"] != role || row["sp"] != `plugin_hostile` || row["st"] == "1ms" {
		t.Fatalf("plugin session after the attacks: %v", row)
	}

	// The core still answers correctly on every one of its connections.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var email, user string
			if err := h.pool.QueryRow(ctx, `SELECT email, current_user FROM users WHERE id = $1`, victim.UserID).Scan(&email, &user); err != nil {
				t.Error(err)
				return
			}
			if email != victim.Email || user != postgres.AppRole {
				t.Errorf("core read %q as %q", email, user)
			}
		}()
	}
	wg.Wait()
	var profile struct{ FirstName string }
	if r := h.call(victim, "GET", "/api/tools/fixture/profile", nil); r.Status != 200 {
		t.Fatalf("profile through the host: %d %s", r.Status, r.Body)
	} else {
		r.decode(t, &profile)
	}
	if profile.FirstName == "Plantado" {
		t.Fatalf("the host read the plugin's planted profiles table")
	}
	noSuperAdmin(t)
	noMarker(t)
	fixtureNotesIntact(t)
	noCoreSchema(t)
}

// A migration is plugin SQL too: one that tries to leave its role is
// refused before it runs, and the plugin is not loaded.
func TestHostileMigrationIsRefused(t *testing.T) {
	h := start(t, install(t, "hostile-evil"), pluginhost.Options{})
	if got := h.m.Refused()["hostile-evil"]; got != "could not start" {
		t.Fatalf("refused = %v", h.m.Refused())
	}
	if !strings.Contains(h.logs.String(), "RESET is not allowed") {
		t.Errorf("log does not say why:\n%s", h.logs.String())
	}
	var n int
	if err := h.pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_class WHERE relname IN ('planted_by_migration', 'harmless')`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d of the migration's tables exist (%v)", n, err)
	}
}

// The core's secrets never reach a plugin process: it sees only an
// allow-listed environment.
func TestPluginEnvironmentHasNoCoreSecrets(t *testing.T) {
	secrets := map[string]string{
		"DATABASE_URL":         "postgres://core:secret@db/vetclube",
		"STRIPE_SECRET_KEY":    "sk_test_never_for_plugins",
		"GOOGLE_CLIENT_SECRET": "google-secret",
		"VETCLUBE_TEST_SECRET": fmt.Sprintf("secret-%d", os.Getpid()),
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("LANG", "pt_BR.UTF-8")
	h := start(t, install(t, "hostile"), pluginhost.Options{})
	res := h.call(h.newUser(t), "GET", "/api/tools/hostile/env", nil)
	var out struct{ Env []string }
	res.decode(t, &out)
	// GOGC and GOMEMLIMIT are the host's runtime tuning (PLUGIN_GOGC,
	// PLUGIN_GOMEMLIMIT), not the core's environment.
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "TZ": true, "TMPDIR": true, "GOGC": true, "GOMEMLIMIT": true}
	sawLang := false
	for _, kv := range out.Env {
		name, value, _ := strings.Cut(kv, "=")
		for _, secret := range secrets {
			if strings.Contains(value, secret) {
				t.Errorf("plugin sees a core secret in %s", name)
			}
		}
		if name == "LANG" {
			sawLang = value == "pt_BR.UTF-8"
		}
		if !allowed[name] && !strings.HasPrefix(name, "LC_") && !strings.HasPrefix(name, "PLUGIN_") && name != sdkCookieKey {
			t.Errorf("plugin sees %s", name)
		}
	}
	if !sawLang {
		t.Errorf("LANG was not passed on: %v", out.Env)
	}
}

// A plugin's id names its role and schema: an id that differs from the
// installed file name is refused before any of its SQL runs, and ids that
// could share a schema with another plugin ("a_b" and "a-b") are refused.
func TestPluginIdentityIsCheckedBeforeMigrations(t *testing.T) {
	dir := install(t, "hostile_under")
	installAs(t, dir, "fixture", "imposter")
	h := start(t, dir, pluginhost.Options{})
	refused := h.m.Refused()
	if refused["imposter"] != "manifest id differs from the file name" || refused["hostile_under"] != "plugin id not allowed" {
		t.Fatalf("refused = %v", refused)
	}
	var migrations, schemas int
	if err := h.pool.QueryRow(context.Background(), `SELECT count(*) FROM plugin_migrations`).Scan(&migrations); err != nil {
		t.Fatal(err)
	}
	if err := h.pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'plugin\_%'`).Scan(&schemas); err != nil {
		t.Fatal(err)
	}
	if migrations != 0 || schemas != 0 {
		t.Fatalf("a refused plugin's SQL ran: %d migrations, %d schemas", migrations, schemas)
	}
	for _, id := range []string{"a_b", "A-b", "a--b", "-ab", "ab-", "a", strings.Repeat("a", 41), "a.b", "a/b"} {
		if pluginhost.ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	for _, id := range []string{"ab", "a-b", "calculadora-servico", "analise-swot"} {
		if !pluginhost.ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
}

// A plugin's answer carries only the headers that say how to read and cache
// it; never cookies, redirects, security policies or CORS, and never a
// content type a browser would run on the app's origin.
func TestPluginResponseHeadersAreAllowListed(t *testing.T) {
	h := start(t, install(t, "hostile"), pluginhost.Options{})
	u := h.newUser(t)
	req := httptest.NewRequest("GET", "/api/tools/hostile/headers", nil)
	req = req.WithContext(core.WithPrincipal(req.Context(), u))
	rec := httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	got := rec.Header()
	if rec.Code != 200 {
		t.Fatalf("status %d %s", rec.Code, rec.Body)
	}
	for _, name := range []string{"Set-Cookie", "Location", "Access-Control-Allow-Origin", "Strict-Transport-Security", "X-Frame-Options", "Refresh"} {
		if v := got.Values(name); len(v) > 0 {
			t.Errorf("plugin set %s: %v", name, v)
		}
	}
	if csp := got.Get("Content-Security-Policy"); csp == "default-src *" || !strings.Contains(csp, "sandbox") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	if got.Get("Cache-Control") != "no-cache" || got.Get("ETag") != `"v1"` || got.Get("Content-Type") != "application/json" {
		t.Errorf("allowed headers lost: %v", got)
	}

	req = httptest.NewRequest("GET", "/api/tools/hostile/html", nil)
	req = req.WithContext(core.WithPrincipal(req.Context(), u))
	rec = httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); strings.Contains(ct, "html") || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("an HTML answer is served as %q (nosniff %q)", ct, rec.Header().Get("X-Content-Type-Options"))
	}
}

// Paths that climb out of the plugin's tree never reach it, however they
// are encoded; ordinary paths arrive decoded once.
func TestPluginPathsWithDotSegmentsAreRefused(t *testing.T) {
	h := start(t, install(t, "hostile"), pluginhost.Options{})
	u := h.newUser(t)
	for _, p := range []string{
		"/api/tools/hostile/a/../b",
		"/api/tools/hostile/../../users",
		"/api/tools/hostile/%2e%2e/x",
		"/api/tools/hostile/a/%2E%2E%2Fb",
		"/api/tools/hostile/..%2f..%2fetc",
		"/api/tools/hostile/a%5c..%5cb",
		"/api/tools/hostile/./x",
		"/api/tools/hostile/a%00b",
	} {
		res := h.call(u, "GET", p, nil)
		if res.Status < 400 || res.Status >= 500 || res.message() != "Endereço inválido." {
			t.Errorf("%s: %d %s", p, res.Status, res.Body)
		}
	}
	for p, want := range map[string]string{
		"/api/tools/hostile/a/b%20c": "/a/b c",
		"/api/tools/hostile/a..b/c":  "/a..b/c",
		"/api/tools/hostile/a%2Fb":   "/a/b",
	} {
		res := h.call(u, "GET", p, nil)
		var out struct{ Path string }
		res.decode(t, &out)
		if res.Status != 200 || out.Path != want {
			t.Errorf("%s: %d, plugin saw %q, want %q", p, res.Status, out.Path, want)
		}
	}
}
