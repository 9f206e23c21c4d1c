package pluginhost_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func TestDiscoveryRefusesBadChecksumsAndNewerCoreVersions(t *testing.T) {
	dir := install(t, "fixture", "fixture-future")
	// Tampered: the binary changed after its checksum was recorded.
	tampered := installAs(t, dir, "fixture-premium", "fixture-premium")
	f, err := os.OpenFile(tampered, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	f.Close()
	// Never recorded: no checksum file at all.
	unrecorded := installAs(t, dir, "fixture", "fixture-unrecorded")
	os.Remove(pluginhost.ChecksumFile(unrecorded))

	h := start(t, dir, pluginhost.Options{})
	refused := h.m.Refused()
	if got := refused["fixture-premium"]; got != "checksum verification failed" {
		t.Errorf("tampered binary: refused=%q", got)
	}
	if got := refused["fixture-unrecorded"]; got != "checksum verification failed" {
		t.Errorf("unrecorded binary: refused=%q", got)
	}
	if got := refused["fixture-future"]; got != "requires a newer core" {
		t.Errorf("future plugin: refused=%q", got)
	}
	if _, ok := refused["fixture"]; ok || len(refused) != 3 {
		t.Errorf("refused = %v, want exactly the three bad plugins", refused)
	}
	logs := h.logs.String()
	for _, want := range []string{"plugin refused: checksum verification failed", "does not match the recorded", "needs core 99.0.0 or newer"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}

	var list struct{ Tools []pluginhost.Tool }
	h.call(h.newUser(t), "GET", "/api/tools", nil).decode(t, &list)
	if len(list.Tools) != 1 || list.Tools[0].ID != "fixture" || !list.Tools[0].Available {
		t.Fatalf("tools = %+v, want only the fixture", list.Tools)
	}
	var recorded int
	h.pool.QueryRow(context.Background(), `SELECT count(*) FROM plugin_installations WHERE plugin_id = 'fixture'`).Scan(&recorded)
	if recorded != 1 {
		t.Errorf("plugin_installations rows for fixture = %d, want 1", recorded)
	}
}

func TestPanicFailsOnlyThatRequest(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	user := h.newUser(t)
	pid := h.m.PID("fixture")
	res := h.call(user, "GET", "/api/tools/fixture/panic", nil)
	if res.Status != 500 || res.message() != "A ferramenta encontrou um erro inesperado. Tente novamente." {
		t.Fatalf("panic: %d %s", res.Status, res.Body)
	}
	var echo struct {
		UserID string `json:"user_id"`
		Path   string
		Q      string
		PID    int
	}
	res = h.call(user, "GET", "/api/tools/fixture/echo?q=oi", nil)
	res.decode(t, &echo)
	if res.Status != 200 || echo.UserID != user.UserID || echo.Path != "/echo" || echo.Q != "oi" {
		t.Fatalf("echo after panic: %d %s", res.Status, res.Body)
	}
	if echo.PID != pid {
		t.Errorf("the plugin process changed after a recovered panic: %d → %d", pid, echo.PID)
	}
	if !strings.Contains(h.logs.String(), "fixture panic") || !strings.Contains(h.logs.String(), "plugin=fixture") {
		t.Errorf("the panic was not logged with the plugin id:\n%s", h.logs.String())
	}
}

// waitHealthy polls the echo route until it answers 200 and returns how long
// that took.
func waitHealthy(t *testing.T, h *harness, user core.Principal, id string, within time.Duration) time.Duration {
	t.Helper()
	began := time.Now()
	for time.Since(began) < within {
		if res := h.call(user, "GET", "/api/tools/"+id+"/echo", nil); res.Status == 200 {
			return time.Since(began)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s not healthy again within %s", id, within)
	return 0
}

func TestCrashedPluginIsRestartedWithinFiveSeconds(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	user := h.newUser(t)
	before := h.m.PID("fixture")
	res := h.call(user, "GET", "/api/tools/fixture/crash", nil)
	if res.Status != 503 || res.message() != "A ferramenta está temporariamente indisponível. Tente novamente em instantes." {
		t.Fatalf("crash: %d %s", res.Status, res.Body)
	}
	took := waitHealthy(t, h, user, "fixture", 5*time.Second)
	t.Logf("healthy again %s after the crash", took)
	if after := h.m.PID("fixture"); after == before || after == 0 {
		t.Errorf("pid %d → %d: expected a new process", before, after)
	}
	if alive(before) {
		t.Errorf("crashed process %d still running", before)
	}
}

// GOGC=1 makes the sandbox helper, which runs with the plugin's runtime
// settings until it execs the plugin, collect garbage almost continuously:
// the descriptor of the checksummed binary must stay open until the execve.
func TestPluginStartsUnderConstantGarbageCollection(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{PluginGOGC: "1"})
	user := h.newUser(t)
	waitHealthy(t, h, user, "fixture", 5*time.Second)
	for i := 0; i < 4; i++ {
		if res := h.call(user, "GET", "/api/tools/fixture/crash", nil); res.Status != 503 {
			t.Fatalf("crash %d: %d %s", i, res.Status, res.Body)
		}
		waitHealthy(t, h, user, "fixture", 10*time.Second)
	}
}

func TestHungPluginTimesOutAndOthersDoNotNotice(t *testing.T) {
	h := start(t, install(t, "fixture", "fixture-premium"), pluginhost.Options{CallTimeout: 700 * time.Millisecond})
	user := h.newUser(t, core.RolePremium)
	hungPID := h.m.PID("fixture")
	var wg sync.WaitGroup
	wg.Add(1)
	var hang result
	go func() {
		defer wg.Done()
		hang = h.call(user, "GET", "/api/tools/fixture/hang", nil)
	}()
	// While the fixture hangs, another plugin answers normally.
	for i := 0; i < 5; i++ {
		if res := h.call(user, "GET", "/api/tools/fixture-premium/echo", nil); res.Status != 200 {
			t.Fatalf("other plugin during the hang: %d %s", res.Status, res.Body)
		}
	}
	wg.Wait()
	if hang.Status != 503 || hang.message() != "A ferramenta demorou demais para responder. Tente novamente." {
		t.Fatalf("hang: %d %s", hang.Status, hang.Body)
	}
	took := waitHealthy(t, h, user, "fixture", 5*time.Second)
	t.Logf("healthy again %s after the timeout", took)
	if h.m.PID("fixture") == hungPID {
		t.Errorf("the hung process was not replaced")
	}
}

func TestKVCompareAndSetUnderConcurrentWriters(t *testing.T) {
	var clock atomic.Int64 // Unix nanoseconds
	clock.Store(time.Now().UnixNano())
	h := start(t, install(t, "fixture"), pluginhost.Options{Now: func() time.Time { return time.Unix(0, clock.Load()) }})
	user := h.newUser(t)
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan string, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if res := h.call(user, "POST", "/api/tools/fixture/increment?key=contador", nil); res.Status != 200 {
					errs <- fmt.Sprintf("%d %s", res.Status, res.Body)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var got struct {
		Found bool
		Value string
	}
	h.call(user, "GET", "/api/tools/fixture/kv?key=contador", nil).decode(t, &got)
	if !got.Found || got.Value != fmt.Sprint(writers*each) {
		t.Fatalf("counter = %+v, want %d: an increment was lost or doubled", got, writers*each)
	}

	// TTL: a value with a 1-second TTL reads as absent afterwards.
	if res := h.call(user, "PUT", "/api/tools/fixture/kv?key=efemero&value=a&ttl=1", nil); res.Status != 204 {
		t.Fatalf("set: %d %s", res.Status, res.Body)
	}
	h.call(user, "GET", "/api/tools/fixture/kv?key=efemero", nil).decode(t, &got)
	if !got.Found {
		t.Fatal("value missing before its TTL")
	}
	clock.Add(int64(999 * time.Millisecond))
	h.call(user, "GET", "/api/tools/fixture/kv?key=efemero", nil).decode(t, &got)
	if !got.Found {
		t.Fatal("value missing 999 ms into its 1-second TTL")
	}
	clock.Add(int64(time.Millisecond))
	h.call(user, "GET", "/api/tools/fixture/kv?key=efemero", nil).decode(t, &got)
	if got.Found {
		t.Fatal("value still readable after its TTL")
	}
}

func TestHostAPI(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	ana, bia := h.newUser(t), h.newUser(t)
	ctx := context.Background()

	var prof struct{ UserID, FirstName string }
	h.call(ana, "GET", "/api/tools/fixture/profile", nil).decode(t, &prof)
	if prof.UserID != ana.UserID || prof.FirstName == "" {
		t.Errorf("profile = %+v", prof)
	}

	var dup struct{ Duplicate bool }
	h.call(ana, "POST", "/api/tools/fixture/award?key=k1", nil).decode(t, &dup)
	if dup.Duplicate {
		t.Error("first award reported duplicate")
	}
	h.call(ana, "POST", "/api/tools/fixture/award?key=k1", nil).decode(t, &dup)
	if !dup.Duplicate {
		t.Error("retried award not reported duplicate")
	}
	bal, err := points.New(h.pool).Balance(ctx, ana.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if bal.TotalPoints != 5 {
		t.Errorf("balance after a retried award of 5 = %d, want 5", bal.TotalPoints)
	}

	h.call(ana, "POST", "/api/tools/fixture/notify?key=n1", nil).decode(t, &dup)
	h.call(ana, "POST", "/api/tools/fixture/notify?key=n1", nil).decode(t, &dup)
	var notes int
	h.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'plugin'`, ana.UserID).Scan(&notes)
	if notes != 1 || !dup.Duplicate {
		t.Errorf("notifications = %d (duplicate=%v), want exactly 1", notes, dup.Duplicate)
	}

	// Own schema: each user's rows are theirs; the table lives in plugin_fixture.
	var rows []struct{ Body string }
	h.call(ana, "POST", "/api/tools/fixture/notes", map[string]string{"Body": "da Ana"}).decode(t, &rows)
	h.call(bia, "POST", "/api/tools/fixture/notes", map[string]string{"Body": "da Bia"}).decode(t, &rows)
	if len(rows) != 1 || rows[0].Body != "da Bia" {
		t.Errorf("bia's notes = %+v", rows)
	}
	var table string
	h.pool.QueryRow(ctx, `SELECT to_regclass('plugin_fixture.notes')::text`).Scan(&table)
	if table != "plugin_fixture.notes" {
		t.Errorf("plugin table not in its schema: %q", table)
	}
	var applied int
	h.pool.QueryRow(ctx, `SELECT count(*) FROM plugin_migrations WHERE plugin_id = 'fixture'`).Scan(&applied)
	if applied != 1 {
		t.Errorf("plugin_migrations = %d, want 1", applied)
	}

	// The plugin's SQL runs as its own role: the core's tables are out of reach.
	if res := h.call(ana, "GET", "/api/tools/fixture/steal", nil); res.Status != 403 || !strings.Contains(res.message(), "permission denied") {
		t.Errorf("plugin read public.users: %d %s", res.Status, res.Body)
	}

	if res := h.call(ana, "GET", "/api/tools/fixture/log", nil); res.Status != 204 {
		t.Fatalf("log: %d", res.Status)
	}
	if l := h.logs.String(); !strings.Contains(l, `msg="fixture says hello"`) || !strings.Contains(l, `plugin=fixture answer=42`) {
		t.Errorf("plugin log line not in the core's log:\n%s", l)
	}

	var home struct{ Cards []pluginhost.Card }
	h.call(ana, "GET", "/api/dashboard/cards", nil).decode(t, &home)
	if len(home.Cards) != 1 || home.Cards[0] != (pluginhost.Card{Plugin: "fixture", Title: "Cartão de teste", Body: "Olá " + ana.UserID, Link: "/ferramentas/fixture"}) {
		t.Errorf("dashboard cards = %+v", home.Cards)
	}
}

func TestPremiumToolsAreListedButRefusedWithoutSubscription(t *testing.T) {
	h := start(t, install(t, "fixture", "fixture-premium"), pluginhost.Options{})
	free, premium, trial := h.newUser(t), h.newUser(t, core.RolePremium), h.newUser(t, core.RoleTrial)

	var list struct{ Tools []pluginhost.Tool }
	h.call(free, "GET", "/api/tools", nil).decode(t, &list)
	byID := map[string]pluginhost.Tool{}
	for _, tool := range list.Tools {
		byID[tool.ID] = tool
	}
	if p := byID["fixture-premium"]; !p.Premium || !p.Locked {
		t.Errorf("premium tool for a free user: %+v, want premium and locked", p)
	}
	if f := byID["fixture"]; f.Premium || f.Locked {
		t.Errorf("free tool: %+v", f)
	}
	res := h.call(free, "GET", "/api/tools/fixture-premium/echo", nil)
	if res.Status != 403 || res.message() != "Esta ferramenta é exclusiva para assinantes Premium. Assine o VetClube Premium para usá-la." {
		t.Errorf("free user on a premium tool: %d %s", res.Status, res.Body)
	}
	for _, u := range []core.Principal{premium, trial} {
		h.call(u, "GET", "/api/tools", nil).decode(t, &list)
		for _, tool := range list.Tools {
			if tool.Locked {
				t.Errorf("%v sees %s locked", u.Roles, tool.ID)
			}
		}
		var echo struct{ Subscription string }
		res := h.call(u, "GET", "/api/tools/fixture-premium/echo", nil)
		res.decode(t, &echo)
		if res.Status != 200 || echo.Subscription != u.Roles[1] {
			t.Errorf("%v on a premium tool: %d %s", u.Roles, res.Status, res.Body)
		}
	}
	if res := h.call(free, "GET", "/api/tools/nao-existe/echo", nil); res.Status != 404 || res.message() != "Ferramenta não encontrada." {
		t.Errorf("unknown tool: %d %s", res.Status, res.Body)
	}
}

func TestNoOrphanPluginAfterHostIsSIGKILLed(t *testing.T) {
	dir := install(t, "fixture")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PLUGINHOST_HELPER_DIR="+dir, "PLUGINHOST_HELPER_DB="+pgtest.NewURL(t))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pluginPID int
	line, err := bufio.NewReader(out).ReadString('\n')
	if _, serr := fmt.Sscanf(line, "pid %d", &pluginPID); err != nil || serr != nil || pluginPID == 0 {
		cmd.Process.Kill()
		t.Fatalf("helper host said %q (%v)", line, err)
	}
	if !alive(pluginPID) {
		t.Fatalf("plugin %d not running under the helper host", pluginPID)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pluginPID) {
		if time.Now().After(deadline) {
			syscall.Kill(pluginPID, syscall.SIGKILL)
			t.Fatalf("plugin %d outlived its SIGKILLed host by 5 s", pluginPID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestFailingHealthCheckRestartsThePlugin(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{HealthInterval: 200 * time.Millisecond})
	user := h.newUser(t)
	before := h.m.PID("fixture")
	if res := h.call(user, "POST", "/api/tools/fixture/sick", nil); res.Status != 204 {
		t.Fatalf("sick: %d", res.Status)
	}
	deadline := time.Now().Add(5 * time.Second)
	for h.m.PID("fixture") == before || h.m.PID("fixture") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("an unhealthy plugin was not restarted within 5 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitHealthy(t, h, user, "fixture", 5*time.Second)
	if !strings.Contains(h.logs.String(), "health check failed: fixture told to be sick") {
		t.Errorf("restart reason not logged:\n%s", h.logs.String())
	}
}
