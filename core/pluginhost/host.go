// Package pluginhost runs VetClube's plugins (tools and content types): it
// discovers executables in PLUGINS_DIR, verifies each one's SHA-256 against
// the checksum recorded when it was built or installed, starts it with
// hashicorp/go-plugin (gRPC, AutoMTLS), checks min_core_version, serves it
// the host API (profile, VetCoins, notifications, key-value store, its own
// PostgreSQL schema, logging) and keeps it healthy: periodic health checks,
// per-call timeouts, restart with backoff. The plugin side is plugins/sdk.
package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
)

// CoreVersion is compared with each plugin's min_core_version.
const CoreVersion = "1.0.0"

// Options configure a Manager.
type Options struct {
	Dir            string        // where plugin executables live
	CallTimeout    time.Duration // per request to a plugin; a hung plugin is restarted
	HealthInterval time.Duration // how often each plugin's health is checked
	CoreVersion    string        // defaults to CoreVersion

	// DailyVetCoins is the most VetCoins one plugin may award to one user
	// per UTC day (PLUGIN_DAILY_VETCOINS_BUDGET); 0 means DefaultDailyVetCoins.
	DailyVetCoins int

	// Profiles and Notifications answer the host API's profile and
	// notification calls through their owning packages; nil builds them
	// on the manager's pool.
	Profiles      ProfileReader
	Notifications Notifier

	// Files answers the host API's GetFile and DeleteFile (members' uploads
	// to tools, core/toolfiles); nil answers Unavailable.
	Files ToolFiles

	// Scheduled answers ScheduleNotification and CancelScheduledNotification
	// (core/toolschedule); nil answers Unavailable.
	Scheduled ScheduledNotifications
	// Published answers ListPublishedContent and GetPublishedContent
	// (core/content's published items); nil answers Unavailable.
	Published PublishedContent

	// ContentTypes registers the types content plugins declare; nil
	// refuses content plugins.
	ContentTypes ContentTypes

	// Sandbox confines each plugin process (confine.Options: the user,
	// Landlock, seccomp and resource limits it starts under).
	Sandbox confine.Options
	// RequireConfinement refuses to start a plugin when any confinement
	// mechanism is unavailable, unless Sandbox.Disabled says the operator
	// chose to run plugins unconfined (production sets it).
	RequireConfinement bool
	// Now is the clock the key-value store's expiries are set and read
	// against; time.Now when nil.
	Now func() time.Time

	// IdleTimeout turns on-demand start on: a plugin whose description is
	// cached for its binary is not started at load but by its first call,
	// and its process stops after IdleTimeout without calls. 0 keeps every
	// plugin resident. IdleTimeouts overrides it per plugin id (0: that
	// plugin stays resident).
	IdleTimeout  time.Duration
	IdleTimeouts map[string]time.Duration

	// PluginGOGC and PluginGoMemLimit are the GOGC and GOMEMLIMIT plugin
	// processes run with (DefaultGOGC, DefaultGoMemLimit when empty).
	PluginGOGC, PluginGoMemLimit string
}

// DefaultDailyVetCoins is the per-plugin, per-user daily award budget when
// none is configured.
const DefaultDailyVetCoins = 500

// ProfileReader is the part of profiles.Service the host API uses: only
// the public view, never email, phone or CPF.
type ProfileReader interface {
	Public(ctx context.Context, userID string) (profiles.PublicProfile, error)
}

// Notifier is the part of notifications.Service the host API uses; Create
// also publishes the live event.
type Notifier interface {
	Create(ctx context.Context, userID, kind, title, message, idempotencyKey string) (notifications.Notification, bool, error)
}

// Manager owns every plugin process.
type Manager struct {
	opts   Options
	log    *slog.Logger
	pool   *pgxpool.Pool
	ledger *points.Ledger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.RWMutex
	plugins map[string]*plugin // by id
	refused map[string]string  // file name → reason

	sandboxMu sync.Mutex
	sandboxes map[string]*pgxpool.Pool // by plugin id: connections logged in as the plugin's role

	limiter limiterSlot // answers CheckLimit (SetLimiter)
	ai      *aiDeps     // host.AI (hostai.go), set by SetAI
}

// New returns a manager; Start loads the plugins.
func New(opts Options, pool *pgxpool.Pool, ledger *points.Ledger, log *slog.Logger) *Manager {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	if opts.HealthInterval <= 0 {
		opts.HealthInterval = 10 * time.Second
	}
	if opts.CoreVersion == "" {
		opts.CoreVersion = CoreVersion
	}
	if opts.DailyVetCoins <= 0 {
		opts.DailyVetCoins = DefaultDailyVetCoins
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Profiles == nil {
		opts.Profiles = profiles.NewService(pool, nil, log)
	}
	if opts.Notifications == nil {
		opts.Notifications = notifications.New(pool)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		opts: opts, log: log.With("component", "pluginhost"), pool: pool, ledger: ledger,
		ctx: ctx, cancel: cancel,
		plugins: map[string]*plugin{}, refused: map[string]string{},
		sandboxes: map[string]*pgxpool.Pool{},
	}
}

// Start discovers and starts every plugin in the directory. A plugin that
// fails its checks is refused (logged, listed by Refused) and the others
// still load; a missing directory simply means no plugins.
func (m *Manager) Start(ctx context.Context) error {
	entries, err := os.ReadDir(m.opts.Dir)
	if errors.Is(err, os.ErrNotExist) {
		m.log.Info("plugin directory not found: no plugins loaded", "dir", m.opts.Dir)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read plugin directory: %w", err)
	}
	var wg sync.WaitGroup
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.Contains(name, ".") {
			continue // checksum files, READMEs, ...
		}
		info, err := e.Info()
		if err != nil || info.Mode()&0o111 == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.load(ctx, filepath.Join(m.opts.Dir, name))
		}()
	}
	wg.Wait()
	return nil
}

