// Package config reads VetClube's configuration from environment variables.
// Every variable, its default and its meaning is listed in README.md; an
// empty value means "use the embedded development default".
package config

import (
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the whole runtime configuration.
type Config struct {
	Env       string // APP_ENV: "development" enables the dev mailbox and dev-only routes
	HTTPAddr  string // HTTP_ADDR
	PublicURL string // PUBLIC_URL: origin used in links sent by email
	DataDir   string // DATA_DIR: embedded PostgreSQL, uploads, Temporal's SQLite
	LogLevel  slog.Level

	DatabaseURL string // DATABASE_URL: empty starts a private cluster under DataDir

	SMTPURL  string // SMTP_URL: smtp://user:pass@host:port; empty uses the dev mailbox
	MailFrom string // MAIL_FROM

	GoogleClientID     string // GOOGLE_CLIENT_ID: empty disables Google sign-in
	GoogleClientSecret string // GOOGLE_CLIENT_SECRET
	GoogleIssuer       string // GOOGLE_ISSUER

	TemporalAddress   string // TEMPORAL_ADDRESS: empty starts the embedded dev server
	TemporalNamespace string // TEMPORAL_NAMESPACE
	TemporalWorker    bool   // TEMPORAL_WORKER: "false" serves HTTP without running the workflow worker in-process
	TemporalDevBin    string // TEMPORAL_DEV_BIN: the embedded dev server binary `serve` starts when TEMPORAL_ADDRESS is empty

	// DemoMedia is DEMO_MEDIA: "false" keeps the development seed from making
	// and processing its demo video clips (servers that need no media, such
	// as the browser tests', start without that work).
	DemoMedia bool

	// Graceful stop (SIGTERM): /readyz answers 503 for ShutdownDelay
	// (SHUTDOWN_DELAY, 5s; 0s in development) before the listener closes, so
	// load balancers stop sending new requests first; in-flight requests
	// then have ShutdownTimeout (SHUTDOWN_TIMEOUT, 20s) to finish.
	ShutdownDelay, ShutdownTimeout time.Duration

	PluginsDir string // PLUGINS_DIR
	WebDist    string // WEB_DIST: built PWA served at /
	AdminDist  string // ADMIN_DIST: built backoffice served at /backoffice/

	PluginCallTimeout    time.Duration // PLUGIN_CALL_TIMEOUT: a plugin call running longer is cut and the plugin restarted
	PluginHealthInterval time.Duration // PLUGIN_HEALTH_INTERVAL: how often each plugin's health is checked
	// PluginDailyVetCoins is PLUGIN_DAILY_VETCOINS_BUDGET: the most VetCoins
	// one plugin may award to one user per day (UTC), so a buggy or hostile
	// plugin cannot mint currency without bound.
	PluginDailyVetCoins int
	// PluginSandbox is PLUGIN_SANDBOX: "on" (default) confines every plugin
	// process (its own user, Landlock, seccomp, limits); "off" runs them as
	// plain children of the core, which production allows only when set
	// explicitly.
	PluginSandbox bool
	// Per-plugin resource limits: PLUGIN_MEMORY_MB (256), PLUGIN_OPEN_FILES
	// (256), PLUGIN_PROCESSES (128 processes and threads).
	PluginMemoryMB, PluginOpenFiles, PluginProcesses int
	// PluginIdleTimeout is PLUGIN_IDLE_TIMEOUT (10m): a plugin's process
	// starts on its first call and stops after this long without calls; 0
	// keeps every plugin resident. PLUGIN_IDLE_TIMEOUTS overrides it per
	// plugin: "prontuario-vet=30m,noticias=0".
	PluginIdleTimeout  time.Duration
	PluginIdleTimeouts map[string]time.Duration
	// PluginGOGC and PluginGoMemLimit are PLUGIN_GOGC (100) and
	// PLUGIN_GOMEMLIMIT (half of PLUGIN_MEMORY_MB): the Go runtime settings
	// of plugin processes; the soft limit keeps them under the hard one.
	PluginGOGC, PluginGoMemLimit string

	TrialDuration time.Duration // TRIAL_DAYS, or TRIAL_DURATION when set
	// BillingGrace is BILLING_GRACE: how long a member keeps premium after a
	// failed payment ("7d" by default; days as "Nd" or a Go duration).
	BillingGrace time.Duration
	// ReferralDay is REFERRAL_DAY: the length of one of the referral
	// program's days (hold, qualification and reversal windows); 24h unless
	// a demo or a browser test shortens it ("2s").
	ReferralDay time.Duration

	// Stripe (core/billing). An empty STRIPE_SECRET_KEY runs the in-repo
	// fake Stripe outside production (core/billing/stripefake).
	StripeSecretKey      string // STRIPE_SECRET_KEY
	StripeWebhookSecret  string // STRIPE_WEBHOOK_SECRET
	StripePriceMonthly   string // STRIPE_PRICE_MONTHLY
	StripePriceYearly    string // STRIPE_PRICE_YEARLY
	StripeAPIBase        string // STRIPE_API_BASE: another API address (stripe-mock, a fake)
	StripeFakeAddr       string // STRIPE_FAKE_ADDR: where the fake listens (127.0.0.1:0, any free port)
	BillingPixEnabled    bool   // BILLING_PIX_ENABLED=true: the account has Pix Automático
	BillingBoletoEnabled bool   // BILLING_BOLETO_ENABLED: "false" hides boleto

	// Per-client-IP limits per minute (the per-email limits are
	// fixed). Raise them when many users share one address (a proxy
	// that does not forward client IPs, a campus NAT, the browser tests).
	SignupsPerIPPerMinute int // RATE_LIMIT_SIGNUPS_PER_IP
	LoginsPerIPPerMinute  int // RATE_LIMIT_LOGINS_PER_IP

	// TrialLimits is TRIAL_LIMITS: "type=n,…", limits for non-premium users (check_trial_limits).
	TrialLimits map[string]int

	// Web Push VAPID pair (base64url) and subject (mailto: or https URL).
	// Empty in development: a pair is generated once under DATA_DIR.
	VAPIDPublicKey  string // VAPID_PUBLIC_KEY
	VAPIDPrivateKey string // VAPID_PRIVATE_KEY
	VAPIDSubject    string // VAPID_SUBJECT
	// PushAllowLocalServices (PUSH_ALLOW_LOCAL_SERVICES=true) lets Web Push
	// reach push services on loopback and private addresses: only for tests
	// and benchmarks running a local push service. Never on by default, in
	// development neither.
	PushAllowLocalServices bool

	// VetClube IA (core/ai): an OpenAI-compatible endpoint. OPENAI_BASE_URL
	// empty starts the embedded demonstration server (no language model).
	OpenAIBaseURL     string // OPENAI_BASE_URL
	OpenAIAPIKey      string // OPENAI_API_KEY
	OpenAIModel       string // OPENAI_MODEL
	OpenAIVisionModel string // OPENAI_VISION_MODEL
	// AIPrices is AI_PRICES: "model=input/output,…" in US dollars per
	// million tokens, read by core/ai.
	AIPrices string
	// AIPremiumDaily (AI_PREMIUM_DAILY_MESSAGES) and AIPremiumMonthlyTokens
	// (AI_PREMIUM_MONTHLY_TOKENS): a premium member's questions per day
	// (São Paulo) and tokens per month.
	AIPremiumDaily         int
	AIPremiumMonthlyTokens int

	// EventSeatOfferHold is EVENT_SEAT_OFFER_HOLD: how long a freed event
	// seat is kept for the first person on the waiting list (12h).
	EventSeatOfferHold time.Duration

	// S3: when S3Bucket is set, uploaded files (avatars, pictures, the media
	// library's images, PDFs, streams and posters) go to an S3-compatible
	// store instead of DATA_DIR/uploads, and video originals to a second,
	// private bucket. Two buckets rather than a prefix in one, so no
	// bucket policy can make an original fetchable by mistake.
	S3Endpoint        string // S3_ENDPOINT: host[:port] of the S3 API, no scheme
	S3Region          string // S3_REGION: empty asks the server
	S3Bucket          string // S3_BUCKET: public files; empty keeps them on local disk
	S3PrivateBucket   string // S3_PRIVATE_BUCKET: video originals, never public
	S3AccessKeyID     string // S3_ACCESS_KEY_ID
	S3SecretAccessKey string // S3_SECRET_ACCESS_KEY
	S3UseSSL          bool   // S3_USE_SSL: "false" talks plain HTTP to the endpoint
	// S3PublicURL is S3_PUBLIC_URL: where browsers fetch the public
	// bucket's objects (a CDN or the bucket's public endpoint), ending in
	// "/"; by default the endpoint's path-style bucket URL. Empty when S3
	// is off.
	S3PublicURL string
	// S3CacheDir is S3_CACHE_DIR: local copies of stored files that need
	// a path (ffmpeg reads the video originals), DATA_DIR/s3-cache by
	// default.
	S3CacheDir string
}

// S3 reports whether files are kept in S3 rather than on local disk.
func (c Config) S3() bool { return c.S3Bucket != "" }

// Development reports whether dev-only features (mailbox, seed credentials) are on.
func (c Config) Development() bool { return c.Env == "development" }

// Load builds a Config from getenv (os.Getenv in main, a map in tests).
func Load(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	c := Config{
		Env:                    get("APP_ENV", "production"),
		HTTPAddr:               get("HTTP_ADDR", "127.0.0.1:8080"),
		DataDir:                get("DATA_DIR", ".data"),
		DatabaseURL:            getenv("DATABASE_URL"),
		SMTPURL:                getenv("SMTP_URL"),
		MailFrom:               get("MAIL_FROM", "VetClube <nao-responda@vetclube.com.br>"),
		GoogleClientID:         getenv("GOOGLE_CLIENT_ID"),
		GoogleClientSecret:     getenv("GOOGLE_CLIENT_SECRET"),
		GoogleIssuer:           get("GOOGLE_ISSUER", "https://accounts.google.com"),
		TemporalAddress:        getenv("TEMPORAL_ADDRESS"),
		TemporalNamespace:      get("TEMPORAL_NAMESPACE", "default"),
		TemporalWorker:         get("TEMPORAL_WORKER", "true") != "false",
		TemporalDevBin:         get("TEMPORAL_DEV_BIN", "bin/temporal-dev"),
		DemoMedia:              get("DEMO_MEDIA", "true") != "false",
		PluginsDir:             get("PLUGINS_DIR", "bin/plugins"),
		WebDist:                get("WEB_DIST", "web/dist"),
		AdminDist:              get("ADMIN_DIST", "admin/dist"),
		VAPIDPublicKey:         getenv("VAPID_PUBLIC_KEY"),
		VAPIDPrivateKey:        getenv("VAPID_PRIVATE_KEY"),
		VAPIDSubject:           get("VAPID_SUBJECT", "mailto:nao-responda@vetclube.com.br"),
		PushAllowLocalServices: getenv("PUSH_ALLOW_LOCAL_SERVICES") == "true",

		StripeSecretKey:      getenv("STRIPE_SECRET_KEY"),
		StripeWebhookSecret:  getenv("STRIPE_WEBHOOK_SECRET"),
		StripePriceMonthly:   getenv("STRIPE_PRICE_MONTHLY"),
		StripePriceYearly:    getenv("STRIPE_PRICE_YEARLY"),
		StripeAPIBase:        getenv("STRIPE_API_BASE"),
		StripeFakeAddr:       get("STRIPE_FAKE_ADDR", "127.0.0.1:0"),
		BillingPixEnabled:    getenv("BILLING_PIX_ENABLED") == "true",
		BillingBoletoEnabled: get("BILLING_BOLETO_ENABLED", "true") != "false",
	}
	c.PublicURL = get("PUBLIC_URL", "http://"+c.HTTPAddr)

	if err := c.LogLevel.UnmarshalText([]byte(get("LOG_LEVEL", "info"))); err != nil {
		return c, fmt.Errorf("LOG_LEVEL: %w", err)
	}
	var err error
	if c.SignupsPerIPPerMinute, err = positiveInt(get("RATE_LIMIT_SIGNUPS_PER_IP", "20")); err != nil {
		return c, fmt.Errorf("RATE_LIMIT_SIGNUPS_PER_IP: %w", err)
	}
	if c.LoginsPerIPPerMinute, err = positiveInt(get("RATE_LIMIT_LOGINS_PER_IP", "60")); err != nil {
		return c, fmt.Errorf("RATE_LIMIT_LOGINS_PER_IP: %w", err)
	}
	days, err := strconv.Atoi(get("TRIAL_DAYS", "7"))
	if err != nil || days < 0 {
		return c, fmt.Errorf("TRIAL_DAYS must be a whole number of days, got %q", getenv("TRIAL_DAYS"))
	}
	c.TrialDuration = time.Duration(days) * 24 * time.Hour
	// A Go duration for demos, staging and browser tests that need to see a
	// trial end without waiting days ("90s", "2h").
	if v := getenv("TRIAL_DURATION"); v != "" {
		if c.TrialDuration, err = time.ParseDuration(v); err != nil || c.TrialDuration <= 0 {
			return c, fmt.Errorf("TRIAL_DURATION must be a positive duration such as 90s or 2h, got %q", v)
		}
	}
	if c.ReferralDay, err = time.ParseDuration(get("REFERRAL_DAY", "24h")); err != nil || c.ReferralDay <= 0 {
		return c, fmt.Errorf("REFERRAL_DAY must be a positive duration such as 24h or 2s, got %q", getenv("REFERRAL_DAY"))
	}
	if c.BillingGrace, err = parseDays(get("BILLING_GRACE", "7d")); err != nil || c.BillingGrace <= 0 {
		return c, fmt.Errorf("BILLING_GRACE must be a positive duration such as 7d or 36h, got %q", getenv("BILLING_GRACE"))
	}
	if c.PluginCallTimeout, err = time.ParseDuration(get("PLUGIN_CALL_TIMEOUT", "10s")); err != nil || c.PluginCallTimeout <= 0 {
		return c, fmt.Errorf("PLUGIN_CALL_TIMEOUT must be a positive duration such as 10s, got %q", getenv("PLUGIN_CALL_TIMEOUT"))
	}
	delay := "5s"
	if c.Development() {
		delay = "0s"
	}
	if c.ShutdownDelay, err = time.ParseDuration(get("SHUTDOWN_DELAY", delay)); err != nil || c.ShutdownDelay < 0 {
		return c, fmt.Errorf("SHUTDOWN_DELAY must be a duration such as 5s, got %q", getenv("SHUTDOWN_DELAY"))
	}
	if c.ShutdownTimeout, err = time.ParseDuration(get("SHUTDOWN_TIMEOUT", "20s")); err != nil || c.ShutdownTimeout <= 0 {
		return c, fmt.Errorf("SHUTDOWN_TIMEOUT must be a positive duration such as 20s, got %q", getenv("SHUTDOWN_TIMEOUT"))
	}
	if c.PluginHealthInterval, err = time.ParseDuration(get("PLUGIN_HEALTH_INTERVAL", "10s")); err != nil || c.PluginHealthInterval <= 0 {
		return c, fmt.Errorf("PLUGIN_HEALTH_INTERVAL must be a positive duration such as 10s, got %q", getenv("PLUGIN_HEALTH_INTERVAL"))
	}

	if c.PluginDailyVetCoins, err = positiveInt(get("PLUGIN_DAILY_VETCOINS_BUDGET", "500")); err != nil {
		return c, fmt.Errorf("PLUGIN_DAILY_VETCOINS_BUDGET: %w", err)
	}
	switch v := get("PLUGIN_SANDBOX", "on"); v {
	case "on":
		c.PluginSandbox = true
	case "off":
	default:
		return c, fmt.Errorf("PLUGIN_SANDBOX must be on or off, got %q", v)
	}
	if c.PluginMemoryMB, err = positiveInt(get("PLUGIN_MEMORY_MB", "256")); err != nil {
		return c, fmt.Errorf("PLUGIN_MEMORY_MB: %w", err)
	}
	if c.PluginOpenFiles, err = positiveInt(get("PLUGIN_OPEN_FILES", "256")); err != nil {
		return c, fmt.Errorf("PLUGIN_OPEN_FILES: %w", err)
	}
	if c.PluginProcesses, err = positiveInt(get("PLUGIN_PROCESSES", "128")); err != nil {
		return c, fmt.Errorf("PLUGIN_PROCESSES: %w", err)
	}
	if c.PluginIdleTimeout, err = time.ParseDuration(get("PLUGIN_IDLE_TIMEOUT", "10m")); err != nil || c.PluginIdleTimeout < 0 {
		return c, fmt.Errorf("PLUGIN_IDLE_TIMEOUT must be a duration such as 10m (0 keeps plugins resident), got %q", getenv("PLUGIN_IDLE_TIMEOUT"))
	}
	if c.PluginIdleTimeouts, err = parseIdleTimeouts(get("PLUGIN_IDLE_TIMEOUTS", "")); err != nil {
		return c, err
	}
	c.PluginGOGC = get("PLUGIN_GOGC", "100")
	if n, err := strconv.Atoi(c.PluginGOGC); (err != nil || n <= 0) && c.PluginGOGC != "off" {
		return c, fmt.Errorf("PLUGIN_GOGC must be a positive integer or off, got %q", c.PluginGOGC)
	}
	c.PluginGoMemLimit = get("PLUGIN_GOMEMLIMIT", strconv.Itoa(c.PluginMemoryMB/2)+"MiB")

	if c.TrialLimits, err = parseLimits(get("TRIAL_LIMITS", "patients=10,ai_consultations=5,challenges=3,courses=1,simulados=3")); err != nil {
		return c, err
	}

	c.OpenAIBaseURL = strings.TrimSpace(getenv("OPENAI_BASE_URL"))
	c.OpenAIAPIKey = getenv("OPENAI_API_KEY")
	c.OpenAIModel = get("OPENAI_MODEL", "gpt-4o-mini")
	c.OpenAIVisionModel = get("OPENAI_VISION_MODEL", c.OpenAIModel)
	c.AIPrices = get("AI_PRICES", "gpt-4o-mini=0.15/0.60,gpt-4o=2.50/10")
	if c.OpenAIBaseURL != "" {
		if u, err := url.Parse(c.OpenAIBaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return c, fmt.Errorf("OPENAI_BASE_URL must be an absolute http(s) URL such as https://api.openai.com/v1/, got %q", c.OpenAIBaseURL)
		}
	}
	if c.AIPremiumDaily, err = positiveInt(get("AI_PREMIUM_DAILY_MESSAGES", "200")); err != nil {
		return c, fmt.Errorf("AI_PREMIUM_DAILY_MESSAGES: %w", err)
	}
	if c.AIPremiumMonthlyTokens, err = positiveInt(get("AI_PREMIUM_MONTHLY_TOKENS", "3000000")); err != nil {
		return c, fmt.Errorf("AI_PREMIUM_MONTHLY_TOKENS: %w", err)
	}

	if c.EventSeatOfferHold, err = time.ParseDuration(get("EVENT_SEAT_OFFER_HOLD", "12h")); err != nil || c.EventSeatOfferHold <= 0 {
		return c, fmt.Errorf("EVENT_SEAT_OFFER_HOLD must be a positive duration such as 12h, got %q", getenv("EVENT_SEAT_OFFER_HOLD"))
	}

	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c, fmt.Errorf("DATA_DIR: %w", err)
	}
	c.DataDir = abs
	if err := c.loadS3(getenv); err != nil {
		return c, err
	}
	return c, nil
}

