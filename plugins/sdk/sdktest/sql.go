package sdktest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc/codes"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sqlwire"
)

// defaultURL is the machine's PostgreSQL, as for the core's own tests.
const defaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// sqlStore runs a plugin's SQL in a schema of its own, one transaction per
// call, as the core does for the plugin's sandbox.
type sqlStore struct {
	pool   *pgxpool.Pool
	schema string
}

func databaseURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return defaultURL
}

func openSQL(t testing.TB, migrations []sdk.Migration) *sqlStore {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	schema := "sdktest_" + newToken()[:16]
	cfg, err := pgxpool.ParseConfig(databaseURL())
	if err != nil {
		t.Fatalf("sdktest: bad TEST_DATABASE_URL: %v", err)
	}
	// Unqualified names resolve in the plugin's schema, as in the sandbox.
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err == nil {
		err = pool.Ping(ctx)
	}
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		t.Fatalf("sdktest: no PostgreSQL at TEST_DATABASE_URL or %s; this test asked for SQL and needs a server: %v", defaultURL, err)
	}
	if _, err := pool.Exec(ctx, `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize()); err != nil {
		pool.Close()
		t.Fatalf("sdktest: create schema: %v", err)
	}
	s := &sqlStore{pool: pool, schema: schema}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = pool.Exec(ctx, `DROP SCHEMA `+pgx.Identifier{schema}.Sanitize()+` CASCADE`)
		pool.Close()
	})
	for _, m := range migrations {
		if _, err := pool.Exec(ctx, m.SQL); err != nil {
			t.Fatalf("sdktest: migration %d (%s): %v", m.Version, m.Name, err)
		}
	}
	return s
}

// run executes one statement with the JSON-encoded arguments the SDK sends,
// answering rows in the SDK's JSON shape, or a gRPC InvalidArgument carrying
// PostgreSQL's reason, as the core does.
func (s *sqlStore) run(ctx context.Context, query string, argsJSON []byte, wantRows bool) ([]byte, int64, error) {
	args, err := sqlwire.DecodeArgs(argsJSON)
	if err != nil {
		return nil, 0, errorf(codes.InvalidArgument, "%v", err)
	}
	var out []byte
	var n int64
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, query, append([]any{pgx.QueryExecModeDescribeExec}, args...)...)
		if err != nil {
			return err
		}
		if wantRows {
			out, err = sqlwire.RowsJSON(rows)
			n = rows.CommandTag().RowsAffected()
			return err
		}
		rows.Close()
		n = rows.CommandTag().RowsAffected()
		return rows.Err()
	})
	if err != nil {
		return nil, 0, errorf(codes.InvalidArgument, "%v", err)
	}
	return out, n, nil
}
