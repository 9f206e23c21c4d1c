package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sys/unix"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// The OS-level attacks: what a plugin process would try against the core
// from outside the host API. Each answers whether it succeeded; the host's
// test requires every one to fail and checks that none left a trace.

// osTargets is what the test tells the plugin to aim at (an attacker would
// find the same by looking around: its parent's pid, the usual paths).
type osTargets struct {
	CorePID     int      `json:"core_pid"`
	ReadFiles   []string `json:"read_files"`   // DATA_DIR secrets, another plugin's executable
	ListDirs    []string `json:"list_dirs"`    // the database's files, another plugin's directory
	WriteFiles  []string `json:"write_files"`  // into bin/plugins, the core's tree
	TCP         []string `json:"tcp"`          // the core's HTTP port, Temporal's frontend
	Databases   []string `json:"databases"`    // PostgreSQL URLs: superuser, the core's role, another plugin's role
	PluginFiles []string `json:"plugin_files"` // its own executable, to overwrite
}

// attempt is one attack's outcome: Succeeded is what the test fails on.
type attempt struct {
	Attack    string `json:"attack"`
	Target    string `json:"target"`
	Succeeded bool   `json:"succeeded"`
	Detail    string `json:"detail"`
}

func record(out *[]attempt, attack, target string, err error, detail string) {
	a := attempt{Attack: attack, Target: target, Succeeded: err == nil, Detail: detail}
	if err != nil {
		a.Detail = err.Error()
	}
	*out = append(*out, a)
}

func osAttacks(mux *http.ServeMux) {
	mux.HandleFunc("POST /os", func(w http.ResponseWriter, r *http.Request) {
		var t osTargets
		if !sdk.DecodeJSON(w, r, &t) {
			return
		}
		var out []attempt
		pids := []int{t.CorePID}
		if pp := os.Getppid(); pp > 1 && pp != t.CorePID {
			pids = append(pids, pp)
		}
		for _, pid := range pids {
			proc := "/proc/" + strconv.Itoa(pid)
			b, err := os.ReadFile(proc + "/environ")
			record(&out, "read-environ", proc+"/environ", err, fmt.Sprintf("%d bytes", len(b)))
			f, err := os.Open(proc + "/mem")
			if err == nil {
				buf := make([]byte, 16)
				_, err = f.ReadAt(buf, 0x400000)
				if err != nil {
					// Opening is already reading another process's memory.
					err = nil
				}
				f.Close()
			}
			record(&out, "open-mem", proc+"/mem", err, "")
			// kill(pid, 0) asks permission to signal without sending one.
			record(&out, "signal", strconv.Itoa(pid), syscall.Kill(pid, 0), "")
			record(&out, "ptrace", strconv.Itoa(pid), ptraceAndLetGo(pid), "")
			record(&out, "process-vm-readv", strconv.Itoa(pid), readOtherMemory(pid), "")
		}
		for _, p := range t.ReadFiles {
			b, err := os.ReadFile(p)
			record(&out, "read-file", p, err, fmt.Sprintf("%d bytes", len(b)))
		}
		for _, p := range t.ListDirs {
			entries, err := os.ReadDir(p)
			record(&out, "list-dir", p, err, fmt.Sprintf("%d entries", len(entries)))
		}
		for _, p := range t.WriteFiles {
			err := os.WriteFile(p, []byte("planted by a plugin"), 0o755)
			record(&out, "write-file", p, err, "")
		}
		for _, p := range t.PluginFiles {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				f.Close()
			}
			record(&out, "open-own-executable-for-writing", p, err, "")
		}
		for _, addr := range t.TCP {
			c, err := net.DialTimeout("tcp", addr, 2*time.Second)
			if err == nil {
				c.Close()
			}
			record(&out, "tcp-connect", addr, err, "")
		}
		for _, url := range t.Databases {
			ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
			conn, err := pgx.Connect(ctx, url)
			user := ""
			if err == nil {
				err = conn.QueryRow(ctx, `SELECT current_user`).Scan(&user)
				conn.Close(ctx)
			}
			cancel()
			record(&out, "postgres-connect", url, err, user)
		}
		sdk.WriteJSON(w, 200, map[string]any{"attempts": out, "uid": os.Getuid(), "pid": os.Getpid()})
	})
	// fork starts copies of itself (each sleeps) until the system refuses
	// one or max are running, then stops them all.
	mux.HandleFunc("POST /fork", func(w http.ResponseWriter, r *http.Request) {
		max, _ := strconv.Atoi(r.URL.Query().Get("max"))
		self, err := os.Executable()
		if err != nil {
			sdk.WriteJSON(w, 200, map[string]any{"error": err.Error()})
			return
		}
		var children []*exec.Cmd
		refused := ""
		for len(children) < max {
			cmd := exec.Command(self)
			cmd.Env = []string{childEnv + "=1"}
			if err := cmd.Start(); err != nil {
				refused = err.Error()
				break
			}
			children = append(children, cmd)
		}
		started := len(children)
		for _, c := range children {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		sdk.WriteJSON(w, 200, map[string]any{"started": started, "refused": refused})
	})
	// alloc takes memory 16 MiB at a time, touching every page, up to max
	// MiB; a confined plugin dies on the way.
	mux.HandleFunc("POST /alloc", func(w http.ResponseWriter, r *http.Request) {
		max, _ := strconv.Atoi(r.URL.Query().Get("max_mib"))
		var hold [][]byte
		for len(hold)*16 < max {
			b := make([]byte, 16<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			hold = append(hold, b)
		}
		sdk.WriteJSON(w, 200, map[string]any{"allocated_mib": len(hold) * 16})
	})
	// whoami tells the test which user and directory the plugin runs with.
	mux.HandleFunc("GET /whoami", func(w http.ResponseWriter, r *http.Request) {
		wd, _ := os.Getwd()
		sdk.WriteJSON(w, 200, map[string]any{"uid": os.Getuid(), "gid": os.Getgid(), "pid": os.Getpid(),
			"tmp": os.TempDir(), "wd": wd, "ppid": os.Getppid(), "exe": filepath.Base(os.Args[0])})
	})
}

// ptraceAndLetGo attaches to pid without stopping it (PTRACE_SEIZE) and,
// should that be allowed, stops and releases it at once, so even a
// successful attempt leaves the core running untraced.
func ptraceAndLetGo(pid int) error {
	runtime.LockOSThread() // ptrace belongs to the attaching thread
	defer runtime.UnlockOSThread()
	if err := unix.PtraceSeize(pid); err != nil {
		return err
	}
	if err := unix.PtraceInterrupt(pid); err == nil {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WALL, nil)
	}
	_ = unix.PtraceDetach(pid)
	return nil
}

// readOtherMemory asks to read 8 bytes of pid's memory at an address that
// may not be mapped: EFAULT already means the permission was granted.
func readOtherMemory(pid int) error {
	buf := make([]byte, 8)
	local := []unix.Iovec{{Base: &buf[0], Len: 8}}
	remote := []unix.RemoteIovec{{Base: 0x400000, Len: 8}}
	_, err := unix.ProcessVMReadv(pid, local, remote, 0)
	if errors.Is(err, unix.EFAULT) {
		return nil
	}
	return err
}

const childEnv = "HOSTILE_FORK_CHILD"

// forkChild is what each copy started by /fork does: wait to be killed
// (and give up after a minute, should nobody kill it).
func forkChild() {
	time.Sleep(time.Minute)
}
