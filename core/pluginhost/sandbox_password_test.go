package pluginhost

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
)

// On a cluster that checks passwords, a plugin logs in with the password the
// core generated and stored for it, and a database whose stored password
// differs from the role's (another database of the cluster set its own)
// sets its own before connecting.
func TestSandboxLogsInWithItsPasswordOnAPasswordCluster(t *testing.T) {
	if _, err := postgres.BinDir(); err != nil {
		t.Skip("PostgreSQL server binaries are not installed")
	}
	ctx := context.Background()
	root, err := os.MkdirTemp("", "vc-pgpw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := postgres.StartCluster(ctx, root, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	// The embedded cluster asks every role for a password.
	sandbox := func(db string) (*Manager, error) {
		if err := c.EnsureDatabase(ctx, db); err != nil {
			t.Fatal(err)
		}
		pool, err := postgres.Open(ctx, c.URL(db))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if err := postgres.Migrate(ctx, pool, nil); err != nil {
			t.Fatal(err)
		}
		m := New(Options{Dir: t.TempDir()}, pool, points.New(pool), log)
		t.Cleanup(func() { _ = m.Close() })
		_, err = m.sandboxFor(ctx, "senha")
		return m, err
	}
	for _, db := range []string{"one", "two"} {
		m, err := sandbox(db)
		if err != nil {
			t.Fatalf("%s: %v", db, err)
		}
		_, _, err = m.pluginSQL(ctx, "senha", `CREATE TABLE t (x int)`, nil, false)
		if err != nil {
			t.Fatalf("%s: %v", db, err)
		}
	}
	// Without the password the role cannot log in at all.
	noPassword, err := postgres.WithUser(c.URL("one"), RoleName("senha"))
	if err != nil {
		t.Fatal(err)
	}
	if pool, err := postgres.Open(ctx, noPassword); err == nil {
		pool.Close()
		t.Fatal("the plugin role logged in without its password")
	}
}
