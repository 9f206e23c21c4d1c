package pluginhost_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// waitState polls plugin id until its process is in state, or fails.
func waitState(t *testing.T, h *harness, id, state string, within time.Duration) pluginhost.Lifecycle {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		l, ok := h.m.Lifecycle(id)
		if !ok {
			t.Fatalf("%s not loaded; logs:\n%s", id, h.logs.String())
		}
		if l.State == state {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is %s after %s, want %s; logs:\n%s", id, l.State, within, state, h.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A plugin seen for the first time is started at load (its description is
// read and cached by checksum) and stops after its idle period; the next
// host finds the description cached and starts nothing until the first
// call, when twenty concurrent first calls start one process.
func TestOnDemandIdleStopCachedManifestAndConcurrentFirstCalls(t *testing.T) {
	dir := install(t, "fixture")
	dbURL := pgtest.NewURL(t)
	opts := pluginhost.Options{IdleTimeout: 400 * time.Millisecond}

	first := startOn(t, dbURL, dir, opts)
	l, _ := first.m.Lifecycle("fixture")
	if l.State != pluginhost.StateRunning || l.PID == 0 || !l.OnDemand || l.RSSBytes <= 0 {
		t.Fatalf("first load: %+v; logs:\n%s", l, first.logs.String())
	}
	firstPID := l.PID
	waitState(t, first, "fixture", pluginhost.StateIdle, 5*time.Second)
	if pid := first.m.PID("fixture"); pid != 0 {
		t.Fatalf("idle plugin still has pid %d", pid)
	}
	time.Sleep(100 * time.Millisecond) // go-plugin reaps the killed child
	if alive(firstPID) {
		t.Fatalf("process %d still running after the idle stop", firstPID)
	}
	_ = first.m.Close()

	// A new host (a restart of the core): the description is cached for
	// this binary, so nothing starts at load, yet the tool is listed.
	h := startOn(t, dbURL, dir, opts)
	if l, _ := h.m.Lifecycle("fixture"); l.State != pluginhost.StateIdle || l.PID != 0 {
		t.Fatalf("cached plugin at load: %+v", l)
	}
	user := h.newUser(t)
	var catalogue struct {
		Tools []struct {
			ID        string
			Available bool
		}
	}
	h.call(user, "GET", "/api/tools", nil).decode(t, &catalogue)
	if len(catalogue.Tools) != 1 || catalogue.Tools[0].ID != "fixture" || !catalogue.Tools[0].Available {
		t.Fatalf("catalogue of an idle host: %+v", catalogue)
	}

	const callers = 20
	var wg sync.WaitGroup
	statuses := make([]int, callers)
	began := time.Now()
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.call(user, "GET", "/api/tools/fixture/echo", nil).Status
		}()
	}
	wg.Wait()
	took := time.Since(began)
	for i, s := range statuses {
		if s != 200 {
			t.Fatalf("call %d: %d; logs:\n%s", i, s, h.logs.String())
		}
	}
	if n := strings.Count(h.logs.String(), "plugin started on demand"); n != 1 {
		t.Fatalf("%d on-demand starts for %d concurrent first calls; logs:\n%s", n, callers, h.logs.String())
	}
	l = waitState(t, h, "fixture", pluginhost.StateRunning, time.Second)
	t.Logf("cold start %.1f ms (process launch to first answer); %d concurrent first calls answered in %s", l.ColdStartMS, callers, took)
	if l.ColdStartMS <= 0 || l.ColdStartMS > 2000 {
		t.Fatalf("cold start %.1f ms", l.ColdStartMS)
	}
	if l.LastCallAt == nil || l.PID == 0 {
		t.Fatalf("running plugin: %+v", l)
	}
	// The admin list shows the process.
	var row *pluginhost.AdminPlugin
	for _, p := range h.m.AdminList() {
		if p.ID == "fixture" {
			row = &p
		}
	}
	if row == nil || row.Process == nil || row.Process.State != pluginhost.StateRunning || row.Process.PID != l.PID || row.Process.RSSBytes <= 0 || !row.Running {
		t.Fatalf("admin row: %+v", row)
	}
	waitState(t, h, "fixture", pluginhost.StateIdle, 5*time.Second)
}

