package apptest

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/vetclube/vetclube/workflows"
)

// TemporalDev starts the embedded Temporal server (bin/temporal-dev, built
// when missing) for the test and stops it when the test ends.
func TemporalDev(t *testing.T) *workflows.DevServer {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the module root")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	bin := filepath.Join(root, "bin", "temporal-dev")
	if _, err := os.Stat(bin); err != nil {
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = filepath.Join(root, "workflows", "devserver")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build temporal-dev: %v\n%s", err, out)
		}
	}
	s, err := workflows.StartDevServer(context.Background(), bin, filepath.Join(t.TempDir(), "temporal.sqlite"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	return s
}
