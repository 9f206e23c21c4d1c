package sdk

import (
	"encoding/json"
	"fmt"
	"sort"
)

// ExportFile is one file of a member's data export, its name relative to
// the plugin's folder in the ZIP ("pacientes.json", "laudos/123.pdf").
type ExportFile struct {
	Name string
	Data []byte
}

// ExportFiles turns files keyed by name into ExportUser's answer, in name
// order so the same data always makes the same ZIP.
func ExportFiles(byName map[string][]byte) []ExportFile {
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]ExportFile, 0, len(names))
	for _, n := range names {
		out = append(out, ExportFile{Name: n, Data: byName[n]})
	}
	return out
}

// JSONFile is an ExportFile holding v as indented JSON.
func JSONFile(name string, v any) (ExportFile, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ExportFile{}, fmt.Errorf("export %s: %w", name, err)
	}
	return ExportFile{Name: name, Data: b}, nil
}
