package pluginhost

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// SchemaName is the PostgreSQL schema that holds a plugin's own tables.
func SchemaName(pluginID string) string {
	return "plugin_" + strings.ReplaceAll(pluginID, "-", "_")
}

// migrateSchema applies the plugin's migrations not yet recorded in
// plugin_migrations, in version order, each in the plugin's schema. An
// advisory lock keeps two core instances from running them twice.
func migrateSchema(ctx context.Context, pool *pgxpool.Pool, pluginID string, migs []*pluginpb.Migration) error {
	if len(migs) == 0 {
		return nil
	}
	schema := pgx.Identifier{SchemaName(pluginID)}.Sanitize()
	return postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('plugin-migrations:' || $1))`, pluginID); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+schema); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		applied := map[int32]bool{}
		rows, err := tx.Query(ctx, `SELECT version FROM plugin_migrations WHERE plugin_id = $1`, pluginID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var v int32
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			applied[v] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		last := int32(0)
		for _, m := range migs {
			if m.Version <= last {
				return fmt.Errorf("migration versions must increase: %d after %d", m.Version, last)
			}
			last = m.Version
			if applied[m.Version] {
				continue
			}
			if _, err := tx.Exec(ctx, `SET LOCAL search_path TO `+schema); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, m.Sql); err != nil {
				return fmt.Errorf("migration %d %s: %w", m.Version, m.Name, err)
			}
			if _, err := tx.Exec(ctx, `SET LOCAL search_path TO public`); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO plugin_migrations (plugin_id, version, name) VALUES ($1, $2, $3)`, pluginID, m.Version, m.Name); err != nil {
				return err
			}
		}
		return nil
	})
}

// inSchema runs fn in a transaction whose search_path is the plugin's schema.
func inSchema(ctx context.Context, pool *pgxpool.Pool, pluginID string, fn func(tx pgx.Tx) error) error {
	return postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL search_path TO `+pgx.Identifier{SchemaName(pluginID)}.Sanitize()); err != nil {
			return err
		}
		return fn(tx)
	})
}

// decodeArgs turns the JSON argument array into values pgx encodes: whole
// numbers as int64, other numbers as float64, objects and arrays as JSON text.
func decodeArgs(raw []byte) ([]any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("args must be a JSON array: %w", err)
	}
	out := make([]any, len(items))
	for i, it := range items {
		s := strings.TrimSpace(string(it))
		switch {
		case s == "null":
			out[i] = nil
		case s == "true" || s == "false":
			out[i] = s == "true"
		case strings.HasPrefix(s, `"`):
			var v string
			if err := json.Unmarshal(it, &v); err != nil {
				return nil, err
			}
			out[i] = v
		case strings.HasPrefix(s, "{") || strings.HasPrefix(s, "["):
			out[i] = s
		default:
			var n json.Number
			if err := json.Unmarshal(it, &n); err != nil {
				return nil, err
			}
			if v, err := n.Int64(); err == nil {
				out[i] = v
			} else if f, err := n.Float64(); err == nil {
				out[i] = f
			} else {
				return nil, fmt.Errorf("arg %d: %w", i+1, err)
			}
		}
	}
	return out, nil
}

// rowsJSON renders query rows as a JSON array of objects.
func rowsJSON(rows pgx.Rows) ([]byte, error) {
	defer rows.Close()
	fields := rows.FieldDescriptions()
	out := []map[string]any{}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		row := make(map[string]any, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case [16]byte: // uuid
				row[fields[i].Name] = fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
			case time.Time:
				row[fields[i].Name] = x.UTC().Format(time.RFC3339Nano)
			default:
				row[fields[i].Name] = v
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}
