// Package referrals is "Indique e ganhe": every member's referral code and
// link, the clicks on it, the referee's binding to a referrer (frozen at
// sign-up), the anti-fraud checks, the rewards for both sides and their
// reversal, the member's dashboard and the backoffice's review queue.
//
// The referral's life (email confirmed → first paid invoice → 14-day hold →
// reward, reversal on refund or dispute, expiry after the qualification
// window) is driven by a Temporal workflow in workflows/referral.go; this
// package never imports it: it asks through Workflows, and the workflow's
// activities call this package's idempotent steps (lifecycle.go).
package referrals

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// Messages shown after a sign-up with a referral code (the product spec's).
const (
	MsgSignupReferralOK     = "Conta criada com sucesso! Indicação processada."
	MsgSignupReferralFailed = "Conta criada, mas houve um problema ao processar a indicação."
	msgBadCode              = "Código de indicação inválido."
)

// Workflow signals (workflows/referral.go names the same strings).
const (
	SignalEmailConfirmed  = "email-confirmed"
	SignalInvoicePaid     = "invoice-paid"
	SignalPaymentReversed = "payment-reversed"
	SignalReviewed        = "reviewed"
)

// InvoicePaidSignal is the payload of SignalInvoicePaid.
type InvoicePaidSignal struct {
	InvoiceID string
	PaidAt    time.Time
}

// ReversalSignal is the payload of SignalPaymentReversed.
type ReversalSignal struct {
	Kind string // "refund" or "dispute"
	At   time.Time
}

// Workflows starts and signals the referee's Referral workflow (core/app
// wires the Temporal implementation; NoWorkflows when Temporal is off).
type Workflows interface {
	// StartReferral starts the referee's workflow; a duplicate start is harmless.
	StartReferral(ctx context.Context, referralID, refereeID string) error
	// SignalReferral signals the referee's running workflow; none running is not an error.
	SignalReferral(ctx context.Context, refereeID, signal string, payload any) error
}

// NoWorkflows runs nothing: referrals are recorded and never progress.
type NoWorkflows struct{}

func (NoWorkflows) StartReferral(context.Context, string, string) error { return nil }
func (NoWorkflows) SignalReferral(context.Context, string, string, any) error {
	return nil
}

// Billing is what the rewards need from billing (core/billing implements
// it; nil while it does not): the referrer's free month as a Stripe
// customer balance credit, and the payment cards' fingerprints.
type Billing interface {
	// CreditFreeMonths credits (months > 0) or takes back (months < 0) that
	// many months of the member's plan on their Stripe customer balance,
	// once per idempotencyKey.
	CreditFreeMonths(ctx context.Context, userID string, months int, idempotencyKey string) error
	// CardFingerprints are the fingerprints of the member's payment cards.
	CardFingerprints(ctx context.Context, userID string) ([]string, error)
}

// Options configures the service.
type Options struct {
	Workflows     Workflows
	Billing       Billing
	Notifications *notifications.Service
	Points        *points.Ledger
	Log           *slog.Logger
	// PublicURL is the app's address, for the share link.
	PublicURL string
	Now       func() time.Time
	// Day is the length of the program's days (hold, windows): 24h unless
	// a demo or a browser test shortens it.
	Day time.Duration
}

// Service is the referral program.
type Service struct {
	pool    *pgxpool.Pool
	opts    Options
	limiter *ratelimit.Limiter
}

// clicksPerIP bounds the clicks one address may record (new browser
// sessions are free to make, so this is what keeps the counts honest).
var clicksPerIP = ratelimit.Rule{Max: 30, Window: time.Minute}

// New returns the service.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Workflows == nil {
		o.Workflows = NoWorkflows{}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Day <= 0 {
		o.Day = 24 * time.Hour
	}
	if o.Points == nil {
		o.Points = points.New(pool)
	}
	if o.Notifications == nil {
		o.Notifications = notifications.New(pool)
	}
	return &Service{pool: pool, opts: o, limiter: ratelimit.New(pool, o.Now)}
}

// SetBilling plugs billing in after both are built (core/app).
func (s *Service) SetBilling(b Billing) { s.opts.Billing = b }

// SetWorkflows plugs the workflow engine in (core/app).
func (s *Service) SetWorkflows(w Workflows) { s.opts.Workflows = w }

