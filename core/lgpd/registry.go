// Package lgpd is the member's data under Brazil's LGPD: "Exportar meus
// dados" (a ZIP with one JSON file per area, the member's uploads and each
// tool's own export, e-mailed as a link valid 7 days, one a day) and
// "Excluir minha conta" (confirmed with the password or an e-mailed code, a
// 30-day grace that a sign-in cancels, then every area deleted or
// anonymised and a report of counts kept).
//
// The package owns only its request tables. Every other table is exported
// and erased by the package that owns it, through the Exporter and Eraser
// interfaces registered on one Registry (core/app wires it); durable timers
// run behind the small Workflows interface (workflows/ implements it on
// Temporal).
package lgpd

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Exporter answers one area's data of one member, JSON-encodable, that
// member's rows only.
type Exporter interface {
	ExportUser(ctx context.Context, userID string) (any, error)
}

// ExporterFunc is a function as an Exporter.
type ExporterFunc func(ctx context.Context, userID string) (any, error)

// ExportUser calls f.
func (f ExporterFunc) ExportUser(ctx context.Context, userID string) (any, error) {
	return f(ctx, userID)
}

// Eraser deletes or anonymises one area's data of one member and answers how
// many rows or files it touched. It must be idempotent: a retried step finds
// nothing left and answers 0.
type Eraser interface {
	EraseUser(ctx context.Context, userID string) (int64, error)
}

// EraserFunc is a function as an Eraser.
type EraserFunc func(ctx context.Context, userID string) (int64, error)

// EraseUser calls f.
func (f EraserFunc) EraseUser(ctx context.Context, userID string) (int64, error) {
	return f(ctx, userID)
}

// File is one file of an export, its path inside the ZIP and its bytes.
type File struct {
	Name string
	Data []byte
}

// FilesExporter answers files of one member (uploads, a tool's own export).
type FilesExporter interface {
	ExportFiles(ctx context.Context, userID string) ([]File, error)
}

// FilesFunc is a function as a FilesExporter.
type FilesFunc func(ctx context.Context, userID string) ([]File, error)

// ExportFiles calls f.
func (f FilesFunc) ExportFiles(ctx context.Context, userID string) ([]File, error) {
	return f(ctx, userID)
}

type namedExporter struct {
	name string
	e    Exporter
}

type namedFiles struct {
	folder string
	f      FilesExporter
}

type namedEraser struct {
	name string
	e    Eraser
}

// Registry is every area's exporter and eraser, registered while wiring.
type Registry struct {
	mu      sync.RWMutex
	areas   []namedExporter
	files   []namedFiles
	erasers []namedEraser
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// AddArea exports e's answer as <name>.json.
func (r *Registry) AddArea(name string, e Exporter) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.areas = append(r.areas, namedExporter{name, e})
}

// AddFiles puts f's files under folder/ in the ZIP.
func (r *Registry) AddFiles(folder string, f FilesExporter) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = append(r.files, namedFiles{folder, f})
}

// AddEraser runs e as the deletion step name, in registration order: steps
// that need the account (its e-mail, its name) come before the account's own.
func (r *Registry) AddEraser(name string, e Eraser) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.erasers = append(r.erasers, namedEraser{name, e})
}

// Steps are the deletion steps' names, in order.
func (r *Registry) Steps() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, len(r.erasers))
	for i, e := range r.erasers {
		out[i] = e.name
	}
	return out
}

// Areas are the exported areas' names, in order.
func (r *Registry) Areas() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, len(r.areas))
	for i, a := range r.areas {
		out[i] = a.name
	}
	return out
}

func (r *Registry) eraser(step string) (Eraser, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, e := range r.erasers {
		if e.name == step {
			return e.e, true
		}
	}
	return nil, false
}

// Querier runs queries (a pool or a transaction).
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Rows runs sql, whose single column is one JSON value per row (row_to_json,
// json_build_object), and answers them in order: the owners' exporters use it
// so an area's file is exactly its table's columns.
func Rows(ctx context.Context, q Querier, sql string, args ...any) ([]json.RawMessage, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("export rows: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (json.RawMessage, error) {
		var b []byte
		err := row.Scan(&b)
		return json.RawMessage(b), err
	})
	if err != nil {
		return nil, fmt.Errorf("export rows: %w", err)
	}
	if out == nil {
		out = []json.RawMessage{}
	}
	return out, nil
}
