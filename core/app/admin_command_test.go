package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// TestAdminGrantRevoke runs the real CLI entry point against a real database.
func TestAdminGrantRevoke(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewURL(t)
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var userID string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('ana@example.com') RETURNING id::text`).Scan(&userID); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": dbURL, "DATA_DIR": t.TempDir(), "LOG_LEVEL": "error"}
	run := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := app.Run(ctx, nil, args, func(k string) string { return env[k] }, &out, &errOut)
		return out.String(), err
	}
	rolesOf := func() string {
		var r []string
		if err := pool.QueryRow(ctx, `SELECT COALESCE(array_agg(role ORDER BY role), '{}') FROM user_roles WHERE user_id = $1`, userID).Scan(&r); err != nil {
			t.Fatal(err)
		}
		return strings.Join(r, ",")
	}

	steps := []struct {
		args      []string
		wantOut   string
		wantErr   string
		wantRoles string
	}{
		{[]string{"admin", "grant", " Ana@Example.com ", "editor"}, "granted editor to ana@example.com", "", "editor"},
		{[]string{"admin", "grant", "ana@example.com", "editor"}, "ana@example.com already has editor", "", "editor"},
		{[]string{"admin", "grant", "ana@example.com", "super_admin"}, "granted super_admin to ana@example.com", "", "editor,super_admin"},
		{[]string{"admin", "revoke", "ana@example.com", "editor"}, "revoked editor from ana@example.com", "", "super_admin"},
		{[]string{"admin", "revoke", "ana@example.com", "editor"}, "ana@example.com did not have editor", "", "super_admin"},
		{[]string{"admin", "grant", "ana@example.com", "admin"}, "", `unknown role "admin"; valid roles: editor, revisor, moderador, recrutador, super_admin`, "super_admin"},
		{[]string{"admin", "grant", "ana@example.com", "premium"}, "", `unknown role "premium" (trial and premium follow the subscription); valid roles: editor, revisor, moderador, recrutador, super_admin`, "super_admin"},
		{[]string{"admin", "grant", "ana@example.com", "user"}, "", `unknown role "user" (every account already is a user); valid roles: editor, revisor, moderador, recrutador, super_admin`, "super_admin"},
		{[]string{"admin", "grant", "nobody@example.com", "editor"}, "", "no account with that email nobody@example.com", "super_admin"},
		{[]string{"admin", "promote", "ana@example.com", "editor"}, "", "usage: vetclube admin grant|revoke EMAIL ROLE", "super_admin"},
		{[]string{"admin", "grant", "ana@example.com"}, "", "usage: vetclube admin grant|revoke EMAIL ROLE", "super_admin"},
	}
	for _, s := range steps {
		out, err := run(s.args...)
		if s.wantErr == "" && err != nil {
			t.Errorf("%v: %v", s.args, err)
		}
		if s.wantErr != "" && (err == nil || err.Error() != s.wantErr) {
			t.Errorf("%v: error %v, want %q", s.args, err, s.wantErr)
		}
		if strings.TrimSpace(out) != s.wantOut {
			t.Errorf("%v: printed %q, want %q", s.args, out, s.wantOut)
		}
		if got := rolesOf(); got != s.wantRoles {
			t.Errorf("%v: roles %q, want %q", s.args, got, s.wantRoles)
		}
	}
}
