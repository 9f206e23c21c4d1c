package sdktest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// The read models the core keeps of a plugin's content (course listings,
// video listings, event listings) are filled by SQL triggers that read the
// published item's fields by name (f->>'price'). Those names are a contract
// between the plugin, which declares its fields, and the migration, which
// reads them; neither the compiler nor the host sees it. A test compares
// them instead of moving the projections into Go: the triggers keep the read
// models in the same transaction as the publication (a listing can never
// lag behind or miss a publish), and a test is enough to make the contract
// fail loudly the day a field is renamed on one side only.

var (
	fieldReadPattern = regexp.MustCompile(`\bf\s*->>?\s*'([^']+)'`)
	typeTestPattern  = regexp.MustCompile(`(?i)\b(?:typ|type)\s*(?:NOT\s+IN|IN|<>|=)\s*\(?\s*('[^']+'(?:\s*,\s*'[^']+')*)`)
	typeCasePattern  = regexp.MustCompile(`(?i)\bWHEN\s+'([^']+)'\s+THEN`)
	quotedPattern    = regexp.MustCompile(`'([^']+)'`)
	// A migration's Down section restores an older definition: it is not
	// the one in force.
	downPattern = regexp.MustCompile(`(?m)^--\s*\+goose\s+Down`)
)

// ProjectionReads finds the newest definition of the SQL function named
// function in the Up sections of the *.sql files of dir (in file name
// order, so a later migration's CREATE OR REPLACE wins) and returns the
// content type ids it tests the row's type against and the field names it
// reads from f, the item's fields (f->>'name' or f->'name').
func ProjectionReads(dir, function string) (types, fields []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	start := regexp.MustCompile(`(?i)CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+` + regexp.QuoteMeta(function) + `\s*\(`)
	var body string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, err
		}
		src := string(b)
		if loc := downPattern.FindStringIndex(src); loc != nil {
			src = src[:loc[0]]
		}
		for _, loc := range start.FindAllStringIndex(src, -1) {
			rest := src[loc[1]:]
			open := strings.Index(rest, "$$")
			if open < 0 {
				return nil, nil, fmt.Errorf("%s: %s has no $$ body", name, function)
			}
			end := strings.Index(rest[open+2:], "$$")
			if end < 0 {
				return nil, nil, fmt.Errorf("%s: %s's body does not end", name, function)
			}
			body = rest[open+2 : open+2+end]
		}
	}
	if body == "" {
		return nil, nil, fmt.Errorf("no function %s in %s", function, dir)
	}
	add := func(list []string, v string) []string {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
		return list
	}
	for _, m := range typeTestPattern.FindAllStringSubmatch(body, -1) {
		for _, q := range quotedPattern.FindAllStringSubmatch(m[1], -1) {
			types = add(types, q[1])
		}
	}
	for _, m := range typeCasePattern.FindAllStringSubmatch(body, -1) {
		types = add(types, m[1])
	}
	for _, m := range fieldReadPattern.FindAllStringSubmatch(body, -1) {
		fields = add(fields, m[1])
	}
	return types, fields, nil
}

// CheckProjection fails t when the trigger function named function (in the
// migrations in dir) tests a type id that types do not declare, or reads a
// field that none of the types it handles declares. A function that handles
// none of types, or reads no field, fails too: the check must cover
// something. Fields are matched against the union of the handled types'
// fields (computed ones included), which catches a field renamed or dropped
// on one side.
func CheckProjection(t testing.TB, dir, function string, types []sdk.ContentType) {
	t.Helper()
	handled, read, err := ProjectionReads(dir, function)
	if err != nil {
		t.Fatal(err)
	}
	if len(handled) == 0 || len(read) == 0 {
		t.Fatalf("%s: found types %v and fields %v: the check covers nothing", function, handled, read)
	}
	declared := map[string]bool{}
	for _, id := range handled {
		i := slices.IndexFunc(types, func(ct sdk.ContentType) bool { return ct.ID == id })
		if i < 0 {
			t.Errorf("%s handles type %q, which the plugin does not declare", function, id)
			continue
		}
		for _, f := range types[i].Fields {
			declared[f.Name] = true
		}
	}
	for _, f := range read {
		if !declared[f] {
			t.Errorf("%s reads field %q, which no type it handles (%v) declares", function, f, handled)
		}
	}
}
