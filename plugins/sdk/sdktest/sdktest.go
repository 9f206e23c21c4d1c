// Package sdktest runs a plugin's HTTP handler in its own tests with neither
// the core nor a plugin process: a fake host answers the SDK's Host calls in
// memory, the way the core's host API does.
//
//	host := sdktest.New(t, sdktest.WithSQL(Migrations))
//	h := Handler(host.Host)
//	req := host.As(httptest.NewRequest("GET", "/analyses", nil), sdktest.User("u1"))
//	rec := httptest.NewRecorder()
//	h.ServeHTTP(rec, req)
//
// What the fake keeps:
//   - a key-value store with compare-and-set and TTLs measured on an
//     injectable clock (Clock; Advance moves it), so expiry needs no sleep;
//   - every VetCoins award and notification, with idempotency keys honoured
//     (a repeated key reports duplicate and records nothing), and the
//     core's daily VetCoins budget per user (WithDailyVetCoins);
//   - SQL in a fresh PostgreSQL schema holding the plugin's migrations, when
//     the test asks for it with WithSQL (TEST_DATABASE_URL, or the local
//     server); without a reachable server that test fails, like the core's.
//
// Calls that act for a user need a request made with As, as the real host
// refuses them outside a request; Fail makes a call answer an error (for
// example the core's 429 or 503) so a plugin's error paths can be tested.
package sdktest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/internal/bridge"
	"github.com/vetclube/vetclube/plugins/sdk/prompt"
)

// Host is a fake core for one plugin's tests.
type Host struct {
	// Host is what the plugin's Handler (and hooks) receive.
	Host *sdk.Host
	// Clock drives KV expiry; it starts at a fixed instant.
	Clock *Clock

	t      testing.TB
	client *client
	sql    *sqlStore

	mu            sync.Mutex
	users         map[string]sdk.User // request token → user
	profiles      map[string]sdk.Profile
	kv            map[string]kvEntry
	awards        []Award
	awardKeys     map[string]Award
	notifications []Notification
	notifKeys     map[string]Notification
	failures      map[string]error
	logs          []LogRecord
	dailyVetCoins int64
	limits        map[string]int
	premium       bool
	limitChecks   []sdk.Limit
	files         map[string]storedFile
	fileSeq       int
	// The scripted AI (ai.go).
	aiQueue  []AIAnswer
	aiCalls  []AICall
	aiLimit  int
	aiUsed   map[string]int
	aiImages map[string]aiImage
	// Scheduled notifications and published content (schedule.go,
	// published.go), made on first use.
	scheduled map[string]*Scheduled
	published map[string][]sdk.PublishedItem
}

type kvEntry struct {
	value   []byte
	expires time.Time // zero: never
}

// Award is one VetCoins credit the plugin asked for.
type Award struct {
	UserID         string
	Amount         int64
	Reason         string
	IdempotencyKey string
	Kind           string // the ledger kind: "plugin" or "challenge"
	At             time.Time
}

// Notification is one in-app notification the plugin sent.
type Notification struct {
	UserID         string
	Title, Body    string
	IdempotencyKey string
	At             time.Time
}

// LogRecord is one record the plugin logged through Host.Logger.
type LogRecord struct {
	Level, Message string
	Attrs          map[string]any
}

// Option configures New.
type Option func(*config)

type config struct {
	migrations    []sdk.Migration
	wantSQL       bool
	start         time.Time
	dailyVetCoins int64
	prompts       fs.FS
}

// WithSQL gives the plugin a fresh PostgreSQL schema with migrations applied,
// dropped when the test ends. The server is TEST_DATABASE_URL (default: the
// local PostgreSQL on 127.0.0.1:5432, trust auth); when none answers, the
// test fails: a test that asked for SQL proves nothing without it.
func WithSQL(migrations []sdk.Migration) Option {
	return func(c *config) { c.wantSQL, c.migrations = true, migrations }
}

// WithStart sets the clock's first instant (default 2026-01-05 12:00 UTC).
func WithStart(t time.Time) Option { return func(c *config) { c.start = t } }

// DefaultDailyVetCoins is the core's default cap on what one plugin may
// award one user per UTC day (PLUGIN_DAILY_VETCOINS_BUDGET).
const DefaultDailyVetCoins = 500

// WithDailyVetCoins sets the cap on what the plugin may award one user per
// UTC day (default DefaultDailyVetCoins, as in the core); over it
// AwardVetCoins answers ResourceExhausted (a 429 for sdk.WriteHostError).
// 0 sets no cap.
func WithDailyVetCoins(n int64) Option { return func(c *config) { c.dailyVetCoins = n } }

