package pluginhost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// plugin is one supervised plugin process. The manifest is read at the
// first start and refreshed on every restart.
type plugin struct {
	m    *Manager
	path string
	sum  string
	log  *slog.Logger

	mu       sync.Mutex
	client   *goplugin.Client
	rpc      *hostside.Client
	ready    chan struct{} // closed while rpc is usable
	manifest *pluginpb.Manifest
	hooks    map[pluginpb.Hook]bool
	uiSchema json.RawMessage

	restart chan struct{}
	tokens  sync.Map // request token → requestContext

	confinement confine.Status // what the running process is confined by
	cleanup     func()         // removes the process's private directory

	life lifecycle // on-demand start and idle stop (ondemand.go), guarded by mu
}

func newPlugin(m *Manager, path, sum string) *plugin {
	return &plugin{
		m: m, path: path, sum: sum,
		log:     m.log.With("plugin", baseName(path)),
		ready:   make(chan struct{}),
		restart: make(chan struct{}, 1),
		life:    lifecycle{idle: m.idleTimeout(baseName(path)), state: StateStarting},
	}
}

// startTimeout bounds a plugin process's handshake and its Describe answer.
const startTimeout = 20 * time.Second

// start launches the process, reads its manifest, checks it and applies its
// schema migrations; on success the plugin is ready for calls.
func (p *plugin) start(ctx context.Context) error {
	sum, err := hex.DecodeString(p.sum)
	if err != nil {
		return fmt.Errorf("checksum: %w", err)
	}
	stderr := &lineLogger{log: p.log, msg: "plugin stderr"}
	prep, err := confine.Prepare(p.m.opts.Sandbox, baseName(p.path), p.path, p.sum, append(pluginEnv(), p.m.runtimeEnv()...))
	if err != nil {
		return fmt.Errorf("confinement: %w", err)
	}
	// PLUGIN_SANDBOX=off (Enabled false) is the operator's explicit choice.
	if p.m.opts.RequireConfinement && prep.Status.Enabled && !prep.Status.Complete() {
		prep.Cleanup()
		return &confinementError{missing: prep.Status.Missing}
	}
	var secure *goplugin.SecureConfig
	if !prep.Status.Enabled {
		// go-plugin hashes the file again right before executing it, so a
		// binary swapped after discovery is refused on restart too.
		secure = &goplugin.SecureConfig{Checksum: sum, Hash: sha256.New()}
	}
	// When confined, the command is the helper: it hashes the plugin on
	// the descriptor it then executes, so a swapped binary never runs.
	var sockets *goplugin.UnixSocketConfig
	if prep.SocketGroup != "" {
		// The host's broker sockets must be reachable by the plugin's
		// user, and only by it: they belong to its group, mode 0660.
		sockets = &goplugin.UnixSocketConfig{Group: prep.SocketGroup}
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: hostside.Handshake(),
		Plugins: map[string]goplugin.Plugin{hostside.PluginName: &hostside.Plugin{
			HostServer: func() pluginpb.HostServer { return &hostAPI{p: p} },
		}},
		Cmd: prep.Cmd,
		// Only pluginEnv reaches the plugin, plus go-plugin's handshake.
		SkipHostEnv:      true,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		SecureConfig:     secure,
		UnixSocketConfig: sockets,
		// Generous: a busy machine (a deploy's burst, a test run) may take
		// seconds to schedule a new process, and a plugin refused at boot
		// stays refused until the next start.
		StartTimeout: startTimeout,
		Stderr:       stderr,
		Logger: hclog.New(&hclog.LoggerOptions{
			Name: "go-plugin", Level: hclog.Warn, Output: &lineLogger{log: p.log, msg: "go-plugin"},
		}),
	})
	fail := func(err error) error {
		client.Kill()
		prep.Cleanup()
		return err
	}
	rpcClient, err := client.Client()
	if err != nil {
		return fail(fmt.Errorf("start %s: %w", p.path, err))
	}
	raw, err := rpcClient.Dispense(hostside.PluginName)
	if err != nil {
		return fail(fmt.Errorf("dispense: %w", err))
	}
	c, ok := raw.(*hostside.Client)
	if !ok {
		return fail(fmt.Errorf("dispense returned %T", raw))
	}
	dctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	desc, err := c.Describe(dctx, &pluginpb.DescribeRequest{HostBrokerId: c.HostBrokerID, CoreVersion: p.m.opts.CoreVersion})
	if err != nil {
		return fail(fmt.Errorf("describe: %w", err))
	}
	if err := p.apply(ctx, desc); err != nil {
		return fail(err)
	}
	now := time.Now()
	p.mu.Lock()
	p.client, p.rpc = client, c
	p.confinement, p.cleanup = prep.Status, prep.Cleanup
	p.life.state, p.life.lastErr, p.life.startedAt = StateRunning, "", now
	p.life.lastUsed = now // a fresh process gets a full idle period
	close(p.ready)
	p.mu.Unlock()
	return nil
}

