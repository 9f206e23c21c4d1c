// Package auth is VetClube's accounts and sessions: sign-up with email
// confirmation, password sign-in with lockout and rate limits, sessions made
// of a short-lived access token and a rotating refresh token, password reset,
// Google sign-in (OpenID Connect), and the Authenticator that turns a
// request's cookie or bearer token into a core.Principal.
package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// RoleSource adds roles to a signed-in user beyond "user" and user_roles
// (subscriptions add "trial" and "premium"). until is when its answer
// changes with no write to the database (a trial's end), zero when only a
// write changes it: a cached principal is not kept past it.
type RoleSource func(ctx context.Context, userID string) (roles []string, until time.Time, err error)

// EmailConfirmedHook runs once an account's email is confirmed (by the link,
// a password reset or Google). It runs after the confirmation is committed;
// an error is logged and does not undo the confirmation, so hooks must be
// idempotent and able to catch up later.
type EmailConfirmedHook func(ctx context.Context, userID string) error

// Options configures a Service. Zero values take the documented defaults.
type Options struct {
	PublicURL string // origin for emailed links and the Google redirect
	Log       *slog.Logger
	Now       func() time.Time

	Hash password.Params // default password.Default

	AccessTTL  time.Duration // default 15 min
	RefreshTTL time.Duration // default 30 days, sliding with each refresh
	// MaxSessionAge ends a session for good this long after its sign-in,
	// however often it is refreshed; default DefaultMaxSessionAge.
	MaxSessionAge time.Duration

	// Limits per email and per client IP.
	SignupPerEmail ratelimit.Rule // default 2 per 60 s
	LoginPerEmail  ratelimit.Rule // default 3 per 10 s
	SignupPerIP    ratelimit.Rule // default 20 per 60 s
	LoginPerIP     ratelimit.Rule // default 60 per 60 s

	RoleSources      []RoleSource
	OnEmailConfirmed []EmailConfirmedHook

	Google *GoogleConfig // nil: Google sign-in is off

	// TrialDays is the Premium trial a newly confirmed account gets, which the
	// confirmation email announces; 0 says nothing of a trial.
	TrialDays int
	// TrialOffer gives the confirmation email's sentence on what confirming
	// gives (subscriptions' TrialPromise: the trial's real limits and what
	// Premium gives), asked at each email; nil or empty: only the trial's
	// length is said.
	TrialOffer func() string
}

// Lockout policy: 5 consecutive failures lock the account 30 min.
const (
	MaxFailedLogins = 5
	LockoutDuration = 30 * time.Minute
)

// DefaultMaxSessionAge is how long a sign-in lasts at most: after it the
// refresh token stops working and the user signs in again.
const DefaultMaxSessionAge = 90 * 24 * time.Hour

// Email link lifetimes.
const (
	ConfirmTTL = 24 * time.Hour
	ResetTTL   = time.Hour
)

// refreshReuseGrace tolerates a rotated refresh token presented again within
// this time (two tabs refreshing at once): it is refused without rotating,
// but the family is not revoked. Later reuse revokes the session.
const refreshReuseGrace = 10 * time.Second

// Service implements accounts and sessions.
type Service struct {
	pool    *pgxpool.Pool
	mailer  mail.Mailer
	limiter *ratelimit.Limiter
	log     *slog.Logger
	clock   atomic.Pointer[func() time.Time] // opts.Now until SetClock
	opts    Options

	secureCookies bool
	dummyHash     string

	// csrfKey is loaded once by New: reading it lazily from the pool while a
	// session's transaction holds a connection deadlocks once every
	// connection is in such a transaction.
	csrfKey []byte

	mailKick chan struct{}

	hooksMu     sync.RWMutex
	roleSources []RoleSource
	onConfirmed []EmailConfirmedHook
	onSignIn    []SignInHook
	referrals   ReferralRecorder

	google *google

	// cache keeps resolved principals while the invalidation listener runs
	// (principalcache.go).
	cache *principalCache
}

// Mailer is the mailer the service sends through (the outbox queue or the
// development mailbox), for other mail about the account.
func (s *Service) Mailer() mail.Mailer { return s.mailer }

// New returns the service.
func New(pool *pgxpool.Pool, mailer mail.Mailer, opts Options) (*Service, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Hash.MemoryKiB == 0 {
		opts.Hash = password.Default
	}
	if opts.AccessTTL == 0 {
		opts.AccessTTL = 15 * time.Minute
	}
	if opts.RefreshTTL == 0 {
		opts.RefreshTTL = 30 * 24 * time.Hour
	}
	if opts.MaxSessionAge == 0 {
		opts.MaxSessionAge = DefaultMaxSessionAge
	}
	def := func(r *ratelimit.Rule, max int, window time.Duration) {
		if r.Max == 0 {
			*r = ratelimit.Rule{Max: max, Window: window}
		}
	}
	def(&opts.SignupPerEmail, 2, 60*time.Second)
	def(&opts.LoginPerEmail, 3, 10*time.Second)
	def(&opts.SignupPerIP, 20, 60*time.Second)
	def(&opts.LoginPerIP, 60, 60*time.Second)

	// A hash of a random password with the real cost: verified against when
	// the email is unknown, so both cases take the same time.
	dummy, err := opts.Hash.Hash(randomToken())
	if err != nil {
		return nil, err
	}
	s := &Service{
		pool:          pool,
		mailer:        mailer,
		log:           opts.Log,
		opts:          opts,
		secureCookies: secureCookies(opts.PublicURL),
		dummyHash:     dummy,
		roleSources:   slices.Clone(opts.RoleSources),
		cache:         newPrincipalCache(),
		onConfirmed:   slices.Clone(opts.OnEmailConfirmed),
		mailKick:      make(chan struct{}, 1),
	}
	s.clock.Store(&opts.Now)
	s.limiter = ratelimit.New(pool, s.now)
	if opts.Google != nil {
		s.google = newGoogle(*opts.Google, opts.PublicURL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if s.csrfKey, err = loadCSRFSecret(ctx, pool); err != nil {
		return nil, err
	}
	return s, nil
}

// now is the service's clock: sessions, tokens, lockouts and rate limits.
func (s *Service) now() time.Time { return (*s.clock.Load())() }

// SetClock replaces the clock Options.Now set, rate limits included, for a
// service already built into an app (tests only: apptest.WithClock). Cached
// principals, whose lifetimes were reckoned on the old clock, are dropped.
func (s *Service) SetClock(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	s.clock.Store(&now)
	s.cache.flush()
}

// AddRoleSource registers fn; call it while wiring, before serving.
func (s *Service) AddRoleSource(fn RoleSource) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.roleSources = append(s.roleSources, fn)
}

// AddEmailConfirmedHook registers fn; call it while wiring, before serving.
func (s *Service) AddEmailConfirmedHook(fn EmailConfirmedHook) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.onConfirmed = append(s.onConfirmed, fn)
}

