package workflows

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DevServer is a running embedded Temporal dev server (bin/temporal-dev,
// built from workflows/devserver) in a child process.
type DevServer struct {
	Addr  string
	cmd   *exec.Cmd
	stdin io.Closer
	done  chan struct{}
}

// StartDevServer runs bin with its SQLite database at dbPath and waits until
// it serves. The child is in its own process group, gets SIGKILL if this
// process dies (Pdeathsig) and also exits when its stdin closes, so it never
// outlives the app.
//
// The child picks its free ports by listening on port 0 and closing, so
// another process can take one before the server binds it; a child that exits
// before it is ready is therefore started again, up to three times in all.
func StartDevServer(ctx context.Context, bin, dbPath string, log *slog.Logger) (*DevServer, error) {
	const attempts = 3
	for attempt := 1; ; attempt++ {
		s, err := startDevServerOnce(ctx, bin, dbPath, log)
		if !errors.Is(err, errExitedEarly) || attempt == attempts || ctx.Err() != nil {
			return s, err
		}
		log.Warn("temporal dev server exited before it was ready; starting it again", "attempt", attempt)
	}
}

var errExitedEarly = errors.New("temporal dev server exited before it was ready (see its log next to the database)")

func startDevServerOnce(ctx context.Context, bin, dbPath string, log *slog.Logger) (*DevServer, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("temporal dev server binary %s: %w (build it with `make bin/temporal-dev`)", bin, err)
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-db", dbPath, "-port", "0", "-exit-on-stdin-eof")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start temporal dev server: %w", err)
	}
	s := &DevServer{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()

	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "temporal-dev ready "); ok {
				addr, _, _ := strings.Cut(rest, " ")
				ready <- addr
			}
		}
	}()
	select {
	case s.Addr = <-ready:
		log.Info("temporal dev server ready", "addr", s.Addr, "db", dbPath, "pid", cmd.Process.Pid, "took", time.Since(start).Round(time.Millisecond))
		return s, nil
	case <-s.done:
		return nil, errExitedEarly
	case <-time.After(2 * time.Minute):
	case <-ctx.Done():
	}
	_ = s.Kill()
	return nil, errors.New("temporal dev server did not become ready")
}

// Pid is the child's process id.
func (s *DevServer) Pid() int { return s.cmd.Process.Pid }

// Stop asks the server to shut down and waits, killing it after 10 s.
func (s *DevServer) Stop() error {
	_ = s.stdin.Close()
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
		return nil
	case <-time.After(10 * time.Second):
		return s.Kill()
	}
}

// Kill ends the server at once (kill -9), as a crash would.
func (s *DevServer) Kill() error {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	return nil
}