func (s *Service) now() time.Time { return s.opts.Now() }

// codeAlphabet has no 0/O, 1/I: codes are read aloud and typed.
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

var codeShape = regexp.MustCompile(`^[A-HJ-NP-Z2-9]{8}$`)

// NormaliseCode upper-cases and trims a typed code; ok is false when it
// cannot be a code.
func NormaliseCode(code string) (string, bool) {
	c := strings.ToUpper(strings.TrimSpace(code))
	return c, codeShape.MatchString(c)
}

func newCode() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b)
}

// Code is userID's referral code, created on first use (8 characters from
// a 32-letter alphabet: 40 random bits, unguessable by enumeration).
func (s *Service) Code(ctx context.Context, userID string) (string, error) {
	for range 5 {
		var code string
		err := s.pool.QueryRow(ctx, `WITH ins AS (
				INSERT INTO referral_codes (user_id, code) VALUES ($1, $2)
				ON CONFLICT DO NOTHING RETURNING code)
			SELECT code FROM ins UNION ALL SELECT code FROM referral_codes WHERE user_id = $1 LIMIT 1`,
			userID, newCode()).Scan(&code)
		if err == nil {
			return code, nil
		}
		if !postgres.IsNoRows(err) {
			return "", fmt.Errorf("referral code: %w", err)
		}
		// The random code was taken by someone else: draw again.
	}
	return "", fmt.Errorf("referral code: no free code after 5 draws")
}

// Link is the share link of code.
func (s *Service) Link(code string) string {
	return strings.TrimRight(s.opts.PublicURL, "/") + "/i/" + code
}

// ownerOf returns the member whose code this is.
func ownerOf(ctx context.Context, q querier, code string) (string, error) {
	var id string
	err := q.QueryRow(ctx, `SELECT user_id FROM referral_codes WHERE code = $1`, code).Scan(&id)
	if postgres.IsNoRows(err) {
		return "", nil
	}
	return id, err
}

// KnownCode reports whether code is some member's referral code.
func (s *Service) KnownCode(ctx context.Context, code string) (bool, error) {
	c, ok := NormaliseCode(code)
	if !ok {
		return false, nil
	}
	id, err := ownerOf(ctx, s.pool, c)
	return id != "", err
}

var idShape = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

// ValidDeviceID reports whether id can be a device or session id.
func ValidDeviceID(id string) bool { return idShape.MatchString(id) }

