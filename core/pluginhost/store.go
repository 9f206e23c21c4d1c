package pluginhost

import (
	"context"
	"fmt"
	"strings"

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
