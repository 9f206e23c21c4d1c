package pluginhost

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// A plugin's lifecycle states, as GET /api/admin/plugins shows them.
const (
	// StateStarting: the process is being launched (at load, or by the
	// first call after an idle stop).
	StateStarting = "starting"
	// StateRunning: the process answers calls.
	StateRunning = "running"
	// StateIdle: no process; the manifest is known (cached by the binary's
	// SHA-256) and the next call starts it.
	StateIdle = "idle"
	// StateRestarting: the process crashed, hung or failed its health
	// check and the supervisor is starting it again (with backoff).
	StateRestarting = "restarting"
	// StateFailed: an on-demand start failed; the next call after the
	// backoff tries again.
	StateFailed = "failed"
	// StateStopped: the manager was closed.
	StateStopped = "stopped"
)

// DefaultGOGC and DefaultGoMemLimit are the Go runtime settings a plugin
// process gets when Options leave them empty. The soft memory limit keeps a
// plugin well under the confinement's hard limit. Heap growth stays at Go's
// default: a tighter one (GOGC=50) made no measurable difference to idle
// plugins' resident memory, whose heaps are small, but cost about a tenth of
// a plugin call's throughput in collections under load.
const (
	DefaultGOGC       = "100"
	DefaultGoMemLimit = "64MiB"
)

// lifecycle is a plugin's on-demand state, guarded by plugin.mu.
type lifecycle struct {
	idle      time.Duration // stop after this long without a call; 0 keeps the process resident
	state     string
	lastErr   string
	startedAt time.Time
	lastUsed  time.Time // the last call's start or end
	inflight  int       // calls holding the client (use)
	coldStart time.Duration
	attempt   *startAttempt // the on-demand start under way
	failures  int           // consecutive failed on-demand starts
	failedAt  time.Time
	describe  []byte // the applied description (deterministic protobuf)
}

// startable reports whether a call may start the process itself: an
// on-demand plugin that is idle, or whose last on-demand start failed.
func (l *lifecycle) startable() bool {
	return l.idle > 0 && (l.state == StateIdle || l.state == StateFailed || l.state == StateStarting)
}

// startAttempt is one on-demand start; every call arriving meanwhile waits
// for the same one, so concurrent first calls start one process.
type startAttempt struct {
	done chan struct{}
	err  error
}

func marshalDescribe(desc *pluginpb.DescribeResponse) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(desc)
}

// idleTimeout is how long plugin id stays up without calls: its entry in
// Options.IdleTimeouts, else Options.IdleTimeout (0: resident).
func (m *Manager) idleTimeout(id string) time.Duration {
	if d, ok := m.opts.IdleTimeouts[id]; ok {
		return max(d, 0)
	}
	return max(m.opts.IdleTimeout, 0)
}

// runtimeEnv is the Go runtime tuning every plugin process starts with.
func (m *Manager) runtimeEnv() []string {
	gogc, limit := m.opts.PluginGOGC, m.opts.PluginGoMemLimit
	if gogc == "" {
		gogc = DefaultGOGC
	}
	if limit == "" {
		limit = DefaultGoMemLimit
	}
	return []string{"GOGC=" + gogc, "GOMEMLIMIT=" + limit}
}

// cachedDescribe is the description recorded for plugin id's binary sum, if
// any: what the host needs to serve the plugin's routes, content types and
// menus without starting it.
func (m *Manager) cachedDescribe(ctx context.Context, id, sum string) (*pluginpb.DescribeResponse, bool) {
	var raw []byte
	err := m.pool.QueryRow(ctx, `SELECT describe FROM plugin_installations WHERE plugin_id = $1 AND sha256 = $2 AND describe IS NOT NULL`,
		id, sum).Scan(&raw)
	if err != nil {
		return nil, false
	}
	desc := &pluginpb.DescribeResponse{}
	if err := proto.Unmarshal(raw, desc); err != nil {
		m.log.Warn("cached plugin description unreadable; starting the plugin", "plugin", id, "err", err)
		return nil, false
	}
	return desc, true
}

func (p *plugin) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.life.state == StateRunning
}

func (p *plugin) setState(state, lastErr string) {
	p.mu.Lock()
	p.life.state, p.life.lastErr = state, lastErr
	p.mu.Unlock()
}

