//go:build !linux

package confine

import (
	"errors"
	"os/exec"
)

// MarkNonDumpable is a no-op outside Linux.
func MarkNonDumpable() error { return nil }

// Capabilities are the mechanisms this host can apply: none outside Linux.
type Capabilities struct {
	Root     bool
	UserNS   bool
	Landlock int
	Seccomp  bool
}

// Probe reports that nothing is available.
func Probe() Capabilities { return Capabilities{} }

// Options are the host's confinement settings.
type Options struct {
	Disabled    bool
	Helper      string
	ForceUserNS bool
	Skip        []string
	Memory      uint64
	OpenFiles   uint64
	Processes   uint64
}

// Prepared is one plugin start.
type Prepared struct {
	Cmd         *exec.Cmd
	SocketGroup string
	Status      Status
	Cleanup     func()
}

// Prepare starts plugins unconfined outside Linux and says so.
func Prepare(opts Options, id, path, sum string, env []string) (*Prepared, error) {
	cmd := exec.Command(path)
	cmd.Env = env
	st := Status{Enabled: !opts.Disabled, Missing: []string{"user", "landlock", "network", "signals", "seccomp", "memory", "open_files", "processes"}}
	if opts.Disabled {
		st.Missing = []string{"all"}
	}
	return &Prepared{Cmd: cmd, Status: st, Cleanup: func() {}}, nil
}

func apply(Spec) error { return errors.New("plugin confinement needs Linux") }

func outer(Spec) int { return 126 }
