package pluginhost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// Plugin roles are cluster-wide: several core instances on different
// databases (parallel test processes, several deployments on one cluster)
// create the same role at once. Every one must end with a working sandbox
// logged in as that role, with its attributes right.
func TestSandboxCreationIsRaceSafeAcrossDatabases(t *testing.T) {
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	id := "race-" + hex.EncodeToString(b)
	// Registered first, so it runs after the databases owning its schemas
	// are dropped.
	t.Cleanup(func() {
		admin, err := postgres.Open(ctx, pgtest.AdminURL())
		if err != nil {
			t.Log(err)
			return
		}
		defer admin.Close()
		if _, err := admin.Exec(ctx, `DROP ROLE IF EXISTS `+pgx.Identifier{RoleName(id)}.Sanitize()); err != nil {
			t.Log(err)
		}
	})
	pools := []*pgxpool.Pool{pgtest.New(t), pgtest.New(t), pgtest.New(t)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		pool := pools[i%len(pools)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := New(Options{Dir: t.TempDir()}, pool, points.New(pool), log)
			defer m.Close()
			sb, err := m.sandboxFor(ctx, id)
			if err != nil {
				errs <- err
				return
			}
			var user, path string
			if err := sb.QueryRow(ctx, `SELECT session_user, current_setting('search_path')`).Scan(&user, &path); err != nil {
				errs <- err
				return
			}
			if user != RoleName(id) || path != SchemaName(id) {
				t.Errorf("sandbox session %q path %q", user, path)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var login, inherit, super, createRole, createDB bool
	if err := pools[0].QueryRow(ctx, `SELECT rolcanlogin, rolinherit, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1`, RoleName(id)).
		Scan(&login, &inherit, &super, &createRole, &createDB); err != nil {
		t.Fatal(err)
	}
	if !login || inherit || super || createRole || createDB {
		t.Fatalf("role attributes: login %v inherit %v super %v createrole %v createdb %v", login, inherit, super, createRole, createDB)
	}
}
