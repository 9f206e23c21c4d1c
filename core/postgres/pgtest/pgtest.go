// Package pgtest gives each test its own freshly migrated PostgreSQL database,
// cloned from a template database so that a new one costs tens of
// milliseconds instead of a full migration run.
//
// The server comes from TEST_DATABASE_URL (default: the machine's PostgreSQL
// on 127.0.0.1:5432, trust auth). `make test` starts a private cluster and
// sets TEST_DATABASE_URL when none is reachable. That URL is a superuser's,
// used only to create roles and databases: every test database is owned by
// postgres.AppRole (a non-superuser with CREATEROLE) and the pools and URLs
// handed to tests connect as it, exactly like the app in production.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/migrations"
)

const defaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// AdminURL is the maintenance connection used to create test databases.
func AdminURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return defaultURL
}

// New creates an isolated, migrated database for t and returns a pool on it.
// The database is dropped when the test ends.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Open(context.Background(), NewURL(t))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// NewURL creates an isolated, migrated database for t and returns its URL,
// for tests that start whole server instances against it.
func NewURL(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	admin, err := postgres.Open(ctx, AdminURL())
	if err != nil {
		t.Fatalf("pgtest: no PostgreSQL at TEST_DATABASE_URL (%s); run the tests with `make test`, which starts one: %v", AdminURL(), err)
	}
	defer admin.Close()

	if err := postgres.EnsureAppRole(ctx, admin, postgres.AppRole); err != nil {
		t.Fatalf("pgtest: role %s: %v", postgres.AppRole, err)
	}
	// On a server that asks for passwords (the private cluster `make test`
	// starts), the app role logs in with the one derived from the
	// superuser's; a trusting server ignores it.
	passwordOnce.Do(func() {
		passwordErr = postgres.SetPassword(ctx, admin, postgres.AppRole, appPassword())
	})
	if passwordErr != nil {
		t.Fatalf("pgtest: %v", passwordErr)
	}
	tpl, err := ensureTemplate(ctx, admin)
	if err != nil {
		t.Fatalf("pgtest: template: %v", err)
	}
	name := "vetclube_test_" + randomHex(8)
	// Two CREATE DATABASE from one template at the same instant can fail with
	// "source database is being accessed by other users": retry briefly.
	for attempt := 0; ; attempt++ {
		_, err = admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s OWNER %s", name, tpl, postgres.AppRole))
		if err == nil || attempt == 20 || !strings.Contains(err.Error(), "being accessed by other users") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin, err := postgres.Open(ctx, AdminURL())
		if err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
			return
		}
		defer admin.Close()
		if _, err := admin.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
		}
	})
	return appURL(name)
}

var (
	passwordOnce sync.Once
	passwordErr  error
)

func appPassword() string { return postgres.AppPassword(postgres.URLPassword(AdminURL())) }

// appURL is database db on the test server as postgres.AppRole.
func appURL(db string) string {
	raw, err := postgres.WithUser(withDatabase(AdminURL(), db), postgres.AppRole)
	if err != nil {
		panic(fmt.Sprintf("pgtest: bad TEST_DATABASE_URL: %v", err))
	}
	if pw := appPassword(); pw != "" {
		u, _ := url.Parse(raw)
		u.User = url.UserPassword(postgres.AppRole, pw)
		raw = u.String()
	}
	return raw
}

// SuperuserURL returns dbURL (a URL from NewURL) as the test server's
// superuser, for tests of what the app does when misconfigured that way.
func SuperuserURL(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		panic(err)
	}
	return withDatabase(AdminURL(), strings.TrimPrefix(u.Path, "/"))
}

// ensureTemplate returns the name of a template database migrated to the
// current migrations, building it once per distinct migration set.
func ensureTemplate(ctx context.Context, admin *pgxpool.Pool) (string, error) {
	sum, err := migrationsHash()
	if err != nil {
		return "", err
	}
	tpl := "vetclube_tpl_" + sum
	conn, err := admin.Acquire(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Release()
	// Serialise template creation across every test binary running at once.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(hashtext($1))", tpl); err != nil {
		return "", err
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock(hashtext($1))", tpl) //nolint:errcheck

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tpl).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return tpl, nil
	}
	building := tpl + "_building"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+building+" OWNER "+postgres.AppRole); err != nil {
		return "", err
	}
	// Migrations run as the app role, so they are proven to work without a
	// superuser and every table belongs to that role.
	pool, err := postgres.Open(ctx, appURL(building))
	if err != nil {
		return "", err
	}
	err = postgres.Migrate(ctx, pool, nil)
	pool.Close()
	if err != nil {
		return "", err
	}
	// Renaming last means a half-built template is never used.
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, tpl)); err != nil {
		return "", err
	}
	return tpl, nil
}

func migrationsHash() (string, error) {
	h := sha256.New()
	// Templates built before the app role existed belong to the superuser.
	h.Write([]byte("owner:" + postgres.AppRole))
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

func withDatabase(raw, db string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(fmt.Sprintf("pgtest: bad TEST_DATABASE_URL: %v", err))
	}
	u.Path = "/" + db
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
