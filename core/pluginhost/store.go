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

// RoleName is the PostgreSQL role a plugin's SQL runs as. It owns the
// plugin's schema and holds no privilege on the core's tables, so a plugin
// cannot read or change users, sessions or another plugin's data even by
// naming them with their schema.
func RoleName(pluginID string) string {
	return "vc_plugin_" + strings.ReplaceAll(pluginID, "-", "_")
}

// ensureRoleAndSchema creates the plugin's role (cluster-wide, so created
// once and shared by every database of the cluster) and its schema. The
// core's database user needs CREATEROLE for this (the embedded cluster and
// the test cluster run as a superuser).
func ensureRoleAndSchema(ctx context.Context, tx pgx.Tx, pluginID string) error {
	role := pgx.Identifier{RoleName(pluginID)}.Sanitize()
	schema := pgx.Identifier{SchemaName(pluginID)}.Sanitize()
	// Another database of the same cluster may create the role concurrently.
	if _, err := tx.Exec(ctx, `DO $$ BEGIN
			CREATE ROLE `+role+` NOLOGIN;
		EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
		END $$`); err != nil {
		return fmt.Errorf("create role: %w", err)
	}
	if _, err := tx.Exec(ctx, `DO $$ BEGIN
			EXECUTE format('GRANT %I TO %I', '`+RoleName(pluginID)+`', current_user);
		EXCEPTION WHEN others THEN NULL;
		END $$`); err != nil {
		return fmt.Errorf("grant role: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+schema+` AUTHORIZATION `+role); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return nil
}

// asPlugin switches the transaction to the plugin's role and schema.
func asPlugin(ctx context.Context, tx pgx.Tx, pluginID string) error {
	_, err := tx.Exec(ctx, `SET LOCAL ROLE `+pgx.Identifier{RoleName(pluginID)}.Sanitize()+`; SET LOCAL search_path TO `+pgx.Identifier{SchemaName(pluginID)}.Sanitize())
	return err
}

// migrateSchema applies the plugin's migrations not yet recorded in
// plugin_migrations, in version order, each in the plugin's schema. An
// advisory lock keeps two core instances from running them twice.
func migrateSchema(ctx context.Context, pool *pgxpool.Pool, pluginID string, migs []*pluginpb.Migration) error {
	if len(migs) == 0 {
		return nil
	}
	return postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('plugin-migrations:' || $1))`, pluginID); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		if err := ensureRoleAndSchema(ctx, tx, pluginID); err != nil {
			return err
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
			// The plugin's own SQL runs with the plugin's privileges only.
			if err := asPlugin(ctx, tx, pluginID); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, m.Sql); err != nil {
				return fmt.Errorf("migration %d %s: %w", m.Version, m.Name, err)
			}
			if _, err := tx.Exec(ctx, `RESET ROLE; SET LOCAL search_path TO public`); err != nil {
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
		if err := asPlugin(ctx, tx, pluginID); err != nil {
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
