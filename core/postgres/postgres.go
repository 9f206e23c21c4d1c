// Package postgres opens VetClube's PostgreSQL pool, applies the embedded
// migrations and, when no DATABASE_URL is configured, runs a private cluster
// from the installed PostgreSQL binaries (cluster.go).
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/vetclube/vetclube/migrations"
)

// Open connects a pool to url and checks the connection.
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return pool, nil
}

// migrationLockID is the advisory lock that serialises migrations when several
// instances start at once.
const migrationLockID = 0x7665_7463_6c75 // "vetclu"

func provider(pool *pgxpool.Pool, log *slog.Logger) (*goose.Provider, func() error, error) {
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID))
	if err != nil {
		return nil, nil, fmt.Errorf("migration locker: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	opts := []goose.ProviderOption{
		goose.WithSessionLocker(locker),
		// Migration numbers are grouped by domain (see migrations/), so a
		// lower number may land after a higher one was applied.
		goose.WithAllowOutofOrder(true),
	}
	if log != nil {
		opts = append(opts, goose.WithSlog(log))
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS, opts...)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("migration provider: %w", err)
	}
	return p, db.Close, nil
}

// Migrate applies every pending migration, each in its own transaction,
// holding an advisory lock so concurrent starts apply each exactly once.
func Migrate(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	p, closeDB, err := provider(pool, log)
	if err != nil {
		return err
	}
	defer closeDB()
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	if log != nil {
		for _, r := range results {
			log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
		}
	}
	return nil
}

// Pending reports whether migrations remain to be applied (used by /readyz).
func Pending(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	p, closeDB, err := provider(pool, nil)
	if err != nil {
		return false, err
	}
	defer closeDB()
	return p.HasPending(ctx)
}

// IsUniqueViolation reports whether err is a unique-key violation, optionally
// of the named constraint.
func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}

// IsNoRows reports whether err means a query found no row.
func IsNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// InTx runs fn in a transaction, committing when fn returns nil.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}
