package pgtest_test

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// The app must never run as a superuser, in tests either: a test database
// belongs to the non-superuser app role, the pool connects as it, and every
// table was created by it (so migrations are proven to need no superuser).
func TestDatabasesBelongToTheNonSuperuserAppRole(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var user, owner string
	var super, createRole bool
	if err := pool.QueryRow(ctx, `SELECT session_user, r.rolsuper, r.rolcreaterole, pg_get_userbyid(d.datdba)
		FROM pg_roles r, pg_database d WHERE r.rolname = session_user AND d.datname = current_database()`).
		Scan(&user, &super, &createRole, &owner); err != nil {
		t.Fatal(err)
	}
	if user != postgres.AppRole || super || !createRole || owner != postgres.AppRole {
		t.Fatalf("session user %q (superuser %v, createrole %v), database owner %q; want %q, not superuser, createrole, owner",
			user, super, createRole, owner, postgres.AppRole)
	}
	var foreign []string
	rows, err := pool.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r' AND pg_get_userbyid(c.relowner) <> $1`, postgres.AppRole)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		foreign = append(foreign, n)
	}
	if rows.Err() != nil || len(foreign) > 0 {
		t.Fatalf("tables not owned by the app role: %v (%v)", foreign, rows.Err())
	}
	if super, err := postgres.IsSuperuser(ctx, pool); err != nil || super {
		t.Fatalf("IsSuperuser = %v, %v", super, err)
	}
	var canCreate bool
	if err := pool.QueryRow(ctx, `SELECT has_schema_privilege('public', 'public', 'CREATE')`).Scan(&canCreate); err != nil || canCreate {
		t.Fatalf("PUBLIC may create in schema public: %v %v", canCreate, err)
	}
}
