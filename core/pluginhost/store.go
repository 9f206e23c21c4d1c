package pluginhost

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// SchemaName is the PostgreSQL schema that holds a plugin's own tables.
func SchemaName(pluginID string) string {
	return "plugin_" + strings.ReplaceAll(pluginID, "-", "_")
}

// RoleName is the PostgreSQL role a plugin's SQL logs in as. It owns the
// plugin's schema and holds no privilege on the core's tables, so a plugin
// cannot read or change users, sessions or another plugin's data even by
// naming them with their schema. Ids never contain '_' (ValidID), so the
// mapping is one-to-one.
func RoleName(pluginID string) string {
	return "vc_plugin_" + strings.ReplaceAll(pluginID, "-", "_")
}

// migrateSchema applies the plugin's migrations not yet recorded in
// plugin_migrations, in version order. Each runs in one transaction on the
// plugin's own connections (sandbox.go), statement by statement through the
// same checks as its calls; the core records it afterwards on its own
// connection. A session advisory lock keeps two core instances from
// running them twice.
func (m *Manager) migrateSchema(ctx context.Context, pluginID string, migs []*pluginpb.Migration) error {
	sandbox, err := m.sandboxFor(ctx, pluginID)
	if err != nil {
		return err
	}
	if len(migs) == 0 {
		return nil
	}
	conn, err := m.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext('plugin-migrations:' || $1))`, pluginID); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock(hashtext('plugin-migrations:' || $1))`, pluginID) //nolint:errcheck
	applied := map[int32]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM plugin_migrations WHERE plugin_id = $1`, pluginID)
	if err != nil {
		return err
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return err
	}
	for _, v := range versions {
		applied[v] = true
	}
	last := int32(0)
	for _, mig := range migs {
		if mig.Version <= last {
			return fmt.Errorf("migration versions must increase: %d after %d", mig.Version, last)
		}
		last = mig.Version
		if applied[mig.Version] {
			continue
		}
		stmts, err := checkMigration(mig.Sql)
		if err != nil {
			return fmt.Errorf("migration %d %s: %w", mig.Version, mig.Name, err)
		}
		err = pgx.BeginFunc(ctx, sandbox, func(tx pgx.Tx) error {
			for _, st := range stmts {
				if _, _, err := runOne(ctx, tx, st, nil, false); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("migration %d %s: %w", mig.Version, mig.Name, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO plugin_migrations (plugin_id, version, name) VALUES ($1, $2, $3)`, pluginID, mig.Version, mig.Name); err != nil {
			return err
		}
	}
	return nil
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
