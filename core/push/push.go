// Package push is VetClube's Web Push: the VAPID key pair, the devices each
// member subscribed (push_subscriptions), and delivery (push_messages,
// push_deliveries). The notifications service decides what to push and to
// whom and enqueues it in its own transaction; a Temporal workflow
// (workflows/push.go) then drives DeliverDue until every delivery is sent,
// gone or given up, so retries and backoff survive restarts.
package push

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/ratelimit"
)

// Starter starts the delivery workflow of one message; workflows.Engine
// implements it. Starting twice must be harmless.
type Starter interface {
	StartPushDelivery(ctx context.Context, messageID string) error
}

// Options configures a Service. Zero values take the defaults noted.
type Options struct {
	// Keys is the VAPID pair; nil means push is not configured: the public
	// key endpoint answers 503 and nothing is enqueued.
	Keys *Keys
	// Subject is the VAPID "sub": a mailto: address or an https URL.
	Subject string
	// AllowLocalServices lets deliveries reach push services on loopback and
	// private addresses and accepts http://127.0.0.1 and http://localhost
	// endpoints: only for tests and benchmarks that run their own push
	// service. Off, the dialer refuses every non-public address after name
	// resolution, so a member cannot point the server at the internal
	// network.
	AllowLocalServices bool
	// Starter starts delivery workflows; nil leaves messages pending until
	// a worker's Resume starts them.
	Starter Starter
	// HTTPClient talks to push services (default: 30 s timeout, the
	// address check of AllowLocalServices, no redirects).
	HTTPClient *http.Client
	Log        *slog.Logger

	// Concurrency bounds the sends one DeliverDue call has in flight (32).
	Concurrency int
	// MaxAttempts is how many sends a delivery gets before it fails (8).
	MaxAttempts int
	// BaseBackoff is the wait after the first retryable failure, doubled
	// for each further one (5 s) up to MaxBackoff (1 h); a Retry-After
	// header longer than that wins.
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// TestRule caps the test pushes a member may send (5 a minute): each
	// one makes the server POST to every device of theirs.
	TestRule ratelimit.Rule
	// Now is the clock of the rate limit (time.Now).
	Now func() time.Time
	// ClaimTTL is how long a claimed delivery stays reserved for the worker
	// sending it (1 min); a worker that died mid-send frees it after that.
	ClaimTTL time.Duration
}

// Service is Web Push over PostgreSQL.
type Service struct {
	pool    *pgxpool.Pool
	opts    Options
	log     *slog.Logger
	limiter *ratelimit.Limiter
}

// pushLanesHint is how many DeliverDue calls one worker runs at once on a
// large fan-out (workflows' lanes); it sizes the idle connection pool.
const pushLanesHint = 4

// New returns a push service.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 32
	}
	if o.HTTPClient == nil {
		// A fan-out sends to a handful of push services (FCM, Mozilla,
		// Apple) from many goroutines at once; the default transport keeps
		// only two idle connections per host, so most sends would open (and
		// then drop) a new TLS connection. Keep one per send in flight.
		o.HTTPClient = newHTTPClient(o.AllowLocalServices, pushLanesHint*o.Concurrency)
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 8
	}
	if o.BaseBackoff <= 0 {
		o.BaseBackoff = 5 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Hour
	}
	if o.ClaimTTL <= 0 {
		o.ClaimTTL = time.Minute
	}
	// webpush-go prefixes anything that is not an https URL with "mailto:".
	o.Subject = strings.TrimPrefix(strings.TrimSpace(o.Subject), "mailto:")
	if o.Subject == "" {
		o.Subject = "nao-responda@vetclube.com.br"
	}
	if o.TestRule.Max <= 0 || o.TestRule.Window <= 0 {
		o.TestRule = ratelimit.Rule{Max: 5, Window: time.Minute}
	}
	return &Service{pool: pool, opts: o, log: o.Log, limiter: ratelimit.New(pool, o.Now)}
}

// SetStarter sets the workflow starter once the Temporal client exists.
func (s *Service) SetStarter(st Starter) { s.opts.Starter = st }

// Configured reports whether a VAPID pair is set.
func (s *Service) Configured() bool { return s.opts.Keys != nil }

// PublicKey is the VAPID public key browsers subscribe with ("" when none).
func (s *Service) PublicKey() string {
	if s.opts.Keys == nil {
		return ""
	}
	return s.opts.Keys.Public
}

// Dispatch starts delivery of a committed message. A failure is logged, not
// returned: the message stays undispatched and Resume starts it later.
func (s *Service) Dispatch(ctx context.Context, messageID string) {
	if s.opts.Starter == nil {
		return
	}
	if err := s.opts.Starter.StartPushDelivery(ctx, messageID); err != nil {
		s.log.Warn("start push delivery; it will be resumed", "message_id", messageID, "err", err)
		return
	}
	if _, err := s.pool.Exec(ctx, `UPDATE push_messages SET dispatched_at = now() WHERE id = $1 AND dispatched_at IS NULL`, messageID); err != nil {
		s.log.Warn("mark push message dispatched", "message_id", messageID, "err", err)
	}
}

// Resume starts delivery of messages whose start was lost (a crash between
// commit and start, Temporal unreachable). Messages younger than grace are
// left to the request that created them.
func (s *Service) Resume(ctx context.Context, grace time.Duration) (int, error) {
	if s.opts.Starter == nil {
		return 0, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT id::text FROM push_messages
		WHERE dispatched_at IS NULL AND created_at < now() - $1::interval ORDER BY created_at LIMIT 1000`, grace.String())
	if err != nil {
		return 0, fmt.Errorf("find undispatched push messages: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("find undispatched push messages: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("find undispatched push messages: %w", err)
	}
	for _, id := range ids {
		s.Dispatch(ctx, id)
	}
	return len(ids), nil
}