func (m *Manager) load(ctx context.Context, path string) {
	name := filepath.Base(path)
	refuse := func(reason string, err error) {
		m.log.Error("plugin refused: "+reason, "plugin", name, "path", path, "err", err)
		m.mu.Lock()
		m.refused[name] = reason
		m.mu.Unlock()
	}
	sum, err := verifyChecksum(path)
	if err != nil {
		refuse("checksum verification failed", err)
		return
	}
	p := newPlugin(m, path, sum)
	// An on-demand plugin whose binary was described before is not
	// started: its cached description makes its routes, content types and
	// menus known, and its first call starts it.
	cached := false
	var err2 error
	if p.life.idle > 0 {
		if desc, ok := m.cachedDescribe(ctx, name, sum); ok {
			cached = true
			if err2 = p.apply(ctx, desc); err2 == nil {
				p.setState(StateIdle, "")
			}
		}
	}
	if !cached {
		// A start that fails for a passing reason (the machine too busy to
		// answer the handshake in time, a crash at start) is tried again a
		// few times before the plugin is refused for this boot; a refusal
		// by rule (version, id, confinement) is final at once.
		for attempt := 1; ; attempt++ {
			if err2 = p.start(ctx); err2 == nil || attempt == 3 || !transientStartError(err2) || ctx.Err() != nil {
				break
			}
			m.log.Warn("plugin did not start; trying again", "plugin", name, "attempt", attempt, "err", err2)
			time.Sleep(time.Duration(attempt) * 500 * time.Millisecond)
		}
	}
	if err := err2; err != nil {
		var ve *versionError
		var ie *idError
		var ce *confinementError
		switch {
		case errors.As(err, &ve):
			refuse("requires a newer core", err)
		case errors.As(err, &ie) && ie.malformed:
			refuse("plugin id not allowed", err)
		case errors.As(err, &ie):
			refuse("manifest id differs from the file name", err)
		case errors.As(err, &ce):
			refuse("confinement unavailable", err)
		default:
			refuse("could not start", err)
		}
		return
	}
	p.mu.Lock()
	id, version, describe := p.manifest.Id, p.manifest.Version, p.life.describe
	p.mu.Unlock()
	if _, err := m.pool.Exec(ctx, `
		INSERT INTO plugin_installations (plugin_id, sha256, version, describe) VALUES ($1, $2, $3, $4)
		ON CONFLICT (plugin_id, sha256) DO UPDATE SET last_seen_at = now(), version = EXCLUDED.version, describe = EXCLUDED.describe`,
		id, sum, version, describe); err != nil {
		m.log.Warn("could not record plugin installation", "plugin", id, "err", err)
	}
	m.mu.Lock()
	m.plugins[id] = p
	m.mu.Unlock()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		p.supervise(m.ctx)
	}()
	if cached {
		m.log.Info("plugin loaded, idle until its first call", "plugin", id, "version", version, "sha256", sum, "idle_timeout", p.life.idle)
		return
	}
	st := p.status()
	m.log.Info("plugin loaded", "plugin", id, "version", version, "sha256", sum, "confinement", st.Summary(), "idle_timeout", p.life.idle)
	if !st.Complete() {
		m.log.Warn("plugin runs without part of its confinement", "plugin", id, "missing", strings.Join(st.Missing, ","))
	}
}

// Refused returns the plugins that were not loaded, by file name, with why.
func (m *Manager) Refused() map[string]string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make(map[string]string, len(m.refused))
	for k, v := range m.refused {
		out[k] = v
	}
	return out
}

// Plugin returns the loaded plugin with id.
func (m *Manager) plugin(id string) (*plugin, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p, ok := m.plugins[id]
	return p, ok
}

// sorted returns the loaded plugins ordered by name.
func (m *Manager) sorted() []*plugin {
	m.mu.RLock()
	out := make([]*plugin, 0, len(m.plugins))
	for _, p := range m.plugins {
		out = append(out, p)
	}
	m.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].manifest.Name < out[j].manifest.Name })
	return out
}

// PID returns the process id of a loaded plugin (0 when it is not running),
// for tests and diagnostics.
func (m *Manager) PID(id string) int {
	p, ok := m.plugin(id)
	if !ok {
		return 0
	}
	return p.pid()
}

// Close stops every plugin process and waits for the supervisors.
func (m *Manager) Close() error {
	m.cancel()
	m.wg.Wait()
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, p := range m.plugins {
		p.stop()
		p.setState(StateStopped, "")
	}
	m.sandboxMu.Lock()
	defer m.sandboxMu.Unlock()
	for id, pool := range m.sandboxes {
		pool.Close()
		delete(m.sandboxes, id)
	}
	return nil
}

// transientStartError tells a start failure worth another attempt from a
// refusal by rule.
func transientStartError(err error) bool {
	var ve *versionError
	var ie *idError
	var ce *confinementError
	return !errors.As(err, &ve) && !errors.As(err, &ie) && !errors.As(err, &ce)
}
