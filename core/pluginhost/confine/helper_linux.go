package confine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// landlockConfig is pinned to ABI 7 (filesystem, TCP bind/connect, signal
// and abstract-socket scoping), degrading on older kernels. Newer ABIs also
// restrict connecting to pathname UNIX sockets, which go-plugin's broker
// needs towards the host's sockets; pinning keeps the rules identical on
// every kernel that has them.
var landlockConfig = landlock.V7.BestEffort()

// systemReadOnly is what a Go program (and a dynamically linked one) may
// need to read: CA certificates, time zones, name resolution, shared
// libraries. None of it is the core's.
var systemReadOnly = []string{
	"/etc/ssl", "/etc/pki", "/etc/ca-certificates", "/usr/share/ca-certificates", "/usr/lib/ssl",
	"/usr/share/zoneinfo", "/etc/localtime", "/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf",
	"/etc/services", "/etc/protocols", "/etc/host.conf", "/etc/gai.conf",
	"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache",
}

// dynamicLoaders must be executable (the kernel opens the ELF interpreter
// for execution) for dynamically linked plugins.
var dynamicLoaders = []string{
	"/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1",
}

// deniedSyscalls are never needed by a plugin and are the usual first steps
// of an escape: debugging or reading other processes, namespaces and
// mounts, kernel keyrings, BPF, perf, modules, io_uring (whose operations
// bypass this filter), handles that open files around path checks.
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
	"bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"open_by_handle_at", "name_to_handle_at",
	"swapon", "swapoff", "reboot", "acct", "quotactl", "syslog", "vhangup",
	"iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
}

// nsFlags are clone flags that would create namespaces.
var nsFlags = []uint64{
	unix.CLONE_NEWUSER, unix.CLONE_NEWNS, unix.CLONE_NEWPID, unix.CLONE_NEWNET,
	unix.CLONE_NEWUTS, unix.CLONE_NEWIPC, unix.CLONE_NEWCGROUP,
}

func seccompPolicy() seccomp.Policy {
	var cloneNS []seccomp.NameWithConditions
	for _, f := range nsFlags {
		cloneNS = append(cloneNS, seccomp.NameWithConditions{Name: "clone", Conditions: []seccomp.Condition{
			{Argument: 0, Operation: seccomp.BitsSet, Value: f},
		}})
	}
	// Multipath TCP escapes Landlock's TCP rules.
	mptcp := seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{
		{Argument: 2, Operation: seccomp.Equal, Value: unix.IPPROTO_MPTCP},
	}}
	return seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Names: deniedSyscalls, Action: seccomp.ActionErrno},
			{NamesWithCondtions: append(cloneNS, mptcp), Action: seccomp.ActionErrno},
			// clone3 passes its flags in memory the filter cannot read:
			// ENOSYS makes the C library and Go fall back to clone.
			{Names: []string{"clone3"}, Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS)},
		},
	}
}

// apply confines the current process as s says and execs the plugin; it
// returns only on failure.
func apply(s Spec) error {
	// Every per-thread setting (no_new_privs, Landlock, seccomp, the
	// parent-death signal) is made on the thread that calls execve.
	runtime.LockOSThread()

	f, err := os.Open(s.Plugin)
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("hash plugin: %w", err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != s.SHA256 {
		return fmt.Errorf("plugin checksum %s does not match the recorded %s", got, s.SHA256)
	}
	// The descriptor that was hashed is the one executed: a file swapped
	// after the check is never run.
	exe := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))

	var rulesetFD = -1
	var rulesetFlags uint32
	if s.Landlock {
		rules := []landlock.Rule{
			landlock.PathAccess(ll.AccessFSExecute|ll.AccessFSReadFile, s.Plugin),
			landlock.RWDirs(s.TmpDir),
			landlock.PathAccess(ll.AccessFSReadFile|ll.AccessFSWriteFile, "/dev/null"),
			landlock.PathAccess(ll.AccessFSReadFile, "/dev/urandom", "/dev/random").IgnoreIfMissing(),
			landlock.PathAccess(ll.AccessFSExecute|ll.AccessFSReadFile, dynamicLoaders...).IgnoreIfMissing(),
		}
		for _, p := range append(append([]string{}, systemReadOnly...), s.ReadOnly...) {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				rules = append(rules, landlock.PathAccess(ll.AccessFSReadFile|ll.AccessFSReadDir, p))
			} else if err == nil {
				rules = append(rules, landlock.PathAccess(ll.AccessFSReadFile, p))
			}
		}
		// Opened now, while the helper may still reach every path.
		rulesetFD, rulesetFlags, err = landlockConfig.NewRulesetFD(rules...)
		if err != nil {
			return fmt.Errorf("landlock ruleset: %w", err)
		}
		if rulesetFD < 0 {
			return errors.New("landlock is not available on this kernel")
		}
	}

	limits := []struct {
		res int
		val uint64
	}{
		{unix.RLIMIT_DATA, s.Memory},
		{unix.RLIMIT_NOFILE, s.OpenFiles},
		{unix.RLIMIT_NPROC, s.Processes},
		{unix.RLIMIT_CORE, 0},
		{unix.RLIMIT_FSIZE, 1 << 30},
	}
	for _, l := range limits {
		if l.val == 0 && l.res != unix.RLIMIT_CORE {
			continue
		}
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.val, Max: l.val}); err != nil {
			return fmt.Errorf("rlimit %d: %w", l.res, err)
		}
	}

	parent := os.Getppid()
	if s.UID > 0 {
		// Go applies these to every thread of the process.
		if err := syscall.Setgroups([]int{s.GID}); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
		if err := syscall.Setresgid(s.GID, s.GID, s.GID); err != nil {
			return fmt.Errorf("setgid: %w", err)
		}
		if err := syscall.Setresuid(s.UID, s.UID, s.UID); err != nil {
			return fmt.Errorf("setuid: %w", err)
		}
	}
	// Changing credentials clears the parent-death signal: set it after,
	// and give up if the core is already gone.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("pdeathsig: %w", err)
	}
	if os.Getppid() != parent {
		return errors.New("the core exited")
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if rulesetFD >= 0 {
		if err := ll.LandlockRestrictSelf(rulesetFD, rulesetFlags); err != nil {
			return fmt.Errorf("landlock: %w", err)
		}
		unix.Close(rulesetFD)
	}
	if s.Seccomp {
		if err := seccomp.LoadFilter(seccomp.Filter{Policy: seccompPolicy()}); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	err = syscall.Exec(exe, []string{s.Plugin}, os.Environ())
	// f must outlive the execve: once unreachable, its finalizer may close
	// the descriptor on a garbage collection (the code above allocates), and
	// the exec of /proc/self/fd/N then fails with "no such file or directory".
	runtime.KeepAlive(f)
	return err
}
