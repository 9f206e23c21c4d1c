package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/vetclube/vetclube/core/postgres"
)

// The embedded cluster (`make run` without DATABASE_URL) runs the app as a
// non-superuser role that owns its database; a database left by an earlier
// version, owned by the superuser, is handed over to that role.
func TestEmbeddedClusterRunsTheAppAsANonSuperuserOwner(t *testing.T) {
	if _, err := postgres.BinDir(); err != nil {
		t.Skip("PostgreSQL server binaries are not installed")
	}
	ctx := context.Background()
	root, err := os.MkdirTemp("", "vc-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	c, err := postgres.StartCluster(ctx, root, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })

	// An earlier version's database: created and migrated by the superuser.
	super, err := postgres.Open(ctx, c.SuperURL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer super.Close()
	if _, err := super.Exec(ctx, `CREATE DATABASE legacy`); err != nil {
		t.Fatal(err)
	}
	legacy, err := postgres.Open(ctx, c.SuperURL("legacy"))
	if err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(ctx, legacy, nil); err != nil {
		t.Fatal(err)
	}
	legacy.Close()

	for _, db := range []string{"vetclube", "legacy"} {
		if err := c.EnsureDatabase(ctx, db); err != nil {
			t.Fatalf("%s: %v", db, err)
		}
		pool, err := postgres.Open(ctx, c.URL(db))
		if err != nil {
			t.Fatal(err)
		}
		if err := postgres.Migrate(ctx, pool, nil); err != nil {
			t.Fatalf("%s: migrate as the app role: %v", db, err)
		}
		var user, owner string
		var isSuper bool
		if err := pool.QueryRow(ctx, `SELECT session_user, r.rolsuper, pg_get_userbyid(d.datdba) FROM pg_roles r, pg_database d
			WHERE r.rolname = session_user AND d.datname = current_database()`).Scan(&user, &isSuper, &owner); err != nil {
			t.Fatal(err)
		}
		if user != postgres.AppRole || isSuper || owner != postgres.AppRole {
			t.Errorf("%s: session user %q superuser %v owner %q", db, user, isSuper, owner)
		}
		// The app can use what it inherited.
		if _, err := pool.Exec(ctx, `INSERT INTO users (email) VALUES ('a@exemplo.com.br')`); err != nil {
			t.Errorf("%s: %v", db, err)
		}
		pool.Close()
	}
}
