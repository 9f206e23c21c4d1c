package pluginhost

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sqlwire"
)

// ValidID reports whether id is an acceptable plugin id: the SDK's one rule.
// Ids become schema and role names with '-' mapped to '_', which is why the
// rule allows no underscore: "a-b" and "a_b" would otherwise share one schema
// and one role.
func ValidID(id string) bool { return sdk.ValidID(id) }

// ensureRole creates the plugin's login role, or corrects one left by an
// earlier version, and returns its password. The role can log in, owns
// only its schema, inherits nothing and can create neither roles nor
// databases; roles are cluster-wide, so several core instances (and test
// databases) may run this at once, and both creation and attribute changes
// tolerate a concurrent twin.
//
// When the core logs in with a password, the plugin's is derived from it
// (HMAC-SHA-256 keyed with the core's password): roles are cluster-wide, so
// every database of the cluster that the same core role serves computes the
// same password and none undoes another's. Anyone holding the core's
// password already holds every plugin role it is a member of. Without one
// (a trusting or peer-authenticated server) the password is random, kept in
// plugin_db_credentials (readable by the core only) and ignored by the
// server.
func ensureRole(ctx context.Context, core *pgxpool.Pool, pluginID string) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	stored := `INSERT INTO plugin_db_credentials (plugin_id, password) VALUES ($1, $2) ON CONFLICT (plugin_id) DO NOTHING`
	fresh := hex.EncodeToString(b)
	if corePW := core.Config().ConnConfig.Password; corePW != "" {
		m := hmac.New(sha256.New, []byte(corePW))
		m.Write([]byte("plugin-role:" + pluginID))
		fresh = hex.EncodeToString(m.Sum(nil))[:48]
		stored = `INSERT INTO plugin_db_credentials (plugin_id, password) VALUES ($1, $2)
			ON CONFLICT (plugin_id) DO UPDATE SET password = EXCLUDED.password WHERE plugin_db_credentials.password <> EXCLUDED.password`
	}
	if _, err := core.Exec(ctx, stored, pluginID, fresh); err != nil {
		return "", fmt.Errorf("store credentials: %w", err)
	}
	var password string
	if err := core.QueryRow(ctx, `SELECT password FROM plugin_db_credentials WHERE plugin_id = $1`, pluginID).Scan(&password); err != nil {
		return "", fmt.Errorf("read credentials: %w", err)
	}
	role := RoleName(pluginID)
	ident := pgx.Identifier{role}.Sanitize()
	const attrs = ` LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS`
	err := postgres.RetryCatalog(ctx, func() error {
		var login, inherit, super, createDB, createRole, replication, bypass bool
		err := core.QueryRow(ctx, `SELECT rolcanlogin, rolinherit, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls
			FROM pg_roles WHERE rolname = $1`, role).Scan(&login, &inherit, &super, &createDB, &createRole, &replication, &bypass)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = core.Exec(ctx, `CREATE ROLE `+ident+attrs+` PASSWORD `+quoteLiteral(password))
			if postgres.IsDuplicate(err) {
				return nil
			}
			return err
		}
		if err != nil {
			return err
		}
		if !login || inherit || super || createDB || createRole || replication || bypass {
			_, err = core.Exec(ctx, `ALTER ROLE `+ident+attrs)
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("role %s: %w", role, err)
	}
	return password, nil
}

