// Package memory measures the idle memory of the whole system as `make run`
// starts it — the core (`vetclube serve`), its plugin processes, the
// embedded Temporal dev server and the embedded PostgreSQL cluster — once
// with every plugin resident (PLUGIN_IDLE_TIMEOUT=0) and once with plugins
// started on demand (the default), on the same data directory. Run with
// `make bench-memory`.
package memory

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// part is one component's memory: resident set (RSS) and proportional set
// (PSS: shared pages split among the processes sharing them, so the
// PostgreSQL backends' shared buffers are not counted once per backend).
type part struct {
	procs    int
	rss, pss int64 // bytes
}

type sample map[string]*part

// names of the plugin processes running in a sample
var running = map[*part][]string{}

func (s sample) add(name string, rss, pss int64) {
	p := s[name]
	if p == nil {
		p = &part{}
		s[name] = p
	}
	p.procs++
	p.rss += rss
	p.pss += pss
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func TestBenchMemory(t *testing.T) {
	if os.Getenv("BENCH_MEMORY") == "" {
		t.Skip("run with make bench-memory")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", "vetclube")
	plugins := filepath.Join(root, "bin", "plugins")
	for _, p := range []string{bin, plugins, filepath.Join(root, "bin", "temporal-dev")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("bench-memory: %v (make build-go plugins build-temporal)", err)
		}
	}
	settle, err := time.ParseDuration(env("BENCH_MEMORY_SETTLE", "20s"))
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	addr := env("BENCH_MEMORY_ADDR", "127.0.0.1:18601")

	// The development seed that `serve` runs at every start calls some
	// plugins (demo patients, news, diseases), which starts them; the
	// on-demand run uses a short idle period (BENCH_MEMORY_IDLE_TIMEOUT,
	// 30s instead of production's 10m) and samples after it has passed, so
	// what it shows is the idle steady state after start.
	idle, err := time.ParseDuration(env("BENCH_MEMORY_IDLE_TIMEOUT", "30s"))
	if err != nil || idle <= 0 {
		t.Fatalf("BENCH_MEMORY_IDLE_TIMEOUT: %q", os.Getenv("BENCH_MEMORY_IDLE_TIMEOUT"))
	}
	runs := []struct {
		name, idle string
		settle     time.Duration
	}{
		// The resident run comes first: it also records every plugin's
		// description for its binary, so the on-demand run starts none.
		{"todos os plugins residentes", "0", settle},
		{"plugins sob demanda", idle.String(), max(settle, idle+15*time.Second)},
	}
	logDir := env("BENCH_MEMORY_LOG_DIR", filepath.Join(root, ".data"))
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	results := make([]sample, len(runs))
	for i, r := range runs {
		results[i] = measureRun(t, root, bin, plugins, dataDir, logDir, addr, r.idle, r.settle)
		print(t, fmt.Sprintf("%s (PLUGIN_IDLE_TIMEOUT=%s, amostra %s após /readyz)", r.name, r.idle, r.settle), results[i])
	}
	resident, onDemand := results[0]["plugins"], results[1]["plugins"]
	if resident == nil || resident.procs == 0 {
		t.Fatal("bench-memory: no plugin process in the resident run")
	}
	var od part
	if onDemand != nil {
		od = *onDemand
	}
	fmt.Printf("\nplugins: %d processes, %s RSS resident → %d processes, %s RSS on demand (%.0f %% of resident)\n",
		resident.procs, mb(resident.rss), od.procs, mb(od.rss), 100*float64(od.rss)/float64(resident.rss))
	fmt.Printf("whole system: %s RSS / %s PSS resident → %s RSS / %s PSS on demand\n",
		mb(total(results[0]).rss), mb(total(results[0]).pss), mb(total(results[1]).rss), mb(total(results[1]).pss))
	printColdStarts(t, filepath.Join(logDir, "bench-memory-idle-"+idle.String()+".log"))
	if 2*od.rss > resident.rss {
		t.Errorf("bench-memory: the plugins' idle memory on demand (%s) is more than half of resident (%s)", mb(od.rss), mb(resident.rss))
	}
}

func total(s sample) part {
	var t part
	for _, p := range s {
		t.procs += p.procs
		t.rss += p.rss
		t.pss += p.pss
	}
	return t
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

func print(t *testing.T, title string, s sample) {
	t.Helper()
	fmt.Printf("\n%s\n%-12s %6s %12s %12s\n", title, "parte", "proc.", "RSS", "PSS")
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s[n]
		fmt.Printf("%-12s %6d %12s %12s\n", n, p.procs, mb(p.rss), mb(p.pss))
	}
	tt := total(s)
	fmt.Printf("%-12s %6d %12s %12s\n", "total", tt.procs, mb(tt.rss), mb(tt.pss))
	if p := s["plugins"]; p != nil {
		names := running[p]
		sort.Strings(names)
		fmt.Printf("plugins em execução: %s\n", strings.Join(names, ", "))
	}
}

// measureRun starts `vetclube serve` as `make run` does, waits until it is
// ready and has settled, samples every process of the system and stops it.
func measureRun(t *testing.T, root, bin, plugins, dataDir, logDir, addr, idle string, settle time.Duration) sample {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"APP_ENV=development", "DATA_DIR="+dataDir, "HTTP_ADDR="+addr, "PLUGINS_DIR="+plugins,
		"PLUGIN_IDLE_TIMEOUT="+idle, "DATABASE_URL=", "TEMPORAL_ADDRESS=",
		"TEMPORAL_DEV_BIN="+filepath.Join(root, "bin", "temporal-dev"))
	logFile, err := os.Create(filepath.Join(logDir, "bench-memory-idle-"+idle+".log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(60 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}
	defer stop()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("bench-memory: serve exited: %v (log %s)", err, logFile.Name())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("bench-memory: not ready within 5 minutes (log %s)", logFile.Name())
		}
		time.Sleep(250 * time.Millisecond)
	}
	time.Sleep(settle)
	return sampleSystem(cmd.Process.Pid, dataDir)
}