// A call under way keeps an on-demand plugin up past its idle period.
func TestOnDemandCallUnderWayIsNotCutByTheIdleStop(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{IdleTimeout: 150 * time.Millisecond, CallTimeout: 5 * time.Second})
	user := h.newUser(t)
	waitState(t, h, "fixture", pluginhost.StateIdle, 5*time.Second)
	// /slow answers after 50 ms; ten of them in a row, each after a pause
	// just short of the idle period, never find the process gone.
	pid := 0
	for i := range 10 {
		if res := h.call(user, "GET", "/api/tools/fixture/slow", nil); res.Status != 200 {
			t.Fatalf("call %d: %d %s", i, res.Status, res.Body)
		}
		if i == 0 {
			pid = h.m.PID("fixture")
		} else if now := h.m.PID("fixture"); now != pid {
			t.Fatalf("call %d ran on pid %d, want %d (stopped while in use)", i, now, pid)
		}
		time.Sleep(80 * time.Millisecond)
	}
}

// A running on-demand plugin that crashes is restarted by the supervisor, as
// a resident one is, and still stops when idle afterwards.
func TestOnDemandCrashedPluginIsRestarted(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{IdleTimeout: 2 * time.Second})
	user := h.newUser(t)
	before := h.m.PID("fixture")
	if res := h.call(user, "GET", "/api/tools/fixture/crash", nil); res.Status != 503 {
		t.Fatalf("crash: %d %s; logs:\n%s", res.Status, res.Body, h.logs.String())
	}
	took := waitHealthy(t, h, user, "fixture", 5*time.Second)
	t.Logf("healthy again %s after the crash", took)
	if after := h.m.PID("fixture"); after == before || after == 0 {
		t.Fatalf("pid %d → %d: expected a new process", before, after)
	}
	waitState(t, h, "fixture", pluginhost.StateIdle, 6*time.Second)
	if res := h.call(user, "GET", "/api/tools/fixture/echo", nil); res.Status != 200 {
		t.Fatalf("after the idle stop: %d %s; logs:\n%s", res.Status, res.Body, h.logs.String())
	}
}

// A content plugin registers its types from the cached description without
// running, and is started for its write hooks: the editor's invalid item
// gets the plugin's own field error, the valid one its computed field.
func TestOnDemandContentPluginStartsForItsWriteHooks(t *testing.T) {
	dir := install(t, "noticias")
	dbURL := pgtest.NewURL(t)
	first := startOn(t, dbURL, dir, pluginhost.Options{ContentTypes: content.NewRegistry(), IdleTimeout: time.Minute})
	_ = first.m.Close()

	reg := content.NewRegistry()
	h := startOn(t, dbURL, dir, pluginhost.Options{ContentTypes: reg, IdleTimeout: time.Minute})
	if l, _ := h.m.Lifecycle("noticias"); l.State != pluginhost.StateIdle {
		t.Fatalf("at load: %+v", l)
	}
	if _, ok := reg.Get("noticias"); !ok || reg.Owner("noticias") != "noticias" {
		t.Fatal("the cached description did not register the news type")
	}
	editor := h.newUser(t, core.RoleEditor)
	store := content.New(h.pool, reg, content.Options{Hooks: h.m.ContentHooks()})
	actor := content.Actor{UserID: editor.UserID, Channel: content.ChannelBackoffice}
	in := content.Input{Title: "Nova resolução sobre telemedicina", Summary: "O que muda para clínicas.", Fields: map[string]any{
		"body": strings.Repeat("Texto da notícia. ", 40), "category": "legislacao", "source_url": "https://www.cfmv.gov.br/",
	}}
	_, _, err := store.Create(t.Context(), actor, "noticias", in, "")
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.EINVALID || e.Fields["source_name"] != "Informe o nome da fonte junto com o link." {
		t.Fatalf("the plugin's field error: %v", err)
	}
	if l, _ := h.m.Lifecycle("noticias"); l.State != pluginhost.StateRunning || l.ColdStartMS <= 0 {
		t.Fatalf("after the hook: %+v", l)
	}
}