// RunEmailConfirmedHooks runs every registered hook for userID, logging failures.
func (s *Service) RunEmailConfirmedHooks(ctx context.Context, userID string) {
	s.hooksMu.RLock()
	hooks := slices.Clone(s.onConfirmed)
	s.hooksMu.RUnlock()
	for _, h := range hooks {
		if err := h(ctx, userID); err != nil {
			s.log.ErrorContext(ctx, "email-confirmed hook failed", "user_id", userID, "err", err)
		}
	}
	// The hooks give roles (the trial): the confirming browser's next request
	// on this instance already has them.
	s.InvalidatePrincipalsOf(userID)
}

// rolesOf returns the effective roles: "user", user_roles rows, then role
// sources; until is the earliest moment a source's answer changes by
// itself (zero: none does).
func (s *Service) rolesOf(ctx context.Context, userID string, stored []string) (roles []string, until time.Time, err error) {
	roles = append([]string{core.RoleUser}, stored...)
	s.hooksMu.RLock()
	sources := slices.Clone(s.roleSources)
	s.hooksMu.RUnlock()
	for _, src := range sources {
		more, changes, err := src(ctx, userID)
		if err != nil {
			// A failing source (subscriptions down) costs only its roles,
			// never the user's access to everything else, and only
			// briefly: the answer without them is not kept long.
			s.log.WarnContext(ctx, "role source failed; its roles are left out", "user_id", userID, "err", err)
			changes = s.now().Add(failedSourceRetry)
		}
		if !changes.IsZero() && (until.IsZero() || changes.Before(until)) {
			until = changes
		}
		roles = append(roles, more...)
	}
	slices.Sort(roles[1:])
	return slices.Compact(roles), until, nil
}

// failedSourceRetry is how long a principal resolved while a role source
// failed is cached before the source is asked again.
const failedSourceRetry = 5 * time.Second

// secureCookies is false only for plain-http local development.
func secureCookies(publicURL string) bool {
	u, err := url.Parse(publicURL)
	if err != nil {
		return true
	}
	if u.Scheme != "http" {
		return true
	}
	h := u.Hostname()
	return !(h == "localhost" || h == "127.0.0.1" || h == "::1")
}

func (s *Service) link(path, token string) string {
	return s.opts.PublicURL + path + "?token=" + url.QueryEscape(token)
}

// StartMaintenance runs the service's background work until the returned
// stop function is called: every interval it deletes expired rate-limit
// counters, OAuth states and tokens, and at once (and every second) it sends
// the account emails requests queued (ProcessMailRequests). Several instances
// may run it at once: the deletes are idempotent and requests are claimed
// with SKIP LOCKED.
func (s *Service) StartMaintenance(interval time.Duration) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	mailDone := make(chan struct{})
	go func() {
		defer close(mailDone)
		s.runMailRequests(ctx)
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := s.prune(ctx); err != nil && ctx.Err() == nil {
					s.log.WarnContext(ctx, "auth maintenance", "err", err)
				}
			}
		}
	}()
	return func() error { cancel(); <-done; <-mailDone; return nil }
}

func (s *Service) prune(ctx context.Context) error {
	if err := s.limiter.Prune(ctx); err != nil {
		return err
	}
	now := s.now()
	// $1 is typed where a statement uses it first: in "$1 - interval" alone
	// PostgreSQL would take it for an interval, hence the casts.
	for _, q := range []string{
		`DELETE FROM oauth_states WHERE expires_at < $1`,
		`DELETE FROM email_tokens WHERE expires_at < $1`,
		`DELETE FROM login_codes WHERE expires_at < $1`,
		`DELETE FROM mfa_challenges WHERE expires_at < $1`,
		`DELETE FROM trusted_devices WHERE expires_at < $1`,
		`DELETE FROM webauthn_ceremonies WHERE expires_at < $1`,
		`DELETE FROM session_tokens WHERE expires_at < $1`,
		`DELETE FROM sessions WHERE expires_at < $1 OR revoked_at < $1::timestamptz - interval '30 days'`,
		// Counts for addresses without an account are kept as long as a
		// lockout could matter, then forgotten.
		`DELETE FROM login_lockouts WHERE updated_at < $1::timestamptz - interval '30 days' AND (locked_until IS NULL OR locked_until < $1)`,
	} {
		if _, err := s.pool.Exec(ctx, q, now); err != nil {
			return fmt.Errorf("prune: %w", err)
		}
	}
	return nil
}