// apply checks a plugin's description (from its process, or the cache kept
// for its binary) and makes it known: schema migrations, content types,
// hooks and manifest. A description identical to the one already applied
// (a restart or an on-demand start of the same binary) skips the migrations
// and registrations, which are already in place.
func (p *plugin) apply(ctx context.Context, desc *pluginpb.DescribeResponse) error {
	man := desc.GetManifest()
	if man == nil || man.Id == "" {
		return errors.New("describe: empty manifest")
	}
	ok, err := versionAtLeast(p.m.opts.CoreVersion, man.MinCoreVersion)
	if err != nil {
		return fmt.Errorf("min_core_version: %w", err)
	}
	if !ok {
		return &versionError{plugin: man.Id, need: man.MinCoreVersion, have: p.m.opts.CoreVersion}
	}
	// The id names the plugin's role and schema: it must be the one the
	// binary was installed as, and well formed, before any of its SQL runs.
	if man.Id != baseName(p.path) {
		return &idError{id: man.Id, file: baseName(p.path)}
	}
	if !ValidID(man.Id) {
		return &idError{id: man.Id, file: baseName(p.path), malformed: true}
	}
	raw, err := marshalDescribe(desc)
	if err != nil {
		return fmt.Errorf("describe: %w", err)
	}
	p.mu.Lock()
	same := bytes.Equal(raw, p.life.describe)
	p.mu.Unlock()
	if !same {
		if err := p.m.migrateSchema(ctx, man.Id, man.Migrations); err != nil {
			return fmt.Errorf("schema migrations: %w", err)
		}
		if err := p.m.registerContentTypes(man); err != nil {
			return fmt.Errorf("content types: %w", err)
		}
	}
	hooks := map[pluginpb.Hook]bool{}
	for _, h := range desc.Hooks {
		hooks[h] = true
	}
	p.mu.Lock()
	p.manifest, p.hooks, p.life.describe = man, hooks, raw
	p.uiSchema = nil
	if len(man.UiSchema) > 0 && json.Valid(man.UiSchema) {
		p.uiSchema = json.RawMessage(man.UiSchema)
	}
	p.mu.Unlock()
	return nil
}

// allowedEnv is all of the core's environment a plugin process sees: the
// core's secrets (database URL, payment, OAuth and mail credentials, API
// keys) are never passed on; a plugin reaches the core only through the
// host API.
var allowedEnv = []string{"PATH", "HOME", "LANG", "TZ", "TMPDIR"}

func pluginEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowedEnv, name) || strings.HasPrefix(name, "LC_") {
			env = append(env, kv)
		}
	}
	return env
}

// confinementError refuses a plugin that would run with less confinement
// than production requires.
type confinementError struct{ missing []string }

func (e *confinementError) Error() string {
	return "plugin confinement incomplete on this host, missing: " + strings.Join(e.missing, ", ") +
		" (production refuses unconfined plugins; PLUGIN_SANDBOX=off allows them explicitly)"
}

// idError refuses a plugin whose manifest id differs from its file name or
// could collide with another plugin's schema and role.
type idError struct {
	id, file  string
	malformed bool
}

func (e *idError) Error() string {
	if e.malformed {
		return fmt.Sprintf("plugin id %q is not allowed: lowercase letters, digits and single hyphens, 2 to 40 characters", e.id)
	}
	return fmt.Sprintf("manifest id %q differs from the file name %q", e.id, e.file)
}

// stop kills the process; calls wait for the next start.
func (p *plugin) stop() {
	p.mu.Lock()
	client, cleanup := p.client, p.cleanup
	p.client, p.rpc, p.cleanup = nil, nil, nil
	select {
	case <-p.ready:
		p.ready = make(chan struct{})
	default:
	}
	p.mu.Unlock()
	if client != nil {
		client.Kill()
	}
	if cleanup != nil {
		cleanup()
	}
}

// status returns the confinement of the running process.
func (p *plugin) status() confine.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.confinement
}

