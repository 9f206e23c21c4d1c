package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Cluster is a private PostgreSQL server started from the installed binaries,
// listening only on a unix socket under its root directory (root/run; data in
// root/data), so it never collides with another server's port.
type Cluster struct {
	Root      string
	DataDir   string
	SocketDir string
	binDir    string
	cred      *syscall.Credential
	log       *slog.Logger
}

// BinDir finds the directory of initdb/pg_ctl: PG_BIN_DIR, then PATH, then
// the newest /usr/lib/postgresql/<version>/bin.
func BinDir() (string, error) {
	if d := os.Getenv("PG_BIN_DIR"); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgVersion(dirs[i]) > pgVersion(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL binaries not found: install them (make deps does it with apt) or set DATABASE_URL")
}

func pgVersion(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// StartCluster initialises a cluster under root on first use and starts it.
// When a server from an earlier run (for example one killed with SIGKILL) is
// still running there, it is reused.
func StartCluster(ctx context.Context, root string, log *slog.Logger) (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Join(root, "data")
	c := &Cluster{Root: root, DataDir: dataDir, SocketDir: filepath.Join(root, "run"), binDir: bin, log: log}
	// Unix socket paths are limited to ~107 bytes; fall back to a short path.
	if len(c.SocketDir) > 90 {
		c.SocketDir = filepath.Join(os.TempDir(), fmt.Sprintf("vetclube-pg-%d", os.Getuid()))
	}
	// PostgreSQL refuses to run as root: run it as the postgres system user.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a 'postgres' system user for the embedded cluster: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if err := c.prepareDirs(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dataDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		log.Info("initialising embedded PostgreSQL cluster", "dir", dataDir)
		if out, err := c.run(ctx, "initdb", "-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-locale"); err != nil {
			return nil, fmt.Errorf("initdb: %w: %s", err, out)
		}
	}
	if _, err := c.run(ctx, "pg_ctl", "-D", dataDir, "status"); err == nil {
		log.Info("embedded PostgreSQL already running, reusing it", "dir", dataDir)
		return c, nil
	}
	opts := fmt.Sprintf("-c listen_addresses='' -k %s -c unix_socket_permissions=0770 -c max_connections=200 -c fsync=on", c.SocketDir)
	if out, err := c.run(ctx, "pg_ctl", "-D", dataDir, "-o", opts, "-l", filepath.Join(c.Root, "postgres.log"), "-w", "-t", "60", "start"); err != nil {
		return nil, fmt.Errorf("pg_ctl start: %w: %s (see %s)", err, out, filepath.Join(c.Root, "postgres.log"))
	}
	log.Info("embedded PostgreSQL started", "dir", root, "socket", c.SocketDir)
	return c, nil
}

func (c *Cluster) prepareDirs() error {
	for _, d := range []string{c.Root, c.DataDir, c.SocketDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
		if c.cred != nil {
			if err := os.Chown(d, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
				return fmt.Errorf("chown %s: %w", d, err)
			}
		}
	}
	if c.cred != nil {
		// The postgres user must be able to reach dataDir through its parents.
		for p := filepath.Dir(c.DataDir); p != "/" && p != "."; p = filepath.Dir(p) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
				_ = os.Chmod(p, fi.Mode().Perm()|0o001)
			}
		}
	}
	return nil
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	// pg_ctl's server must not die with our process group on Ctrl-C: we stop
	// it ourselves, cleanly, in Stop.
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// SuperURL returns a connection string for database name as the cluster's
// superuser: only for creating roles and databases, never for the app.
func (c *Cluster) SuperURL(database string) string {
	return fmt.Sprintf("postgres://postgres@/%s?host=%s&sslmode=disable", database, c.SocketDir)
}

// URL returns a connection string for database name as AppRole, the
// non-superuser role the app runs as.
func (c *Cluster) URL(database string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&sslmode=disable", AppRole, database, c.SocketDir)
}

// EnsureDatabase creates AppRole and database name owned by it when they do
// not exist; a database left by an earlier version (owned by the superuser)
// is handed over to AppRole.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	pool, err := Open(ctx, c.SuperURL("postgres"))
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := EnsureAppRole(ctx, pool, AppRole); err != nil {
		return fmt.Errorf("create role %s: %w", AppRole, err)
	}
	var owner string
	err = pool.QueryRow(ctx, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", name).Scan(&owner)
	if IsNoRows(err) {
		if _, err := pool.Exec(ctx, "CREATE DATABASE "+quoteIdent(name)+" OWNER "+quoteIdent(AppRole)); err != nil && !isDuplicate(err) && !IsUniqueViolation(err, "") {
			return fmt.Errorf("create database %s: %w", name, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if owner != AppRole {
		c.log.Info("handing the database over to the non-superuser app role", "database", name, "role", AppRole)
		return adoptDatabase(ctx, c.SuperURL(name), name, AppRole)
	}
	return nil
}

// Stop shuts the server down (fast mode: rolls back open transactions).
func (c *Cluster) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := c.run(ctx, "pg_ctl", "-D", c.DataDir, "-m", "fast", "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w: %s", err, out)
	}
	c.log.Info("embedded PostgreSQL stopped")
	return nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
