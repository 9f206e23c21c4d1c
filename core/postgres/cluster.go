package postgres

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
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
	password  string // the superuser's
}

// closedHBA is the only client authentication the embedded cluster
// accepts: UNIX-socket connections (it listens on no TCP port) with a
// SCRAM-SHA-256 password, for every role, the superuser included.
const closedHBA = "# Written by VetClube: every role, every connection, a password.\nlocal all all scram-sha-256\n"

// PasswordFile is where the superuser's password of the cluster under root
// is kept: generated at first start, readable only by the core's user.
func PasswordFile(root string) string { return filepath.Join(root, "superuser.password") }

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
		if err := c.initdb(ctx); err != nil {
			return nil, err
		}
	}
	if _, err := c.run(ctx, "pg_ctl", "-D", dataDir, "status"); err == nil {
		log.Info("embedded PostgreSQL already running, reusing it", "dir", dataDir)
		return c, c.close(ctx)
	}
	opts := fmt.Sprintf("-c listen_addresses='' -k %s -c unix_socket_permissions=0770 -c max_connections=200 -c fsync=on", c.SocketDir)
	if out, err := c.run(ctx, "pg_ctl", "-D", dataDir, "-o", opts, "-l", filepath.Join(c.Root, "postgres.log"), "-w", "-t", "60", "start"); err != nil {
		return nil, fmt.Errorf("pg_ctl start: %w: %s (see %s)", err, out, filepath.Join(c.Root, "postgres.log"))
	}
	log.Info("embedded PostgreSQL started", "dir", root, "socket", c.SocketDir)
	return c, c.close(ctx)
}

// initdb creates the cluster with a generated superuser password and
// password authentication from the first start.
func (c *Cluster) initdb(ctx context.Context) error {
	pw, err := randomPassword()
	if err != nil {
		return err
	}
	// initdb runs as the postgres user: it reads the password from a file
	// of its own, removed right after.
	pwfile := filepath.Join(c.Root, ".initdb-password")
	if err := os.WriteFile(pwfile, []byte(pw+"\n"), 0o600); err != nil {
		return err
	}
	defer os.Remove(pwfile)
	if c.cred != nil {
		if err := os.Chown(pwfile, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return err
		}
	}
	if out, err := c.run(ctx, "initdb", "-D", c.DataDir, "-U", "postgres", "--pwfile="+pwfile,
		"--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-locale"); err != nil {
		return fmt.Errorf("initdb: %w: %s", err, out)
	}
	return writeSecret(PasswordFile(c.Root), pw)
}

// close makes sure the running cluster asks every role for a password.
// A cluster made by an earlier version trusted every local connection: its
// superuser gets a generated password (over that trusted connection, the
// last one) before the rules change.
func (c *Cluster) close(ctx context.Context) error {
	raw, err := os.ReadFile(PasswordFile(c.Root))
	switch {
	case err == nil:
		c.password = strings.TrimSpace(string(raw))
	case errors.Is(err, os.ErrNotExist):
		pw, err := randomPassword()
		if err != nil {
			return err
		}
		c.log.Info("embedded PostgreSQL: giving the superuser a password and requiring passwords")
		pool, err := Open(ctx, c.SuperURL("postgres")) // trusted, no password yet
		if err != nil {
			return fmt.Errorf("set the superuser's password: %w", err)
		}
		_, err = pool.Exec(ctx, `ALTER ROLE postgres PASSWORD `+quoteLiteral(pw))
		pool.Close()
		if err != nil {
			return fmt.Errorf("set the superuser's password: %w", err)
		}
		if err := writeSecret(PasswordFile(c.Root), pw); err != nil {
			return err
		}
		c.password = pw
	default:
		return err
	}
	hba := filepath.Join(c.DataDir, "pg_hba.conf")
	if cur, err := os.ReadFile(hba); err == nil && string(cur) == closedHBA {
		return nil
	}
	if err := os.WriteFile(hba, []byte(closedHBA), 0o600); err != nil {
		return fmt.Errorf("write pg_hba.conf: %w", err)
	}
	if c.cred != nil {
		if err := os.Chown(hba, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return err
		}
	}
	pool, err := Open(ctx, c.SuperURL("postgres"))
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `SELECT pg_reload_conf()`); err != nil {
		return fmt.Errorf("reload pg_hba.conf: %w", err)
	}
	return nil
}

// writeSecret writes a file only the core's user may read.
func writeSecret(path, value string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(value+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func randomPassword() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// AppPassword is the app role's password on a cluster whose superuser's
// password is superPassword. Deriving it (instead of storing a second
// secret) lets every process that holds the superuser's URL (the core,
// `make test`'s parallel test binaries) log the app in with the same one;
// knowing it gives nothing the superuser's password does not.
func AppPassword(superPassword string) string {
	if superPassword == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(superPassword))
	m.Write([]byte("role:" + AppRole))
	return hex.EncodeToString(m.Sum(nil))[:40]
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
// superuser, with its password: only for creating roles and databases,
// never for the app.
func (c *Cluster) SuperURL(database string) string {
	return clusterURL(url.UserPassword("postgres", c.password), database, c.SocketDir)
}

// URL returns a connection string for database name as AppRole, the
// non-superuser role the app runs as, with its password.
func (c *Cluster) URL(database string) string {
	return clusterURL(url.UserPassword(AppRole, AppPassword(c.password)), database, c.SocketDir)
}

func clusterURL(user *url.Userinfo, database, socketDir string) string {
	if p, _ := user.Password(); p == "" {
		user = url.User(user.Username())
	}
	u := url.URL{Scheme: "postgres", User: user, Path: "/" + database,
		RawQuery: url.Values{"host": {socketDir}, "sslmode": {"disable"}}.Encode()}
	return u.String()
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
	if err := SetPassword(ctx, pool, AppRole, AppPassword(c.password)); err != nil {
		return err
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

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
