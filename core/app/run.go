package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/roles"
)

const usage = `vetclube: the VetClube server.

Commands:
  serve                     migrate, seed (development) and serve HTTP (default)
  migrate                   apply pending migrations and exit
  worker                    run only the Temporal workflow worker (needs TEMPORAL_ADDRESS)
  admin grant EMAIL ROLE    give a user a role (super_admin, editor)
  admin revoke EMAIL ROLE   take a role away
  devdb start DIR           start a private PostgreSQL cluster in DIR, print its URL
  devdb stop DIR            stop it
  devdb ping URL            exit 0 when a PostgreSQL server answers at URL

Configuration comes from environment variables (see README.md).
`

// Seeder fills a development database with demo content before the server
// serves (package core/app/seed); nil seeds nothing.
type Seeder func(ctx context.Context, a *App, stdout io.Writer) error

// Run is the program. It returns when ctx is cancelled (Ctrl-C) or a command ends.
func Run(ctx context.Context, seed Seeder, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return withTemporal(ctx, cfg, log, func(cfg config.Config) error { return serve(ctx, cfg, log, seed, stdout) })
	case "worker":
		return runWorker(ctx, cfg, log)
	case "migrate":
		return withDatabase(ctx, cfg, log, func(pool *pgxpool.Pool) error { return nil })
	case "admin":
		return adminCommand(ctx, cfg, log, args, stdout)
	case "devdb":
		return devdbCommand(ctx, log, args, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.Development() {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// withDatabase opens the configured database (starting the embedded cluster
// when DATABASE_URL is empty), applies migrations, runs fn and cleans up.
func withDatabase(ctx context.Context, cfg config.Config, log *slog.Logger, fn func(*pgxpool.Pool) error) (err error) {
	url := cfg.DatabaseURL
	if url == "" {
		cluster, err := postgres.StartCluster(ctx, filepath.Join(cfg.DataDir, "postgres"), log)
		if err != nil {
			return err
		}
		defer func() {
			if stopErr := cluster.Stop(); stopErr != nil {
				err = errors.Join(err, stopErr)
			}
		}()
		if err := cluster.EnsureDatabase(ctx, "vetclube"); err != nil {
			return err
		}
		url = cluster.URL("vetclube")
	}
	pool, err := postgres.Open(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := refuseSuperuser(ctx, cfg, pool, log); err != nil {
		return err
	}
	if err := postgres.Migrate(ctx, pool, log); err != nil {
		return err
	}
	return fn(pool)
}

// errSuperuser is returned when production would run as a superuser.
var errSuperuser = errors.New("refusing to run as a PostgreSQL superuser in production: connect DATABASE_URL as a role that owns the database and has CREATEROLE, nothing more (see README.md)")

// refuseSuperuser stops a production instance whose database session is a
// superuser: plugin sandboxes and every privilege boundary below the core
// assume the core itself cannot read files, run programs or become any role.
func refuseSuperuser(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	super, err := postgres.IsSuperuser(ctx, pool)
	if err != nil {
		return fmt.Errorf("check database role: %w", err)
	}
	if !super {
		return nil
	}
	if cfg.Env == "production" {
		log.Error("database user is a superuser: refusing to start in production", "why",
			"a superuser session can read files, run programs and become any role, so one SQL injection or plugin escape would own the server; use a non-superuser role that owns the database and has CREATEROLE")
		return errSuperuser
	}
	log.Warn("database user is a superuser; production refuses this (use a non-superuser owner role with CREATEROLE)")
	return nil
}

func serve(ctx context.Context, cfg config.Config, log *slog.Logger, seed Seeder, stdout io.Writer) error {
	return withDatabase(ctx, cfg, log, func(pool *pgxpool.Pool) error {
		a, err := Build(ctx, cfg, pool, log)
		if err != nil {
			return err
		}
		defer a.Close()
		if cfg.Development() && seed != nil {
			if err := seed(ctx, a, stdout); err != nil {
				return fmt.Errorf("seed demo content: %w", err)
			}
		}
		ln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			return fmt.Errorf("listen on %s: %w", cfg.HTTPAddr, err)
		}
		// Requests run on their own base context: a stop signal does not
		// cut the ones in flight, which gracefulStop lets finish.
		reqCtx, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
		defer cancelRequests()
		srv := &http.Server{
			Handler:           a.Handler,
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       2 * time.Minute,
			BaseContext:       func(net.Listener) context.Context { return reqCtx },
		}
		if hub := a.Engagement.Events; hub != nil {
			srv.RegisterOnShutdown(hub.Drain)
		}
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(ln) }()
		fmt.Fprintf(stdout, "VetClube em http://%s (backoffice em http://%s/backoffice/)\n", ln.Addr(), ln.Addr())
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
		}
		return gracefulStop(cfg, log, a, srv, cancelRequests)
	})
}

// gracefulStop is an instance's stop (SIGTERM, SIGINT): /readyz answers 503
// at once and the listener stays open for ShutdownDelay, so load balancers
// stop routing here while requests still being sent are served; then the
// listener closes, live-event streams end with a retry hint (their browsers
// reconnect to another instance), and requests in flight get ShutdownTimeout
// to finish before their connections are closed. The deferred App.Close then
// stops the Temporal workers (each waits for its running activities) and
// the rest.
func gracefulStop(cfg config.Config, log *slog.Logger, a *App, srv *http.Server, cancelRequests context.CancelFunc) error {
	a.Draining.Store(true)
	log.Info("stopping: not ready any more", "delay", cfg.ShutdownDelay, "timeout", cfg.ShutdownTimeout)
	time.Sleep(cfg.ShutdownDelay)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if err != nil {
		log.Warn("stopping: requests still running at the deadline are cut", "err", err)
		cancelRequests()
		_ = srv.Close()
		return nil
	}
	log.Info("stopping: every request finished")
	return nil
}

func adminCommand(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 3 || (fs.Arg(0) != "grant" && fs.Arg(0) != "revoke") {
		return errors.New("usage: vetclube admin grant|revoke EMAIL ROLE")
	}
	verb, email, role := fs.Arg(0), strings.ToLower(strings.TrimSpace(fs.Arg(1))), strings.TrimSpace(fs.Arg(2))
	// Checked before touching the database, so a typo fails fast and clearly.
	if err := roles.CheckGrantable(role); err != nil {
		return err
	}
	return withDatabase(ctx, cfg, log, func(pool *pgxpool.Pool) error {
		svc := roles.NewService(pool)
		change := svc.Grant
		if verb == "revoke" {
			change = svc.Revoke
		}
		changed, err := change(ctx, email, role)
		if err != nil {
			return err
		}
		switch {
		case verb == "grant" && changed:
			fmt.Fprintf(stdout, "granted %s to %s\n", role, email)
		case verb == "grant":
			fmt.Fprintf(stdout, "%s already has %s\n", email, role)
		case changed:
			fmt.Fprintf(stdout, "revoked %s from %s\n", role, email)
		default:
			fmt.Fprintf(stdout, "%s did not have %s\n", email, role)
		}
		return nil
	})
}

func devdbCommand(ctx context.Context, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 2 && args[0] == "ping" {
		pool, err := postgres.Open(ctx, args[1])
		if err != nil {
			return err
		}
		pool.Close()
		return nil
	}
	if len(args) != 2 || (args[0] != "start" && args[0] != "stop") {
		return errors.New("usage: vetclube devdb start|stop DIR, or devdb ping URL")
	}
	dir, err := filepath.Abs(args[1])
	if err != nil {
		return err
	}
	cluster, err := postgres.StartCluster(ctx, dir, log)
	if err != nil {
		return err
	}
	if args[0] == "stop" {
		return cluster.Stop()
	}
	// The printed URL is the superuser's: the tests use it only to create
	// the non-superuser app role and the databases it owns (core/postgres/pgtest).
	admin, err := postgres.Open(ctx, cluster.SuperURL("postgres"))
	if err != nil {
		return err
	}
	defer admin.Close()
	if err := postgres.EnsureAppRole(ctx, admin, postgres.AppRole); err != nil {
		return fmt.Errorf("create role %s: %w", postgres.AppRole, err)
	}
	// The cluster asks every role for a password: the app role's is
	// derived from the superuser's, which the printed URL carries.
	super := cluster.SuperURL("postgres")
	if err := postgres.SetPassword(ctx, admin, postgres.AppRole, postgres.AppPassword(postgres.URLPassword(super))); err != nil {
		return err
	}
	fmt.Fprintln(stdout, super)
	return nil
}

// Main is cmd/vetclube's main: it cancels Run's context on SIGINT/SIGTERM.
func Main(ctx context.Context, seed Seeder) int {
	// No process of the core's own user (a plugin sharing it, anything
	// else) may read the core's memory, environment or descriptors.
	if err := confine.MarkNonDumpable(); err != nil {
		fmt.Fprintln(os.Stderr, "vetclube: mark the process non-dumpable:", err)
		return 1
	}
	if err := Run(ctx, seed, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "vetclube:", err)
		return 1
	}
	return 0
}
