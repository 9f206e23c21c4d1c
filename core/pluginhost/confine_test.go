package pluginhost_test

import (
	"context"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// attempts is the hostile plugin's report of its OS-level attacks.
type attempts struct {
	Attempts []struct {
		Attack, Target, Detail string
		Succeeded              bool
	} `json:"attempts"`
	UID int `json:"uid"`
	PID int `json:"pid"`
}

// A plugin process attacking the core from the operating system, outside
// the host API, gets nowhere: it cannot read the core's environment or
// memory, the data directory, another plugin's files or the database's
// files; it cannot log in to PostgreSQL as the superuser, the core's role or
// another plugin's role; it cannot write into the plugin directory, its own
// executable or the core's tree; it cannot signal or ptrace the core, reach
// the core's HTTP port or Temporal; its fork bomb is refused and its memory
// bomb kills only itself, after which it is restarted. The core answers
// correctly throughout.
//
// As root (here, and in `make test`) each plugin runs as its own system
// user; TestHostilePluginUnprivilegedCore runs this same test as an
// unprivileged core, where plugins run in a user namespace.
func TestHostilePluginOSAttacks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("plugin confinement is Linux only")
	}
	caps := confine.Probe()
	if !caps.Root && !caps.UserNS {
		t.Skip("neither root nor user namespaces: no separate identity for plugins on this host")
	}
	if caps.Landlock == 0 || !caps.Seccomp {
		t.Skipf("this kernel lacks Landlock or seccomp (%+v)", caps)
	}
	ctx := context.Background()

	// The directories an attacker aims at are world-readable and
	// world-traversable here, so only the confinement stands in the way
	// (not the permissions of a test's temporary directories).
	open := func(dir string) string {
		for p := dir; p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	pluginDir := open(install(t, "hostile", "hostile-peer", "fixture"))
	dataDir := open(t.TempDir())
	secret := filepath.Join(dataDir, "vapid.json")
	if err := os.WriteFile(secret, []byte(`{"private":"segredo"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	coreTree := open(t.TempDir())

	dbURL := pgtest.NewURL(t)
	opts := pluginhost.Options{CallTimeout: 20 * time.Second, RequireConfinement: true}
	if os.Getenv("PLUGINHOST_TEST_UNCONFINED") == "1" {
		// Only to prove by hand that this test fails without confinement.
		opts.Sandbox.Disabled = true
	}
	h := startOn(t, dbURL, pluginDir, opts)
	if refused := h.m.Refused(); len(refused) > 0 {
		t.Fatalf("plugins refused: %v\n%s", refused, h.logs.String())
	}
	user := h.newUser(t)

	core := httptest.NewServer(h.mux)
	t.Cleanup(core.Close)
	// Temporal's frontend is a TCP port on the core's machine like any
	// other: a listener stands in for it.
	temporal, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { temporal.Close() })

	echoOK := func(when string) {
		t.Helper()
		res := h.call(user, "GET", "/api/tools/fixture/echo?q=oi", nil)
		if res.Status != 200 || !strings.Contains(string(res.Body), "oi") {
			t.Fatalf("%s: the core stopped answering: %d %s", when, res.Status, res.Body)
		}
		if err := h.pool.Ping(ctx); err != nil {
			t.Fatalf("%s: database: %v", when, err)
		}
	}
	echoOK("before the attacks")

	// Who the plugin runs as.
	var who struct {
		UID, PID int
		Tmp      string
	}
	h.call(user, "GET", "/api/tools/hostile/whoami", nil).decode(t, &who)
	if !opts.Sandbox.Disabled {
		if caps.Root {
			u, err := confine.EnsureUser("hostile")
			if err != nil || who.UID != u.UID || who.UID == 0 {
				t.Fatalf("plugin runs as uid %d, want its own user %+v (%v)", who.UID, u, err)
			}
		} else if who.UID != os.Getuid() {
			t.Fatalf("plugin runs as uid %d inside its namespace, want %d", who.UID, os.Getuid())
		}
		if !strings.HasPrefix(filepath.Base(who.Tmp), "vetclube-plugin-hostile-") {
			t.Fatalf("plugin's TMPDIR %q is not its private directory", who.Tmp)
		}
	}

	// The peer plugin gets its database role and password by using its
	// schema once; the hostile plugin is then handed that password (as if
	// it had leaked) along with the superuser's and the core's URLs.
	if res := h.call(user, "POST", "/api/tools/hostile-peer/exec", map[string]any{"sql": "CREATE TABLE t (x int)"}); res.Status != 200 || strings.Contains(string(res.Body), `"error"`) {
		t.Fatalf("peer's SQL: %d %s", res.Status, res.Body)
	}
	var peerPassword string
	if err := h.pool.QueryRow(ctx, `SELECT password FROM plugin_db_credentials WHERE plugin_id = 'hostile-peer'`).Scan(&peerPassword); err != nil {
		t.Fatal(err)
	}
	peerURL, _ := url.Parse(dbURL)
	peerURL.User = url.UserPassword(pluginhost.RoleName("hostile-peer"), peerPassword)
	super := pgtest.SuperuserURL(dbURL)

	peerTmp, _ := filepath.Glob(filepath.Join(os.TempDir(), "vetclube-plugin-hostile-peer-*"))
	listDirs := append([]string{dataDir, pluginDir, "/var/lib/postgresql"}, peerTmp...)
	if c := os.Getenv("PLUGINHOST_TEST_PGDATA"); c != "" {
		listDirs = append(listDirs, c)
	}
	exe, _ := os.Executable()
	planted := []string{
		filepath.Join(pluginDir, "planted"),
		filepath.Join(pluginDir, "fixture.sha256"),
		filepath.Join(coreTree, "planted"),
		filepath.Join(filepath.Dir(exe), "planted"),
	}
	before := map[string]string{}
	for _, p := range []string{filepath.Join(pluginDir, "fixture.sha256"), filepath.Join(pluginDir, "hostile")} {
		sum, err := pluginhost.FileSHA256(p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = sum
	}
	targets := map[string]any{
		"core_pid":     os.Getpid(),
		"read_files":   []string{secret, filepath.Join(pluginDir, "hostile-peer"), "/etc/shadow"},
		"list_dirs":    listDirs,
		"write_files":  planted,
		"plugin_files": []string{filepath.Join(pluginDir, "hostile")},
		"tcp":          []string{strings.TrimPrefix(core.URL, "http://"), temporal.Addr().String()},
		"databases":    []string{super, dbURL, peerURL.String()},
	}
	var got attempts
	res := h.call(user, "POST", "/api/tools/hostile/os", targets)
	if res.Status != 200 {
		t.Fatalf("attacks: %d %s", res.Status, res.Body)
	}
	res.decode(t, &got)
	// One line per attack, so a missing attack is as visible as a
	// successful one.
	wantAttacks := map[string]bool{"read-environ": false, "open-mem": false, "signal": false, "ptrace": false, "process-vm-readv": false,
		"read-file": false, "list-dir": false, "write-file": false, "open-own-executable-for-writing": false,
		"tcp-connect": false, "postgres-connect": false}
	for _, a := range got.Attempts {
		wantAttacks[a.Attack] = true
		if a.Succeeded {
			t.Errorf("attack succeeded: %s %s (%s)", a.Attack, a.Target, a.Detail)
		} else {
			t.Logf("refused: %s %s: %s", a.Attack, a.Target, a.Detail)
		}
	}
	for a, seen := range wantAttacks {
		if !seen {
			t.Errorf("attack %s was not attempted", a)
		}
	}
	// No trace: nothing planted, nothing changed.
	for _, p := range planted[:1] {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by the plugin", p)
			os.Remove(p)
		}
	}
	for _, p := range planted[2:] {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by the plugin", p)
			os.Remove(p)
		}
	}
	for p, sum := range before {
		if now, _ := pluginhost.FileSHA256(p); now != sum {
			t.Errorf("%s changed", p)
		}
	}
	echoOK("after the attacks")

	// Fork bomb: refused before 200 copies run (the limit is the plugin
	// user's task count), and the plugin survives it or is restarted.
	var fork struct {
		Started int    `json:"started"`
		Refused string `json:"refused"`
	}
	res = h.call(user, "POST", "/api/tools/hostile/fork?max=200", nil)
	if res.Status != 200 {
		t.Fatalf("fork bomb: %d %s", res.Status, res.Body)
	}
	res.decode(t, &fork)
	if fork.Refused == "" || fork.Started >= 200 {
		t.Errorf("fork bomb ran %d copies and was never refused", fork.Started)
	}
	t.Logf("fork bomb: %d copies, then %q", fork.Started, fork.Refused)
	waitHealthy(t, h, user, "hostile", 30*time.Second)
	echoOK("after the fork bomb")

	// Memory bomb: the plugin dies on the way to 1 GiB and is restarted.
	pid := h.m.PID("hostile")
	res = h.call(user, "POST", "/api/tools/hostile/alloc?max_mib=1024", nil)
	if res.Status != 503 || res.message() != "A ferramenta está temporariamente indisponível. Tente novamente em instantes." {
		t.Errorf("memory bomb: %d %s, want the plugin to die of it", res.Status, res.Body)
	}
	// The Go runtime's last words: a limit refused it. Usually the memory
	// limit; near GOMEMLIMIT the runtime may instead start threads for the
	// collector and meet the task limit first (seen with the unprivileged
	// core, whose plugins share one user's task count). Either is the
	// sandbox stopping the bomb; anything else is not.
	died := func() bool {
		l := h.logs.String()
		return strings.Contains(l, "out of memory") || strings.Contains(l, "pthread_create failed: Resource temporarily unavailable")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !died() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !died() {
		t.Errorf("the memory bomb did not die of its memory or task limit:\n%s", h.logs.String())
	}
	waitHealthy(t, h, user, "hostile", 30*time.Second)
	if after := h.m.PID("hostile"); after == pid || after == 0 {
		t.Errorf("memory bomb: pid %d → %d, expected a restarted process", pid, after)
	}
	echoOK("after the memory bomb")
	if !opts.Sandbox.Disabled {
		for _, p := range h.m.AdminList() {
			if p.Confinement == nil || !p.Confinement.Complete() {
				t.Errorf("%s: confinement %+v", p.ID, p.Confinement)
			}
		}
	}
}

// TestHostilePluginUnprivilegedCore runs the attack test again with the core
// as an unprivileged user (nobody): plugins then run in a user namespace,
// under the same Landlock rules, seccomp filter and limits.
func TestHostilePluginUnprivilegedCore(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the test arranges an unprivileged core by starting one as root")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no 'nobody' user")
	}
	if u, err := url.Parse(pgtest.AdminURL()); err == nil && strings.HasPrefix(u.Query().Get("host"), "/") {
		t.Skip("the test database is a private cluster's socket, which only the core's user may reach")
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	// The test binary and the fixtures must be readable by nobody.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir, binDir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyExe := filepath.Join(dir, "pluginhost.test")
	if err := copyFile(exe, copyExe); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copyExe, "-test.run", "^TestHostilePluginOSAttacks$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=/tmp", "TMPDIR=/tmp",
		"PLUGINHOST_FIXTURE_DIR=" + binDir,
		"TEST_DATABASE_URL=" + pgtest.AdminURL(),
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	t.Logf("unprivileged core:\n%s", out)
	if err != nil {
		t.Fatalf("the attack test failed with an unprivileged core: %v", err)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Skip("this host allows no user namespaces to an unprivileged user")
	}
	if !strings.Contains(string(out), "--- PASS: TestHostilePluginOSAttacks") {
		t.Fatal("the attack test did not run")
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Every plugin's confinement is logged and listed for the backoffice; a
// host lacking a mechanism runs plugins with what it has and says which is
// missing, except in production, which refuses them unless the operator
// turned confinement off explicitly.
func TestConfinementIsReportedAndRequiredInProduction(t *testing.T) {
	if runtime.GOOS != "linux" || confine.Probe().Landlock == 0 {
		t.Skip("needs Linux with Landlock")
	}
	dir := install(t, "fixture")
	find := func(h *harness) pluginhost.AdminPlugin {
		for _, p := range h.m.AdminList() {
			if p.ID == "fixture" {
				return p
			}
		}
		t.Fatal("fixture not listed")
		return pluginhost.AdminPlugin{}
	}

	full := start(t, dir, pluginhost.Options{RequireConfinement: true})
	p := find(full)
	if p.Refused != "" || p.Confinement == nil || !p.Confinement.Complete() || p.Confinement.Landlock == 0 || !p.Confinement.Seccomp || p.Confinement.User == "" {
		t.Fatalf("fully confined plugin listed as %+v %+v", p, p.Confinement)
	}
	if !strings.Contains(full.logs.String(), "confinement=\"user=") {
		t.Errorf("confinement not logged:\n%s", full.logs.String())
	}

	partial := start(t, dir, pluginhost.Options{Sandbox: confine.Options{Skip: []string{"landlock"}}})
	p = find(partial)
	if p.Refused != "" || p.Confinement == nil || p.Confinement.Complete() || !strings.Contains(strings.Join(p.Confinement.Missing, ","), "landlock") {
		t.Fatalf("partly confined plugin listed as %+v %+v", p, p.Confinement)
	}
	if !strings.Contains(partial.logs.String(), "plugin runs without part of its confinement") || !strings.Contains(partial.logs.String(), "missing=landlock") {
		t.Errorf("the missing mechanism was not logged:\n%s", partial.logs.String())
	}

	production := start(t, dir, pluginhost.Options{RequireConfinement: true, Sandbox: confine.Options{Skip: []string{"seccomp"}}})
	if p = find(production); p.Refused != "confinement unavailable" {
		t.Fatalf("production started a plugin without seccomp: %+v", p)
	}

	off := start(t, dir, pluginhost.Options{RequireConfinement: true, Sandbox: confine.Options{Disabled: true}})
	if p = find(off); p.Refused != "" || p.Confinement == nil || p.Confinement.Enabled {
		t.Fatalf("PLUGIN_SANDBOX=off in production: %+v %+v", p, p.Confinement)
	}
}
