package migrations

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A table has one writer: the package table_owners.txt names. Every other
// package reads it through the owner's SQL builders or changes it through the
// owner's API, so a rule about a table lives in one place.

var (
	createTable = regexp.MustCompile(`(?i)CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)`)
	writeTable  = regexp.MustCompile(`(?i)\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?(?:public\.)?([a-z_][a-z0-9_]*)`)
)

func readOwners(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("table_owners.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	owners := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Fatalf("table_owners.txt:%d: want \"table owner-package\", got %q", n, line)
		}
		if _, dup := owners[fields[0]]; dup {
			t.Fatalf("table_owners.txt:%d: %s listed twice", n, fields[0])
		}
		owners[fields[0]] = fields[1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return owners
}

// TestEveryTableHasAnOwner keeps the map complete: a migration that creates a
// table must name its writer.
func TestEveryTableHasAnOwner(t *testing.T) {
	owners := readOwners(t)
	created := map[string]bool{}
	files, err := fs.Glob(FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range createTable.FindAllStringSubmatch(string(b), -1) {
			created[strings.ToLower(m[1])] = true
		}
	}
	for table := range created {
		if _, ok := owners[table]; !ok {
			t.Errorf("table %s is created by a migration but has no owner in table_owners.txt", table)
		}
	}
	for table := range owners {
		if !created[table] {
			t.Errorf("table_owners.txt names %s, which no migration creates", table)
		}
	}
}

// TestTablesWrittenOnlyByOwner parses every non-test Go file of the module
// and fails on a string literal that writes a mapped table outside its owner
// package (or the owner's subpackages).
func TestTablesWrittenOnlyByOwner(t *testing.T) {
	owners := readOwners(t)
	violations := tableWriteViolations(t, "..", owners)
	for _, v := range violations {
		t.Error(v)
	}
}

func tableWriteViolations(t *testing.T, root string, owners map[string]string) []string {
	t.Helper()
	var out []string
	// bench/ loads benchmark volumes (thousands of rows) straight into the
	// tables, like a test fixture; it is not part of the running product.
	skip := []string{"node_modules", "web", "admin", "bin", "bench", "testdata"}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (slices.Contains(skip, d.Name()) || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range writeTable.FindAllStringSubmatch(s, -1) {
				table := strings.ToLower(m[1])
				owner, mapped := owners[table]
				if !mapped || pkg == owner || strings.HasPrefix(pkg, owner+"/") {
					continue
				}
				out = append(out, fset.Position(lit.Pos()).String()+": "+pkg+" writes "+table+", owned by "+owner)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