// ensureSchema gives the plugin its schema, owned by its role. The core
// must be a member of the role to create a schema on its behalf (the
// plugin is never a member of anything).
func ensureSchema(ctx context.Context, core *pgxpool.Pool, pluginID string) error {
	role, schema := RoleName(pluginID), SchemaName(pluginID)
	err := postgres.RetryCatalog(ctx, func() error {
		var member bool
		if err := core.QueryRow(ctx, `SELECT pg_has_role(current_user, $1, 'MEMBER')`, role).Scan(&member); err != nil {
			return err
		}
		if member {
			return nil
		}
		_, err := core.Exec(ctx, `GRANT `+pgx.Identifier{role}.Sanitize()+` TO CURRENT_USER`)
		if postgres.IsDuplicate(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("grant role: %w", err)
	}
	err = postgres.RetryCatalog(ctx, func() error {
		var can bool
		if err := core.QueryRow(ctx, `SELECT has_database_privilege($1, current_database(), 'CONNECT')`, role).Scan(&can); err != nil || can {
			return err
		}
		_, err := core.Exec(ctx, `DO $$ BEGIN
			EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), `+quoteLiteral(role)+`);
		END $$`)
		return err
	})
	if err != nil {
		return fmt.Errorf("grant connect: %w", err)
	}
	err = postgres.RetryCatalog(ctx, func() error {
		_, err := core.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()+` AUTHORIZATION `+pgx.Identifier{role}.Sanitize())
		if postgres.IsDuplicate(err) || postgres.IsUniqueViolation(err, "") {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return nil
}

// openSandbox returns a pool whose connections log in as the plugin's role
// with its schema as search_path. Statements go through the extended
// protocol only (one statement each, parameters never interpolated), no
// statement or description is cached across calls, and every connection
// is reset with DISCARD ALL before it is reused, so nothing one call sets
// survives into the next.
func openSandbox(ctx context.Context, core *pgxpool.Pool, pluginID, password string) (*pgxpool.Pool, error) {
	cfg := core.Config()
	cfg.ConnConfig.User = RoleName(pluginID)
	cfg.ConnConfig.Password = password
	params := map[string]string{}
	for k, v := range cfg.ConnConfig.RuntimeParams {
		params[k] = v
	}
	params["search_path"] = SchemaName(pluginID) // ids are [a-z0-9_] only
	params["application_name"] = "vetclube-plugin-" + pluginID
	params["statement_timeout"] = strconv.Itoa(int((60 * time.Second).Milliseconds()))
	params["idle_in_transaction_session_timeout"] = strconv.Itoa(int((60 * time.Second).Milliseconds()))
	cfg.ConnConfig.RuntimeParams = params
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	cfg.ConnConfig.StatementCacheCapacity = 0
	cfg.ConnConfig.DescriptionCacheCapacity = 0
	cfg.MaxConns = 4
	cfg.MinConns = 0
	cfg.AfterConnect = nil
	cfg.PrepareConn = nil
	cfg.AfterRelease = func(c *pgx.Conn) bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := c.PgConn().Exec(ctx, "DISCARD ALL").ReadAll()
		return err == nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	err = pool.Ping(ctx)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "28P01" {
		// The cluster checks passwords and the role's differs from the one
		// this database keeps (another database of the cluster set its own):
		// this database's copy wins for its own connections.
		if _, aerr := core.Exec(ctx, `ALTER ROLE `+pgx.Identifier{RoleName(pluginID)}.Sanitize()+` PASSWORD `+quoteLiteral(password)); aerr != nil {
			pool.Close()
			return nil, fmt.Errorf("set password: %w", aerr)
		}
		err = pool.Ping(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect as %s: %w", RoleName(pluginID), err)
	}
	return pool, nil
}

// sandboxFor returns the plugin's pool, creating role, schema and pool on
// first use. The pool outlives process restarts.
func (m *Manager) sandboxFor(ctx context.Context, pluginID string) (*pgxpool.Pool, error) {
	m.sandboxMu.Lock()
	defer m.sandboxMu.Unlock()
	if p, ok := m.sandboxes[pluginID]; ok {
		return p, nil
	}
	if !ValidID(pluginID) {
		return nil, fmt.Errorf("invalid plugin id %q", pluginID)
	}
	password, err := ensureRole(ctx, m.pool, pluginID)
	if err != nil {
		return nil, err
	}
	if err := ensureSchema(ctx, m.pool, pluginID); err != nil {
		return nil, err
	}
	pool, err := openSandbox(ctx, m.pool, pluginID, password)
	if err != nil {
		return nil, err
	}
	m.sandboxes[pluginID] = pool
	return pool, nil
}

// runOne runs one checked statement on the plugin's pool and returns its
// rows as JSON (queries) and the affected-row count.
func runOne(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, sql string, args []any, wantRows bool) ([]byte, int64, error) {
	rows, err := q.Query(ctx, sql, append([]any{pgx.QueryExecModeDescribeExec}, args...)...)
	if err != nil {
		return nil, 0, err
	}
	if wantRows {
		out, err := sqlwire.RowsJSON(rows)
		return out, rows.CommandTag().RowsAffected(), err
	}
	rows.Close()
	return nil, rows.CommandTag().RowsAffected(), rows.Err()
}

// pluginSQL runs one call's SQL for a plugin inside its own transaction.
func (m *Manager) pluginSQL(ctx context.Context, pluginID, sql string, args []any, wantRows bool) ([]byte, int64, error) {
	if err := checkCall(sql); err != nil {
		return nil, 0, err
	}
	pool, err := m.sandboxFor(ctx, pluginID)
	if err != nil {
		return nil, 0, err
	}
	var out []byte
	var n int64
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		out, n, err = runOne(ctx, tx, sql, args, wantRows)
		return err
	})
	return out, n, err
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