// loadS3 reads the S3 settings; they are checked only when S3_BUCKET is set.
func (c *Config) loadS3(getenv func(string) string) error {
	c.S3Bucket = strings.TrimSpace(getenv("S3_BUCKET"))
	if c.S3Bucket == "" {
		return nil
	}
	c.S3Endpoint = strings.TrimSpace(getenv("S3_ENDPOINT"))
	c.S3Region = strings.TrimSpace(getenv("S3_REGION"))
	c.S3PrivateBucket = strings.TrimSpace(getenv("S3_PRIVATE_BUCKET"))
	c.S3AccessKeyID = getenv("S3_ACCESS_KEY_ID")
	c.S3SecretAccessKey = getenv("S3_SECRET_ACCESS_KEY")
	c.S3UseSSL = getenv("S3_USE_SSL") != "false"
	switch {
	case c.S3Endpoint == "" || strings.Contains(c.S3Endpoint, "://") || strings.Contains(c.S3Endpoint, "/"):
		return fmt.Errorf("S3_ENDPOINT must be the S3 API's host[:port] without scheme, such as s3.us-east-1.amazonaws.com, got %q", c.S3Endpoint)
	case c.S3PrivateBucket == "" || c.S3PrivateBucket == c.S3Bucket:
		return fmt.Errorf("S3_PRIVATE_BUCKET must name a second, non-public bucket for video originals (S3_BUCKET is %q)", c.S3Bucket)
	case c.S3AccessKeyID == "" || c.S3SecretAccessKey == "":
		return fmt.Errorf("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET")
	}
	scheme := "https"
	if !c.S3UseSSL {
		scheme = "http"
	}
	c.S3PublicURL = strings.TrimSpace(getenv("S3_PUBLIC_URL"))
	if c.S3PublicURL == "" {
		c.S3PublicURL = scheme + "://" + c.S3Endpoint + "/" + c.S3Bucket + "/"
	}
	u, err := url.Parse(c.S3PublicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("S3_PUBLIC_URL must be an absolute http(s) URL such as https://cdn.example.com/, got %q", c.S3PublicURL)
	}
	if !strings.HasSuffix(c.S3PublicURL, "/") {
		c.S3PublicURL += "/"
	}
	c.S3CacheDir = getenv("S3_CACHE_DIR")
	if c.S3CacheDir == "" {
		c.S3CacheDir = filepath.Join(c.DataDir, "s3-cache")
	}
	return nil
}