func (p *plugin) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client == nil {
		return 0
	}
	if rc := p.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// info returns the manifest, the ui_schema and whether the plugin can
// answer: running, or stopped for idleness and started by the next call.
func (p *plugin) info() (*pluginpb.Manifest, json.RawMessage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.manifest, p.uiSchema, p.rpc != nil || p.life.startable()
}

// requestRestart asks the supervisor for a restart (after a hang or crash).
func (p *plugin) requestRestart() {
	select {
	case p.restart <- struct{}{}:
	default:
	}
}

// supervise restarts the plugin when its process exits, a health check
// fails or a call hangs. Consecutive restarts back off (0, 250 ms, 500 ms, …
// up to 10 s); a plugin that stayed up for a minute starts over at 0, so a
// single crash is repaired at once.
func (p *plugin) supervise(ctx context.Context) {
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	lastHealth := time.Now()
	lastRestart := time.Time{}
	failures := 0
	for {
		reason := ""
		select {
		case <-ctx.Done():
			return
		case <-p.restart:
			if p.running() {
				reason = "call timed out or failed"
			}
		case <-poll.C:
			p.mu.Lock()
			client, state := p.client, p.life.state
			p.mu.Unlock()
			if state != StateRunning {
				// Not started yet, stopped for idleness, or its on-demand
				// start failed: the next call starts it.
				continue
			}
			switch {
			case p.stopIfIdle(time.Now()):
				continue
			case client == nil || client.Exited():
				reason = "process exited"
			case time.Since(lastHealth) >= p.m.opts.HealthInterval:
				lastHealth = time.Now()
				if err := p.checkHealth(ctx); err != nil {
					reason = "health check failed: " + err.Error()
				}
			}
		}
		if reason == "" {
			continue
		}
		if time.Since(lastRestart) > time.Minute {
			failures = 0
		}
		p.log.Warn("restarting plugin", "reason", reason, "attempt", failures+1)
		p.stop()
		p.setState(StateRestarting, "")
		for {
			if delay := backoff(failures); delay > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(delay):
				}
			}
			failures++
			lastRestart = time.Now()
			err := p.start(ctx)
			if err == nil {
				p.log.Info("plugin restarted")
				break
			}
			if ctx.Err() != nil {
				return
			}
			p.setState(StateRestarting, err.Error())
			p.log.Error("plugin restart failed", "err", err)
		}
		lastHealth = time.Now()
		// Drop a restart request raised by calls that failed during the
		// restart we just did.
		select {
		case <-p.restart:
		default:
		}
	}
}

func backoff(failures int) time.Duration {
	if failures == 0 {
		return 0
	}
	d := 250 * time.Millisecond << min(failures-1, 6)
	return min(d, 10*time.Second)
}

func (p *plugin) checkHealth(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, min(p.m.opts.CallTimeout, 2*time.Second))
	defer cancel()
	p.mu.Lock()
	c := p.rpc
	p.mu.Unlock()
	if c == nil {
		return errors.New("not running")
	}
	res, err := c.CheckHealth(ctx, &pluginpb.HealthRequest{})
	if err != nil {
		return err
	}
	if !res.Ok {
		return errors.New(res.Message)
	}
	return nil
}

// lineLogger turns a plugin's stderr (and go-plugin's own log) into slog
// records tagged with the plugin id.
type lineLogger struct {
	log *slog.Logger
	msg string
	mu  sync.Mutex
	buf []byte
}

func (l *lineLogger) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	for {
		i := strings.IndexByte(string(l.buf), '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
		if line != "" {
			l.logLine(line)
		}
	}
	return len(b), nil
}

// logLine keeps hclog's JSON lines (go-plugin inside the plugin) at their own
// level; anything else on stderr (a runtime crash trace) is a warning.
func (l *lineLogger) logLine(line string) {
	var entry map[string]any
	if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &entry) == nil {
		level := slog.LevelInfo
		switch entry["@level"] {
		case "trace", "debug":
			level = slog.LevelDebug
		case "warn":
			level = slog.LevelWarn
		case "error":
			level = slog.LevelError
		}
		msg, _ := entry["@message"].(string)
		attrs := []any{"source", l.msg}
		for k, v := range entry {
			if !strings.HasPrefix(k, "@") {
				attrs = append(attrs, k, v)
			}
		}
		l.log.Log(context.Background(), level, msg, attrs...)
		return
	}
	l.log.Warn(l.msg, "line", line)
}

var _ io.Writer = (*lineLogger)(nil)
