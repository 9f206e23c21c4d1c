package confine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	seccomp "github.com/elastic/go-seccomp-bpf"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// MarkNonDumpable makes the calling process non-dumpable: its memory,
// environment and descriptors under /proc are then readable only with
// CAP_SYS_PTRACE, even by processes of its own user, and it leaves no core
// file.
func MarkNonDumpable() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// Capabilities are the mechanisms this host can apply.
type Capabilities struct {
	Root     bool // the core runs as root: one system user per plugin
	UserNS   bool // unprivileged user namespaces can be created
	Landlock int  // Landlock ABI the rules use (0: none)
	Seccomp  bool
}

var (
	probeOnce sync.Once
	probed    Capabilities
)

// Probe reports what this host supports; it is measured once.
func Probe() Capabilities {
	probeOnce.Do(func() {
		probed.Root = os.Geteuid() == 0
		if v, err := ll.LandlockGetABIVersion(); err == nil && v > 0 {
			probed.Landlock = min(v, 7)
		}
		probed.Seccomp = seccomp.Supported()
		if !probed.Root {
			probed.UserNS = canCreateUserNS()
		}
	})
	return probed
}

// canCreateUserNS asks the helper (a fresh, dumpable process, as when it
// starts a plugin) to start a copy of itself in a new user namespace.
func canCreateUserNS() bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	args, err := Spec{UserNS: true, Probe: true}.Args()
	if err != nil {
		return false
	}
	cmd := exec.Command(self, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd.Run() == nil
}

func userNSAttr() *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER,
		// The plugin keeps the core's ids inside the namespace, so it is
		// not root there either and loses every capability at exec.
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		Pdeathsig:                  syscall.SIGKILL,
	}
}

// outer is the helper's first stage in namespace mode: it starts the second
// stage in a new user namespace, passes signals on and exits with it. It
// holds nothing the plugin does not (its environment is the plugin's), and
// the plugin, confined by Landlock and seccomp, can neither signal nor
// trace it.
func outer(s Spec) int {
	s.InNS = true
	args, err := s.Args()
	if err != nil {
		fmt.Fprintln(os.Stderr, "plugin sandbox:", err)
		return 126
	}
	cmd := exec.Command("/proc/self/exe", args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	cmd.SysProcAttr = userNSAttr()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "plugin sandbox: user namespace:", err)
		return 126
	}
	_ = MarkNonDumpable()
	go func() {
		for sig := range sigs {
			_ = cmd.Process.Signal(sig)
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return 126
	}
	return 0
}

// Options are the host's confinement settings.
type Options struct {
	Disabled bool   // PLUGIN_SANDBOX=off: plugins run as plain child processes
	Helper   string // executable answering Subcommand; empty means this one
	// ForceUserNS uses a user namespace even as root (tests of the
	// unprivileged path).
	ForceUserNS bool
	// Skip leaves mechanisms out ("user", "landlock", "seccomp") as if this
	// host lacked them: what an old kernel or a strict container looks like.
	Skip      []string
	Memory    uint64
	OpenFiles uint64
	Processes uint64
}

// Prepared is one plugin start: the command go-plugin runs, the
// confinement it applies, and what to undo when the process is gone.
type Prepared struct {
	Cmd *exec.Cmd
	// SocketGroup owns go-plugin's UNIX sockets so that the plugin's user
	// can reach the host's; empty when the plugin shares the core's user.
	SocketGroup string
	Status      Status
	Cleanup     func()
}