// New returns a fake host for the test t.
func New(t testing.TB, opts ...Option) *Host {
	t.Helper()
	cfg := config{start: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), dailyVetCoins: DefaultDailyVetCoins}
	for _, o := range opts {
		o(&cfg)
	}
	h := &Host{
		Clock:         &Clock{now: cfg.start},
		t:             t,
		users:         map[string]sdk.User{},
		profiles:      map[string]sdk.Profile{},
		kv:            map[string]kvEntry{},
		awardKeys:     map[string]Award{},
		notifKeys:     map[string]Notification{},
		failures:      map[string]error{},
		dailyVetCoins: cfg.dailyVetCoins,
		limits:        map[string]int{},
		files:         map[string]storedFile{},
		aiLimit:       prompt.DefaultTrialDaily,
		aiUsed:        map[string]int{},
		aiImages:      map[string]aiImage{},
	}
	if cfg.wantSQL {
		h.sql = openSQL(t, cfg.migrations)
	}
	h.client = &client{h: h}
	h.Host = bridge.NewHost(h.client).(*sdk.Host)
	if err := h.Host.AI.UsePrompts(cfg.prompts); err != nil {
		t.Fatalf("sdktest: prompts: %v", err)
	}
	return h
}

// User returns a signed-in user with no subscription, for As.
func User(id string) sdk.User { return sdk.User{ID: id, Subscription: "none"} }

// As returns r as the core would hand it to the plugin for u: sdk.UserFrom
// answers u, and Host calls acting for a user act for u. A zero u stands for
// a request without a signed-in user (the host refuses user calls).
func (h *Host) As(r *http.Request, u sdk.User) *http.Request {
	return r.WithContext(h.Context(r.Context(), u))
}

// Context is As for a context, e.g. to call a DashboardCard hook.
func (h *Host) Context(ctx context.Context, u sdk.User) context.Context {
	token := newToken()
	h.mu.Lock()
	h.users[token] = u
	h.mu.Unlock()
	return bridge.WithUser(ctx, u.ID, u.Roles, u.Subscription, token)
}

// SetProfile sets the public profile CurrentProfile answers for p.UserID.
func (h *Host) SetProfile(p sdk.Profile) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.profiles[p.UserID] = p
}

// Fail makes every later call of the named Host method (e.g.
// "AwardVetCoins", "KVGet", "SQLQuery") answer err, until Fail(method, nil).
// Errors built with status.Error carry the core's gRPC codes, which
// sdk.HostErrorStatus maps to 401, 429 and 503.
func (h *Host) Fail(method string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		delete(h.failures, method)
		return
	}
	h.failures[method] = err
}

// Awards returns the VetCoins awards recorded so far, in order.
func (h *Host) Awards() []Award {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Award(nil), h.awards...)
}

// Notifications returns the notifications recorded so far, in order.
func (h *Host) Notifications() []Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Notification(nil), h.notifications...)
}

// Logs returns what the plugin logged through Host.Logger.
func (h *Host) Logs() []LogRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]LogRecord(nil), h.logs...)
}

// KV returns the live value under key, ignoring expired entries.
func (h *Host) KV(key string) (value []byte, found bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.liveKV(key)
	return e.value, ok
}

// KVKeys returns every live key, in order.
func (h *Host) KVKeys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.liveKeys("")
}

// Logger returns a logger that writes to the test's log, for code that
// needs one outside a Host.
func (h *Host) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{h.t}, nil))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Clock is a manual clock: time moves only when the test says so.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's instant.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// user returns the signed-in user of the request token, refusing calls made
// outside a request or for a request without a user, like the core.
func (h *Host) user(token string) (sdk.User, error) {
	u, ok := h.users[token]
	if !ok || token == "" {
		return sdk.User{}, status.Error(codes.PermissionDenied, "no live request: user calls are only allowed while serving a request (use sdktest.Host.As)")
	}
	if u.ID == "" {
		return sdk.User{}, status.Error(codes.PermissionDenied, "the request has no signed-in user")
	}
	return u, nil
}

func (h *Host) failure(method string) error { return h.failures[method] }

func (h *Host) liveKV(key string) (kvEntry, bool) {
	e, ok := h.kv[key]
	if !ok || (!e.expires.IsZero() && !e.expires.After(h.Clock.Now())) {
		return kvEntry{}, false
	}
	return e, true
}

func (h *Host) liveKeys(prefix string) []string {
	var keys []string
	for k := range h.kv {
		if _, ok := h.liveKV(k); ok && strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func (h *Host) expiry(ttlSeconds int64) time.Time {
	if ttlSeconds <= 0 {
		return time.Time{}
	}
	return h.Clock.Now().Add(time.Duration(ttlSeconds) * time.Second)
}

// awardedToday sums the user's awards since the clock's UTC midnight.
func (h *Host) awardedToday(user string) int64 {
	now := h.Clock.Now().UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	var sum int64
	for _, a := range h.awards {
		if a.UserID == user && !a.At.Before(midnight) {
			sum += a.Amount
		}
	}
	return sum
}

func errorf(code codes.Code, format string, args ...any) error {
	return status.Error(code, fmt.Sprintf(format, args...))
}