// parseDays reads "Nd" as N days, anything else as a Go duration.
func parseDays(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil {
			return 0, err
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

// parseLimits reads TRIAL_LIMITS: comma-separated type=count pairs.
func parseLimits(v string) (map[string]int, error) {
	limits := map[string]int{}
	for _, pair := range strings.Split(v, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		name, n, ok := strings.Cut(pair, "=")
		count, err := strconv.Atoi(strings.TrimSpace(n))
		if !ok || err != nil || count < 0 || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("TRIAL_LIMITS: %q is not type=count", pair)
		}
		limits[strings.TrimSpace(name)] = count
	}
	return limits, nil
}

func positiveInt(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("must be a positive whole number, got %q", v)
	}
	return n, nil
}

// parseIdleTimeouts reads PLUGIN_IDLE_TIMEOUTS: "id=duration" pairs
// separated by commas.
func parseIdleTimeouts(v string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, pair := range strings.Split(v, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		id, d, ok := strings.Cut(pair, "=")
		dur, err := time.ParseDuration(strings.TrimSpace(d))
		if !ok || strings.TrimSpace(id) == "" || err != nil || dur < 0 {
			return nil, fmt.Errorf("PLUGIN_IDLE_TIMEOUTS must be id=duration pairs such as prontuario-vet=30m,noticias=0, got %q", pair)
		}
		out[strings.TrimSpace(id)] = dur
	}
	return out, nil
}
