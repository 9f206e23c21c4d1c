package billing

import (
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
)

// APIVersion is the Stripe API version this code reads and the webhook
// endpoint must be created with (stripe-go pins it; ConstructEvent refuses
// events of another version).
const APIVersion = stripe.APIVersion

// Config is billing's configuration (core/config reads the variables).
type Config struct {
	SecretKey     string // STRIPE_SECRET_KEY: empty runs the in-repo fake Stripe
	WebhookSecret string // STRIPE_WEBHOOK_SECRET: the endpoint's signing secret (whsec_…)
	PriceMonthly  string // STRIPE_PRICE_MONTHLY: the monthly plan's price id (BRL)
	PriceYearly   string // STRIPE_PRICE_YEARLY: the yearly plan's price id (BRL)
	// APIBase is STRIPE_API_BASE: where the client sends API calls
	// (https://api.stripe.com by default; a fake or stripe-mock in tests).
	APIBase       string
	PixEnabled    bool          // BILLING_PIX_ENABLED: the account has Pix Automático
	BoletoEnabled bool          // BILLING_BOLETO_ENABLED: members may pay by boleto
	Grace         time.Duration // BILLING_GRACE: access kept after a failed payment (7 days)
	// PublicURL is the app's origin, for the checkout's success and cancel
	// pages and the portal's return page.
	PublicURL string
	// Fake reports that the in-repo fake Stripe answers (no key configured).
	Fake bool
}

// Mode is "fake", "test" or "live", from the key.
func (c Config) Mode() string {
	switch {
	case c.Fake || c.SecretKey == "":
		return "fake"
	case strings.HasPrefix(c.SecretKey, "sk_live_") || strings.HasPrefix(c.SecretKey, "rk_live_"):
		return "live"
	}
	return "test"
}

// WebhookURL is where Stripe must send events.
func (c Config) WebhookURL() string {
	return strings.TrimRight(c.PublicURL, "/") + "/api/billing/webhook"
}

// NewClient builds the one Stripe client the service uses: the same
// stripe-go client against Stripe, stripe-mock or the fake; only the
// backend URL differs.
func NewClient(c Config, httpClient *http.Client) *stripe.Client {
	bc := &stripe.BackendConfig{LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}, EnableTelemetry: stripe.Bool(false)}
	if c.APIBase != "" {
		bc.URL = stripe.String(strings.TrimRight(c.APIBase, "/"))
	}
	if httpClient != nil {
		bc.HTTPClient = httpClient
	}
	// Retries are the caller's (webhooks are redelivered, pages retried):
	// a request must not hang on a dead backend.
	bc.MaxNetworkRetries = stripe.Int64(1)
	return stripe.NewClient(c.SecretKey, stripe.WithBackends(&stripe.Backends{
		API:     stripe.GetBackendWithConfig(stripe.APIBackend, bc),
		Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, bc),
		Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, bc),
	}))
}
