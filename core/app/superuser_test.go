package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// In production the server refuses a superuser database session, and says
// why in its log; the non-superuser owner role starts, and development only
// warns.
func TestProductionRefusesASuperuserDatabaseSession(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewURL(t)
	run := func(env map[string]string) (string, error) {
		var out, errOut bytes.Buffer
		env["DATA_DIR"] = t.TempDir()
		err := app.Run(ctx, nil, []string{"migrate"}, func(k string) string { return env[k] }, &out, &errOut)
		return errOut.String(), err
	}

	logs, err := run(map[string]string{"APP_ENV": "production", "DATABASE_URL": pgtest.SuperuserURL(dbURL)})
	if err == nil || !strings.Contains(err.Error(), "refusing to run as a PostgreSQL superuser in production") {
		t.Fatalf("production as superuser: err = %v", err)
	}
	if !strings.Contains(logs, "database user is a superuser: refusing to start in production") || !strings.Contains(logs, "CREATEROLE") {
		t.Errorf("log does not say why:\n%s", logs)
	}

	if logs, err := run(map[string]string{"APP_ENV": "production", "DATABASE_URL": dbURL}); err != nil {
		t.Fatalf("production as the owner role: %v\n%s", err, logs)
	}
	logs, err = run(map[string]string{"APP_ENV": "development", "DATABASE_URL": pgtest.SuperuserURL(dbURL)})
	if err != nil || !strings.Contains(logs, "database user is a superuser") {
		t.Fatalf("development as superuser: err %v, log:\n%s", err, logs)
	}
}
