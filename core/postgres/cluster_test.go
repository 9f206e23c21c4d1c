package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// The embedded cluster asks every role for a password on every connection:
// the superuser's is generated at first start and kept in a file only the
// core's user can read; a cluster left trusting by an earlier version is
// closed at its next start.
func TestEmbeddedClusterRequiresPasswords(t *testing.T) {
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
	if err := c.EnsureDatabase(ctx, "vetclube"); err != nil {
		t.Fatal(err)
	}

	closed := func(when string) {
		t.Helper()
		fi, err := os.Stat(postgres.PasswordFile(root))
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm() != 0o600 || int(st.Uid) != os.Geteuid() {
			t.Errorf("%s: password file mode %v owner %d, want 0600 and the core's user", when, fi.Mode().Perm(), st.Uid)
		}
		for _, u := range []string{c.SuperURL("vetclube"), c.URL("vetclube")} {
			pool, err := postgres.Open(ctx, u)
			if err != nil {
				t.Fatalf("%s: with its password: %v", when, err)
			}
			pool.Close()
			bare, _ := postgres.WithUser(u, userOf(u))
			if pool, err := postgres.Open(ctx, bare); err == nil {
				pool.Close()
				t.Errorf("%s: %s logged in without a password", when, userOf(u))
			}
			wrong := strings.Replace(u, ":"+postgres.URLPassword(u)+"@", ":errada@", 1)
			if pool, err := postgres.Open(ctx, wrong); err == nil {
				pool.Close()
				t.Errorf("%s: %s logged in with a wrong password", when, userOf(u))
			}
		}
	}
	closed("new cluster")

	// A cluster from before: trusting, no password file.
	hba := filepath.Join(c.DataDir, "pg_hba.conf")
	if err := os.WriteFile(hba, []byte("local all all trust\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	super, err := postgres.Open(ctx, c.SuperURL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = super.Exec(ctx, `SELECT pg_reload_conf()`)
	super.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(postgres.PasswordFile(root)); err != nil {
		t.Fatal(err)
	}
	old := c.SuperURL("postgres")
	if c, err = postgres.StartCluster(ctx, root, log); err != nil {
		t.Fatal(err)
	}
	if err := c.EnsureDatabase(ctx, "vetclube"); err != nil {
		t.Fatal(err)
	}
	if c.SuperURL("postgres") == old {
		t.Error("the superuser kept its old password")
	}
	closed("legacy cluster after its next start")
}

func userOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.User.Username()
}