// Click records a click on code from one browser session: once per session
// and code (the database's unique key), however many times the link is
// opened. counted is true for the first.
func (s *Service) Click(ctx context.Context, code, sessionID, deviceID, ip string) (counted bool, err error) {
	c, ok := NormaliseCode(code)
	fields := map[string]string{}
	if !ok {
		fields["referral_code"] = msgBadCode
	}
	if !ValidDeviceID(sessionID) {
		fields["session_id"] = "Sessão inválida."
	}
	if deviceID != "" && !ValidDeviceID(deviceID) {
		fields["device_id"] = "Dispositivo inválido."
	}
	if len(fields) > 0 {
		return false, core.Invalid("Dados inválidos.", fields)
	}
	if ip != "" {
		ok, err := s.limiter.Allow(ctx, "referral-click:"+ip, clicksPerIP)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, core.Errorf(core.ERATELIMITED, "Muitos acessos a links de indicação. Aguarde um momento.")
		}
	}
	var dev *string
	if deviceID != "" {
		dev = &deviceID
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO referral_clicks (code, session_id, device_id, ip, created_at)
		SELECT code, $2, $3, $4, $5 FROM referral_codes WHERE code = $1
		ON CONFLICT ON CONSTRAINT referral_clicks_once_per_session DO NOTHING`, c, sessionID, dev, ip, s.now())
	if err != nil {
		return false, fmt.Errorf("record referral click: %w", err)
	}
	if tag.RowsAffected() == 0 {
		known, err := s.KnownCode(ctx, c)
		if err != nil {
			return false, err
		}
		if !known {
			return false, core.Errorf(core.ENOTFOUND, "Código de indicação não encontrado.")
		}
	}
	return tag.RowsAffected() == 1, nil
}

// SeeDevice records that userID uses deviceID (a first-party id the PWA
// keeps); a malformed id is ignored.
func (s *Service) SeeDevice(ctx context.Context, q querier, userID, deviceID string) error {
	if !ValidDeviceID(deviceID) {
		return nil
	}
	if q == nil {
		q = s.pool
	}
	_, err := q.Exec(ctx, `INSERT INTO referral_devices (user_id, device_id, first_seen, last_seen) VALUES ($1, $2, $3, $3)
		ON CONFLICT (user_id, device_id) DO UPDATE SET last_seen = EXCLUDED.last_seen`, userID, deviceID, s.now())
	if err != nil {
		return fmt.Errorf("record device: %w", err)
	}
	return nil
}

// Settings are the program's knobs (the backoffice edits them).
type Settings struct {
	ReferrerPoints     int `json:"referrer_points"`
	RefereePoints      int `json:"referee_points"`
	ReferrerFreeMonths int `json:"referrer_free_months"`
	HoldDays           int `json:"hold_days"`
	WindowDays         int `json:"window_days"`
	ReversalDays       int `json:"reversal_days"`
	CapMonth           int `json:"cap_month"`
	CapTotal           int `json:"cap_total"`
}

const settingsColumns = `referrer_points, referee_points, referrer_free_months, hold_days, window_days, reversal_days, cap_month, cap_total`

func scanSettings(row pgx.Row) (Settings, error) {
	var st Settings
	err := row.Scan(&st.ReferrerPoints, &st.RefereePoints, &st.ReferrerFreeMonths, &st.HoldDays, &st.WindowDays,
		&st.ReversalDays, &st.CapMonth, &st.CapTotal)
	return st, err
}

// Settings reads the program's settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	st, err := scanSettings(s.pool.QueryRow(ctx, `SELECT `+settingsColumns+` FROM referral_settings`))
	if err != nil {
		return Settings{}, fmt.Errorf("referral settings: %w", err)
	}
	return st, nil
}

// UpdateSettings replaces the settings (the database's checks bound each one).
func (s *Service) UpdateSettings(ctx context.Context, actorID string, st Settings) (Settings, error) {
	fields := map[string]string{}
	check := func(name string, v, lo, hi int) {
		if v < lo || v > hi {
			fields[name] = fmt.Sprintf("Use um valor entre %d e %d.", lo, hi)
		}
	}
	check("referrer_points", st.ReferrerPoints, 0, 100000)
	check("referee_points", st.RefereePoints, 0, 100000)
	check("referrer_free_months", st.ReferrerFreeMonths, 0, 12)
	check("hold_days", st.HoldDays, 0, 90)
	check("window_days", st.WindowDays, 1, 365)
	check("reversal_days", st.ReversalDays, 0, 365)
	check("cap_month", st.CapMonth, 0, 1000)
	check("cap_total", st.CapTotal, 0, 100000)
	if len(fields) > 0 {
		return Settings{}, core.Invalid("Configurações inválidas.", fields)
	}
	out, err := scanSettings(s.pool.QueryRow(ctx, `UPDATE referral_settings SET referrer_points = $1, referee_points = $2,
		referrer_free_months = $3, hold_days = $4, window_days = $5, reversal_days = $6, cap_month = $7, cap_total = $8,
		updated_by = $9, updated_at = $10 RETURNING `+settingsColumns,
		st.ReferrerPoints, st.RefereePoints, st.ReferrerFreeMonths, st.HoldDays, st.WindowDays, st.ReversalDays,
		st.CapMonth, st.CapTotal, actorID, s.now()))
	if err != nil {
		return Settings{}, fmt.Errorf("update referral settings: %w", err)
	}
	return out, nil
}

// addEvent appends to a referral's timeline.
func addEvent(ctx context.Context, q querier, referralID, typ, actorID string, detail map[string]any, at time.Time) error {
	if detail == nil {
		detail = map[string]any{}
	}
	var actor *string
	if actorID != "" {
		actor = &actorID
	}
	_, err := q.Exec(ctx, `INSERT INTO referral_events (referral_id, type, actor_id, detail, created_at) VALUES ($1, $2, $3, $4, $5)`,
		referralID, typ, actor, detail, at)
	if err != nil {
		return fmt.Errorf("referral event: %w", err)
	}
	return nil
}

// querier is a pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}