// Prepare builds the command that starts the plugin at path (whose
// recorded checksum is sum) confined, with env as its whole environment.
func Prepare(opts Options, id, path, sum string, env []string) (*Prepared, error) {
	if opts.Memory == 0 {
		opts.Memory = DefaultMemory
	}
	if opts.OpenFiles == 0 {
		opts.OpenFiles = DefaultOpenFiles
	}
	if opts.Processes == 0 {
		opts.Processes = DefaultProcesses
	}
	if opts.Disabled {
		cmd := exec.Command(path)
		cmd.Env = env
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		return &Prepared{Cmd: cmd, Status: Status{Missing: []string{"all"}}, Cleanup: func() {}}, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	caps := Probe()
	for _, m := range opts.Skip {
		switch m {
		case "user":
			caps.Root, caps.UserNS = false, false
		case "landlock":
			caps.Landlock = 0
		case "seccomp":
			caps.Seccomp = false
		}
	}
	st := Status{Enabled: true, NoNewPriv: true, Memory: opts.Memory, OpenFiles: opts.OpenFiles}
	spec := Spec{Plugin: abs, SHA256: sum, Memory: opts.Memory, OpenFiles: opts.OpenFiles}
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	uid, gid := os.Getuid(), os.Getgid()
	group := ""
	switch {
	case caps.Root && !opts.ForceUserNS:
		u, err := EnsureUser(id)
		if err != nil {
			return nil, fmt.Errorf("plugin user: %w", err)
		}
		uid, gid = u.UID, u.GID
		spec.UID, spec.GID = uid, gid
		group = strconv.Itoa(gid)
		st.User = "own-user:" + u.Name
	case caps.UserNS || (caps.Root && opts.ForceUserNS):
		// Not created here: the core is not dumpable, so its forked child
		// (whose /proc files then belong to root) could not have its id
		// maps written by an unprivileged core. The helper, a fresh and
		// dumpable process, creates the namespace for the plugin.
		spec.UserNS = true
		st.User = "user-namespace"
	default:
		st.Missing = append(st.Missing, "user")
	}
	// The per-user task count is only the plugin's own when it has a user
	// (or a user namespace, where the kernel counts per namespace).
	if st.User != "" {
		spec.Processes, st.Processes = opts.Processes, opts.Processes
	} else {
		st.Missing = append(st.Missing, "processes")
	}
	if caps.Landlock > 0 {
		spec.Landlock = true
		st.Landlock = caps.Landlock
		st.Network = caps.Landlock >= 4
		st.Scoped = caps.Landlock >= 6
	} else {
		st.Missing = append(st.Missing, "landlock")
	}
	if !st.Network {
		st.Missing = append(st.Missing, "network")
	}
	if !st.Scoped {
		st.Missing = append(st.Missing, "signals")
	}
	if caps.Seccomp {
		spec.Seccomp, st.Seccomp = true, true
	} else {
		st.Missing = append(st.Missing, "seccomp")
	}

	tmp, err := os.MkdirTemp("", "vetclube-plugin-"+id+"-")
	if err != nil {
		return nil, err
	}
	if err := os.Chown(tmp, uid, gid); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	spec.TmpDir = tmp
	args, err := spec.Args()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	helper := opts.Helper
	if helper == "" {
		if helper, err = os.Executable(); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("find the core executable: %w", err)
		}
	}
	cmd := exec.Command(helper, args...)
	cmd.Env = append(withoutVars(env, "TMPDIR", "HOME"), "TMPDIR="+tmp, "HOME="+tmp)
	cmd.Dir = tmp
	cmd.SysProcAttr = attr
	return &Prepared{Cmd: cmd, SocketGroup: group, Status: st, Cleanup: func() { os.RemoveAll(tmp) }}, nil
}

func withoutVars(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		for _, n := range names {
			if len(kv) > len(n) && kv[:len(n)+1] == n+"=" {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// User is a plugin's system account.
type User struct {
	Name     string
	UID, GID int
}

// UserName is the system account of plugin id: "vcplugin-<id>", shortened
// with a hash when longer than the 32 characters useradd allows.
func UserName(id string) string {
	name := "vcplugin-" + id
	if len(name) <= 32 {
		return name
	}
	sum := sha256.Sum256([]byte(id))
	return "vcplugin-" + id[:14] + "-" + hex.EncodeToString(sum[:])[:8]
}

var userMu sync.Mutex

// EnsureUser returns plugin id's system user and group, creating both
// (no home, no login shell, owning nothing) on first use.
func EnsureUser(id string) (User, error) {
	userMu.Lock()
	defer userMu.Unlock()
	name := UserName(id)
	var lastErr error
	for attempt := 0; attempt < 20; attempt++ {
		if u, err := user.Lookup(name); err == nil {
			uid, _ := strconv.Atoi(u.Uid)
			gid, _ := strconv.Atoi(u.Gid)
			if uid == 0 || gid == 0 {
				return User{}, fmt.Errorf("user %s is privileged", name)
			}
			return User{Name: name, UID: uid, GID: gid}, nil
		}
		// Another process may be creating it, or hold /etc/passwd's lock.
		out, err := exec.Command("useradd", "--system", "--user-group", "--no-create-home",
			"--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
			"--comment", "VetClube plugin "+id, name).CombinedOutput()
		if err == nil {
			continue
		}
		lastErr = fmt.Errorf("useradd %s: %w: %s", name, err, out)
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return User{}, lastErr
}
