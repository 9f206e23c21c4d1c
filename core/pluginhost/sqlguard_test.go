package pluginhost

import (
	"strings"
	"testing"
)

// The statement checks see through comments, quoting and case, and do not
// mistake text inside literals or bodies for statements.
func TestCheckCall(t *testing.T) {
	refused := []string{
		"SELECT 1; SELECT 2",
		"SELECT 1;SELECT 2;",
		"RESET ROLE",
		"  -- comment\n  reset role",
		"/* a /* nested */ comment */ SET search_path TO public",
		"set local role postgres",
		"SELECT set_config('role', 'x', false)",
		`SELECT "set_config"('role', 'x', false)`,
		"SELECT PG_CATALOG.SET_CONFIG('a', 'b', false)",
		"BEGIN", "commit", "SAVEPOINT a", "LISTEN x", "COPY t TO STDOUT",
		"ALTER ROLE CURRENT_USER PASSWORD 'x'", "CREATE EXTENSION dblink", "CREATE SCHEMA s",
		"SELECT pg_read_file('/etc/passwd')", "SELECT pg_notify('user_events', 'x')",
		"", "   ;  ", "SELECT 'unterminated",
		"SELECT 1 /* unterminated",
		"SELECT $x$ unterminated",
	}
	for _, sql := range refused {
		if err := checkCall(sql); err == nil {
			t.Errorf("allowed: %q", sql)
		}
	}
	allowed := []string{
		"SELECT 1",
		"SELECT 1;",
		"SELECT 'a; RESET ROLE' AS x",
		"SELECT E'it\\'s; SET ROLE x' AS x",
		"SELECT $$; SET ROLE x$$",
		"SELECT $tag$ ; RESET ROLE $tag$",
		"UPDATE notes SET body = $1 WHERE id = $2",
		"INSERT INTO notes (body) VALUES ('set_config')",
		`SELECT "select" FROM "quoted;table"`,
		"-- leading comment\nSELECT 1",
		"CREATE FUNCTION f() RETURNS int LANGUAGE sql SET search_path = plugin_x AS 'SELECT 1'",
	}
	for _, sql := range allowed {
		if err := checkCall(sql); err != nil {
			t.Errorf("refused %q: %v", sql, err)
		}
	}
	stmts, err := checkMigration("CREATE TABLE a (x text DEFAULT ';');\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;\n-- done\n")
	if err != nil || len(stmts) != 2 || !strings.HasPrefix(stmts[1], "CREATE FUNCTION") {
		t.Fatalf("migration split: %q, %v", stmts, err)
	}
	if _, err := checkMigration("CREATE TABLE a (x int); RESET ROLE; CREATE TABLE public.b (x int)"); err == nil {
		t.Fatal("a migration with RESET ROLE was allowed")
	}
}
