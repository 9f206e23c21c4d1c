package sdktest_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

// The newest definition wins, and both the IN list, a WHEN branch and a
// type comparison name handled types.
func TestProjectionReads(t *testing.T) {
	dir := t.TempDir()
	write := func(name, sql string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(sql), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("001_a.sql", `CREATE FUNCTION x_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN f := NEW.fields; v := f->>'old_name'; END $$;`)
	write("002_b.sql", `CREATE OR REPLACE FUNCTION x_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF typ NOT IN ('a', 'a-b') THEN RETURN NULL; END IF;
  IF NEW.type <> 'c' THEN RETURN NULL; END IF;
  CASE typ WHEN 'd' THEN v := coalesce(f->>'title_x', ''); ELSE w := f -> 'tags'; END CASE;
END $$;
CREATE FUNCTION other() RETURNS void LANGUAGE sql AS $$ SELECT f->>'elsewhere' $$;`)
	types, fields, err := sdktest.ProjectionReads(dir, "x_sync")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(types)
	slices.Sort(fields)
	if !slices.Equal(types, []string{"a", "a-b", "c", "d"}) || !slices.Equal(fields, []string{"tags", "title_x"}) {
		t.Fatalf("types %v, fields %v", types, fields)
	}
	if _, _, err := sdktest.ProjectionReads(dir, "missing_sync"); err == nil {
		t.Fatal("a missing function was found")
	}
}
