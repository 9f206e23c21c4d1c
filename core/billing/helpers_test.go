package billing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/billing/stripefake"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

const testWebhookSecret = "whsec_test_billing"

// recorder is the entitlement side in these tests: it keeps, per member,
// the newest state applied (entitlement's own rule) and counts calls.
type recorder struct {
	mu      sync.Mutex
	applied map[string]billing.State
	calls   int
	notes   int
}

func newRecorder() *recorder { return &recorder{applied: map[string]billing.State{}} }

func (r *recorder) ApplyBilling(_ context.Context, tx pgx.Tx, st billing.State) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	prev, ok := r.applied[st.UserID]
	if ok && st.ObservedAt.Before(prev.ObservedAt) {
		return false, nil
	}
	r.applied[st.UserID] = st
	return !ok || !sameEntitlement(prev, st), nil
}

func (r *recorder) NotifyEntitlement(context.Context, billing.State) error {
	r.mu.Lock()
	r.notes++
	r.mu.Unlock()
	return nil
}

func (r *recorder) state(userID string) billing.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.applied[userID]
}

func (r *recorder) callCount() int { r.mu.Lock(); defer r.mu.Unlock(); return r.calls }

func sameEntitlement(a, b billing.State) bool {
	pf := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	return a.StripeStatus == b.StripeStatus && a.Tier == b.Tier && a.CurrentPeriodEnd.Equal(b.CurrentPeriodEnd) &&
		a.CancelAtPeriodEnd == b.CancelAtPeriodEnd && pf(a.PaymentFailedAt) == pf(b.PaymentFailedAt)
}

// env is one test's database, fake Stripe and billing service.
type env struct {
	pool *pgxpool.Pool
	fake *stripefake.Fake
	svc  *billing.Service
	ent  *recorder
	app  *httptest.Server // serves the webhook
	cfg  billing.Config
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{pool: pgtest.New(t), ent: newRecorder()}
	e.fake = stripefake.New(stripefake.Options{})
	fs := httptest.NewServer(e.fake)
	t.Cleanup(fs.Close)
	e.fake.SetBase(fs.URL)
	e.cfg = billing.Config{SecretKey: "sk_test_fake", WebhookSecret: testWebhookSecret, APIBase: fs.URL,
		PriceMonthly: stripefake.DefaultPrices[0].ID, PriceYearly: stripefake.DefaultPrices[1].ID,
		BoletoEnabled: true, PublicURL: "http://vetclube.test", Fake: true}
	e.svc = billing.New(e.pool, billing.NewClient(e.cfg, nil), e.cfg, billing.Options{Entitlement: e.ent})
	e.app = httptest.NewServer(billing.HTTP{Service: e.svc}.Webhook())
	t.Cleanup(e.app.Close)
	e.fake.SetWebhookURL(e.app.URL, testWebhookSecret)
	return e
}

func (e *env) member(t *testing.T) string {
	t.Helper()
	var id string
	err := e.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("billing%d@example.com", rand.Int64())).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

type fakeState struct {
	Sessions map[string]map[string]any `json:"sessions"`
	TaxIDs   map[string]map[string]any `json:"tax_ids"`
	Subs     map[string]map[string]any `json:"subscriptions"`
}

func (e *env) fakeState(t *testing.T) fakeState {
	t.Helper()
	res, err := http.Get(e.fakeURL() + "/_fake/state")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st fakeState
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func (e *env) fakeURL() string { return e.cfg.APIBase }