type proc struct {
	pid, ppid int
	comm, cmd string
}

func processes() []proc {
	entries, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		l, r := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if l < 0 || r < l {
			continue
		}
		fields := strings.Fields(string(stat[r+1:]))
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		out = append(out, proc{pid: pid, ppid: ppid, comm: string(stat[l+1 : r]), cmd: string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))})
	}
	return out
}

// sampleSystem classifies the core's descendants and the PostgreSQL
// cluster under dataDir (pg_ctl detaches the postmaster from the core).
func sampleSystem(core int, dataDir string) sample {
	procs := processes()
	children := map[int][]proc{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	s := sample{}
	seen := map[int]bool{}
	var walk func(p proc, part string)
	walk = func(p proc, part string) {
		if seen[p.pid] {
			return
		}
		seen[p.pid] = true
		if part == "" {
			switch {
			case strings.HasPrefix(p.comm, "postgres") || strings.Contains(p.cmd, "postgres -D"):
				part = "postgresql"
			case strings.Contains(p.cmd, "temporal"):
				part = "temporal"
			default:
				part = "plugins"
			}
		}
		rss, pss := memory(p.pid)
		s.add(part, rss, pss)
		if part == "plugins" {
			name := filepath.Base(strings.Fields(p.cmd + " ?")[0])
			running[s[part]] = append(running[s[part]], name)
		}
		for _, c := range children[p.pid] {
			walk(c, part)
		}
	}
	for _, p := range procs {
		if p.pid == core {
			rss, pss := memory(p.pid)
			s.add("core", rss, pss)
			seen[p.pid] = true
			for _, c := range children[p.pid] {
				walk(c, "")
			}
		}
	}
	for _, p := range procs {
		if !seen[p.pid] && strings.Contains(p.cmd, dataDir) && strings.HasPrefix(p.comm, "postgres") {
			walk(p, "postgresql")
		}
	}
	return s
}

// memory reads a process's RSS (status) and PSS (smaps_rollup), in bytes.
func memory(pid int) (rss, pss int64) {
	read := func(file, key string) int64 {
		f, err := os.Open(fmt.Sprintf("/proc/%d/%s", pid, file))
		if err != nil {
			return 0
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				return kb << 10
			}
		}
		return 0
	}
	return read("status", "VmRSS:"), read("smaps_rollup", "Pss:")
}

// ColdStartTarget is the longest an on-demand plugin may take from its
// process's launch to its first answer.
const ColdStartTarget = 300 * time.Millisecond

var coldStartLine = regexp.MustCompile(`plugin started on demand.* plugin=(\S+) cold_start_ms=(\d+)`)

// printColdStarts prints the on-demand starts the server logged during the
// on-demand run (the seed's calls at boot start several plugins at once,
// beside the migrations and the seed itself: a busy moment, not a quiet one).
func printColdStarts(t *testing.T, logPath string) {
	t.Helper()
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("bench-memory: %v", err)
	}
	var worst time.Duration
	var parts []string
	for _, m := range coldStartLine.FindAllStringSubmatch(string(b), -1) {
		ms, _ := strconv.Atoi(m[2])
		d := time.Duration(ms) * time.Millisecond
		worst = max(worst, d)
		parts = append(parts, fmt.Sprintf("%s %d ms", m[1], ms))
	}
	if len(parts) == 0 {
		fmt.Printf("cold starts: none logged in %s\n", logPath)
		return
	}
	met := "yes"
	if worst > ColdStartTarget {
		met = "no"
	}
	fmt.Printf("cold starts (launch to first answer, %d plugins): %s; worst %s (target ≤ %s: %s)\n",
		len(parts), strings.Join(parts, ", "), worst, ColdStartTarget, met)
}
