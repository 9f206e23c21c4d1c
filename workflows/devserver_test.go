package workflows_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/vetclube/vetclube/workflows"
)

// A dev server that dies before it is ready (one of its freshly picked ports
// taken by another process) is started again instead of failing the app.
func TestDevServerStartedAgainAfterEarlyExit(t *testing.T) {
	real := devServerBinary(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "failed-once")
	// The first start exits at once, as a child whose port was stolen does;
	// the second runs the real server.
	wrapper := filepath.Join(dir, "temporal-dev-flaky")
	script := "#!/bin/sh\nif [ ! -e '" + marker + "' ]; then touch '" + marker + "'; echo 'bind: address already in use' >&2; exit 1; fi\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := workflows.StartDevServer(context.Background(), wrapper, filepath.Join(dir, "temporal.sqlite"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("start after one early exit: %v", err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the first attempt did not run: %v", err)
	}
	if s.Addr == "" {
		t.Fatal("no address from the second attempt")
	}
}

// A binary that never gets ready is given up after three attempts, with the
// early-exit reason.
func TestDevServerGivesUpAfterThreeEarlyExits(t *testing.T) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "starts")
	wrapper := filepath.Join(dir, "temporal-dev-broken")
	script := "#!/bin/sh\necho x >> '" + counter + "'\nexit 1\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := workflows.StartDevServer(context.Background(), wrapper, filepath.Join(dir, "temporal.sqlite"), slog.New(slog.DiscardHandler))
	if err == nil {
		t.Fatal("a binary that always exits was reported as started")
	}
	starts, _ := os.ReadFile(counter)
	if got := len(starts) / 2; got != 3 {
		t.Fatalf("started %d times, want 3", got)
	}
}
