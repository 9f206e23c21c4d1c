package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// AppRole is the role the core connects as on the embedded and test
// clusters. It is not a superuser: it owns the application database and
// holds CREATEROLE only so that it can create one login role per plugin.
// A superuser session would let anything that reaches SQL (a plugin, an
// injection) undo every other guarantee, so the core never runs as one.
const AppRole = "vetclube"

// EnsureAppRole creates role (LOGIN CREATEROLE, never SUPERUSER) through a
// superuser connection, or corrects its attributes when it already exists.
// Roles are cluster-wide and several test processes run this at once, so a
// concurrent creation counts as success.
func EnsureAppRole(ctx context.Context, admin *pgxpool.Pool, role string) error {
	return retryCatalog(ctx, func() error {
		var super, createRole, login bool
		err := admin.QueryRow(ctx, `SELECT rolsuper, rolcreaterole, rolcanlogin FROM pg_roles WHERE rolname = $1`, role).
			Scan(&super, &createRole, &login)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = admin.Exec(ctx, `CREATE ROLE `+pgx.Identifier{role}.Sanitize()+` LOGIN CREATEROLE NOSUPERUSER NOCREATEDB NOREPLICATION NOBYPASSRLS`)
			if isDuplicate(err) {
				return nil
			}
			return err
		}
		if err != nil {
			return err
		}
		if super || !createRole || !login {
			_, err = admin.Exec(ctx, `ALTER ROLE `+pgx.Identifier{role}.Sanitize()+` LOGIN CREATEROLE NOSUPERUSER NOCREATEDB NOREPLICATION NOBYPASSRLS`)
		}
		return err
	})
}

// SetPassword sets role's login password (nothing when password is
// empty), tolerating a concurrent twin setting the same one.
func SetPassword(ctx context.Context, admin *pgxpool.Pool, role, password string) error {
	if password == "" {
		return nil
	}
	err := retryCatalog(ctx, func() error {
		_, err := admin.Exec(ctx, `ALTER ROLE `+pgx.Identifier{role}.Sanitize()+` PASSWORD `+quoteLiteral(password))
		return err
	})
	if err != nil {
		return fmt.Errorf("password of role %s: %w", role, err)
	}
	return nil
}

// URLPassword returns the password in a postgres:// URL ("" when none).
func URLPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// retryCatalog retries fn when a concurrent session changed the same
// catalog row (PostgreSQL's "tuple concurrently updated").
func retryCatalog(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		err = fn()
		if err == nil || !isConcurrentUpdate(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 20 * time.Millisecond):
		}
	}
	return err
}

// RetryCatalog is retryCatalog for other packages that change cluster-wide
// catalogs (the plugin host's roles).
func RetryCatalog(ctx context.Context, fn func() error) error { return retryCatalog(ctx, fn) }

func isConcurrentUpdate(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "XX000" && strings.Contains(pgErr.Message, "concurrently") ||
		pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// isDuplicate reports a concurrent CREATE of the same role or database.
func isDuplicate(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "42710" || pgErr.Code == "23505" || pgErr.Code == "42P04")
}

// IsDuplicate reports whether err is PostgreSQL refusing to create an object
// (role, database) that a concurrent session has just created.
func IsDuplicate(err error) bool { return isDuplicate(err) }

// IsSuperuser reports whether the pool's session user is a superuser.
func IsSuperuser(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	var super bool
	err := pool.QueryRow(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = session_user`).Scan(&super)
	return super, err
}

// WithUser returns raw (a postgres:// URL) with its user replaced and its
// password removed; a keyword/value string is returned unchanged with an
// error.
func WithUser(raw, user string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return raw, fmt.Errorf("database url must be a postgres:// URL")
	}
	u.User = url.User(user)
	return u.String(), nil
}

// adoptDatabase makes role the owner of database db and of everything the
// core created in its public schema. Embedded clusters made by earlier
// versions ran the core as the superuser, so their tables belong to it; the
// core, now connecting as role, must own them to use and migrate them.
func adoptDatabase(ctx context.Context, superURL, db, role string) error {
	pool, err := Open(ctx, superURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	r := pgx.Identifier{role}.Sanitize()
	_, err = pool.Exec(ctx, `DO $$
		DECLARE o record;
		BEGIN
			EXECUTE 'ALTER DATABASE '||quote_ident(current_database())||' OWNER TO `+r+`';
			FOR o IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
				WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
				  AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = '`+role+`') LOOP
				EXECUTE format('ALTER TABLE %s OWNER TO `+r+`', o.name);
			END LOOP;
			FOR o IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
				WHERE n.nspname = 'public' AND c.relkind = 'S'
				  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
				  AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = '`+role+`') LOOP
				EXECUTE format('ALTER SEQUENCE %s OWNER TO `+r+`', o.name);
			END LOOP;
			FOR o IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
				WHERE n.nspname = 'public' AND p.proowner <> (SELECT oid FROM pg_roles WHERE rolname = '`+role+`') LOOP
				EXECUTE format('ALTER FUNCTION %s OWNER TO `+r+`', o.name);
			END LOOP;
			FOR o IN SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
				WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd', 'c') AND t.typrelid = 0
				  AND t.typowner <> (SELECT oid FROM pg_roles WHERE rolname = '`+role+`') LOOP
				EXECUTE format('ALTER TYPE %s OWNER TO `+r+`', o.name);
			END LOOP;
		END $$`)
	if err != nil {
		return fmt.Errorf("give database %s to role %s: %w", db, role, err)
	}
	return nil
}
