// Package confine confines a plugin process with the operating system's own
// mechanisms before the plugin's first instruction runs.
//
// Go cannot run code between fork and exec, so the host starts the core's
// own executable (or, under `go test`, the test binary) with the hidden
// first argument Subcommand and a Spec. That helper process verifies the
// plugin's SHA-256 on the file descriptor it will execute, applies resource
// limits, drops to the plugin's unprivileged user (or runs inside a user
// namespace the host created), sets no_new_privs and the parent-death
// signal, restricts itself with Landlock and a seccomp filter, and then
// replaces itself with the plugin through execve: every restriction is
// inherited by the plugin and can never be lifted by it.
//
// Any binary that links this package answers Subcommand from an init
// function, before main or any test runs, so the core binary and every test
// binary that starts plugins are their own helper.
package confine

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
)

// Subcommand is the hidden first argument that turns a binary linking this
// package into the confining helper.
const Subcommand = "vetclube-plugin-sandbox-exec"

func init() {
	if len(os.Args) == 3 && os.Args[1] == Subcommand {
		os.Exit(helperMain(os.Args[2]))
	}
}

// Defaults for the resource limits.
const (
	DefaultMemory    = 256 << 20 // bytes of data segment and private writable mappings
	DefaultOpenFiles = 256
	DefaultProcesses = 128 // tasks (processes and threads) of the plugin's user
)

// Spec is what the helper applies; the host serialises it as the helper's
// only argument. Nothing in it is secret (it is visible in /proc/<pid>/cmdline).
type Spec struct {
	Plugin string `json:"plugin"` // absolute path of the plugin executable
	SHA256 string `json:"sha256"` // its recorded checksum, verified on the executed descriptor

	// User mode: the helper runs as root and drops to UID/GID.
	UID int `json:"uid,omitempty"`
	GID int `json:"gid,omitempty"`
	// Namespace mode: the helper starts a second copy of itself in a new
	// user namespace (InNS), which confines itself and execs the plugin.
	UserNS bool `json:"userns,omitempty"`
	InNS   bool `json:"in_ns,omitempty"`
	// Probe only checks that a user namespace can be created (Probe).
	Probe bool `json:"probe,omitempty"`

	TmpDir string `json:"tmp"` // the plugin's private writable directory (TMPDIR, HOME)

	Landlock bool     `json:"landlock"`
	ReadOnly []string `json:"ro,omitempty"` // extra read-only paths (files or directories) besides the system's
	Seccomp  bool     `json:"seccomp"`

	Memory    uint64 `json:"memory"`
	OpenFiles uint64 `json:"nofile"`
	Processes uint64 `json:"nproc"`
}

func (s Spec) encode() (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

// Args returns the helper's argument vector after the executable.
func (s Spec) Args() ([]string, error) {
	enc, err := s.encode()
	if err != nil {
		return nil, err
	}
	return []string{Subcommand, enc}, nil
}

func helperMain(arg string) int {
	// The helper lives only until it execs the plugin, and allocates
	// little. With the collector off, no collection runs once the memory
	// limit is set (a collection may need fresh memory the limit refuses)
	// and no finalizer closes the descriptor about to be executed. The
	// plugin's own GOGC and GOMEMLIMIT (its environment) apply after the
	// exec.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(math.MaxInt64)
	var s Spec
	if err := json.Unmarshal([]byte(arg), &s); err != nil {
		fmt.Fprintln(os.Stderr, "plugin sandbox: bad spec:", err)
		return 126
	}
	if s.Probe && s.InNS {
		return 0
	}
	if s.UserNS && !s.InNS {
		return outer(s)
	}
	err := apply(s) // returns only on failure: success execs the plugin
	fmt.Fprintln(os.Stderr, "plugin sandbox: refusing to start the plugin:", err)
	return 126
}

// Status is the confinement one plugin runs under, as the host reports it
// (logs, /api/admin/plugins).
type Status struct {
	Enabled   bool   `json:"enabled"`  // false when PLUGIN_SANDBOX=off
	User      string `json:"user"`     // "own-user", "user-namespace" or "" (the core's user)
	Landlock  int    `json:"landlock"` // ABI version enforced; 0 = none
	Network   bool   `json:"network"`  // TCP connect and bind refused (Landlock ABI ≥ 4)
	Scoped    bool   `json:"scoped"`   // signals and abstract sockets outside the plugin refused (ABI ≥ 6)
	Seccomp   bool   `json:"seccomp"`  // dangerous system calls refused
	NoNewPriv bool   `json:"no_new_privs"`
	Memory    uint64 `json:"memory_bytes"`
	OpenFiles uint64 `json:"open_files"`
	Processes uint64 `json:"processes"`
	// Missing names every mechanism that is not applied, in pt-BR-neutral
	// identifiers the backoffice translates.
	Missing []string `json:"missing"`
}

// Complete reports whether every mechanism is applied.
func (s Status) Complete() bool { return s.Enabled && len(s.Missing) == 0 }

// Summary is a one-line description for logs.
func (s Status) Summary() string {
	if !s.Enabled {
		return "none (PLUGIN_SANDBOX=off)"
	}
	parts := []string{"user=" + s.User, fmt.Sprintf("landlock=v%d", s.Landlock)}
	if s.Seccomp {
		parts = append(parts, "seccomp")
	}
	if len(s.Missing) > 0 {
		parts = append(parts, "missing="+strings.Join(s.Missing, ","))
	}
	return strings.Join(parts, " ")
}