// waitClient answers the running process's client, starting an on-demand
// plugin's process when it is idle, or waits until the plugin is ready
// (after a restart) or ctx ends. It counts as a use for the idle timer.
func (p *plugin) waitClient(ctx context.Context) (*hostside.Client, error) {
	for {
		p.mu.Lock()
		if c := p.rpc; c != nil {
			p.life.lastUsed = time.Now()
			p.mu.Unlock()
			return c, nil
		}
		ready, attempt, err := p.ready, p.life.attempt, error(nil)
		if attempt == nil && p.life.startable() {
			attempt, err = p.beginColdStartLocked()
		}
		p.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if attempt != nil {
			ready = attempt.done
		}
		select {
		case <-ready:
			if attempt != nil && attempt.err != nil {
				return nil, attempt.err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// use is waitClient for a call the idle timer must not cut: the process is
// not stopped for idleness until done is called.
func (p *plugin) use(ctx context.Context) (*hostside.Client, func(), error) {
	c, err := p.waitClient(ctx)
	if err != nil {
		return nil, func() {}, err
	}
	p.mu.Lock()
	if p.rpc != c { // stopped between the two locks: try again
		p.mu.Unlock()
		return p.use(ctx)
	}
	p.life.inflight++
	p.mu.Unlock()
	return c, func() {
		p.mu.Lock()
		p.life.inflight--
		p.life.lastUsed = time.Now()
		p.mu.Unlock()
	}, nil
}

// beginColdStartLocked starts the process in the background (bound to the
// manager, not to the first caller, so a caller giving up does not fail
// the others). A plugin whose last on-demand starts failed waits out the
// supervisor's backoff first, answering the failure meanwhile.
func (p *plugin) beginColdStartLocked() (*startAttempt, error) {
	if p.life.state == StateFailed && time.Since(p.life.failedAt) < backoff(p.life.failures) {
		return nil, fmt.Errorf("plugin start failed recently: %s", p.life.lastErr)
	}
	a := &startAttempt{done: make(chan struct{})}
	p.life.attempt, p.life.state = a, StateStarting
	go func() {
		began := time.Now()
		err := p.start(p.m.ctx)
		if err != nil && p.m.ctx.Err() == nil {
			// A launch that failed once (the machine busy past the
			// handshake's timeout, a transient error in the sandbox
			// helper) is tried again at once before the callers are
			// failed; a second failure waits for the backoff.
			p.log.Warn("plugin on-demand start failed; trying again", "err", err)
			err = p.start(p.m.ctx)
		}
		took := time.Since(began)
		p.mu.Lock()
		p.life.attempt = nil
		if err != nil {
			p.life.state, p.life.lastErr = StateFailed, err.Error()
			p.life.failures++
			p.life.failedAt = time.Now()
		} else {
			p.life.coldStart, p.life.failures = took, 0
		}
		a.err = err
		p.mu.Unlock()
		if err != nil {
			p.log.Error("plugin on-demand start failed", "err", err)
		} else {
			p.log.Info("plugin started on demand", "cold_start_ms", took.Milliseconds())
		}
		close(a.done)
	}()
	return a, nil
}

// stopIfIdle stops an on-demand plugin's process when no call used it for
// its idle period and none is under way; the next call starts it again.
func (p *plugin) stopIfIdle(now time.Time) bool {
	p.mu.Lock()
	l := &p.life
	if l.idle <= 0 || l.state != StateRunning || l.inflight > 0 || now.Sub(l.lastUsed) < l.idle || p.rpc == nil {
		p.mu.Unlock()
		return false
	}
	client, cleanup, idle := p.client, p.cleanup, l.idle
	p.client, p.rpc, p.cleanup = nil, nil, nil
	p.ready = make(chan struct{})
	l.state = StateIdle
	p.mu.Unlock()
	client.Kill()
	if cleanup != nil {
		cleanup()
	}
	p.log.Info("plugin stopped after its idle period", "idle", idle)
	return true
}

// Lifecycle is a plugin's process as GET /api/admin/plugins shows it.
type Lifecycle struct {
	State string `json:"state"`
	// OnDemand: the process starts on the first call and stops after
	// IdleSeconds without calls.
	OnDemand    bool       `json:"on_demand"`
	IdleSeconds float64    `json:"idle_seconds,omitempty"`
	PID         int        `json:"pid,omitempty"`
	RSSBytes    int64      `json:"rss_bytes,omitempty"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	LastCallAt  *time.Time `json:"last_call_at,omitempty"`
	// ColdStartMS is the last on-demand start, launch to first answer.
	ColdStartMS float64 `json:"cold_start_ms,omitempty"`
	LastError   string  `json:"last_error,omitempty"`
}

func (p *plugin) lifecycle() Lifecycle {
	p.mu.Lock()
	l := p.life
	out := Lifecycle{State: l.state, OnDemand: l.idle > 0, IdleSeconds: l.idle.Seconds(), LastError: l.lastErr}
	if l.state == StateRestarting && l.lastErr != "" {
		out.State = StateFailed // the supervisor keeps retrying
	}
	if l.coldStart > 0 {
		out.ColdStartMS = float64(l.coldStart.Microseconds()) / 1000
	}
	if !l.startedAt.IsZero() {
		t := l.startedAt
		out.StartedAt = &t
	}
	if !l.lastUsed.IsZero() {
		t := l.lastUsed
		out.LastCallAt = &t
	}
	client := p.client
	p.mu.Unlock()
	if client != nil {
		if rc := client.ReattachConfig(); rc != nil {
			out.PID = rc.Pid
			out.RSSBytes = processRSS(rc.Pid)
		}
	}
	return out
}

// processRSS reads a process's resident memory from /proc (0 when unknown).
func processRSS(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// Lifecycle returns plugin id's process state (false when not loaded).
func (m *Manager) Lifecycle(id string) (Lifecycle, bool) {
	p, ok := m.plugin(id)
	if !ok {
		return Lifecycle{}, false
	}
	return p.lifecycle(), true
}

var errNotLoaded = errors.New("plugin not loaded")

// Warm starts plugin id's process if it is idle and waits until it answers
// (the bench and tests measure cold starts with it).
func (m *Manager) Warm(ctx context.Context, id string) error {
	p, ok := m.plugin(id)
	if !ok {
		return errNotLoaded
	}
	_, err := p.waitClient(ctx)
	return err
}
