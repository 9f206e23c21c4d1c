// Package billing measures Stripe webhook throughput: the real app (every
// middleware, signature check on the raw body, the inbox, the member lock,
// the billing row and the real entitlement in one transaction) against a
// floor that only inserts the inbox row and updates one row in one
// transaction (net/http + pgx, no signature check), same load, same
// database. `make bench-billing` runs it; BENCH_BILLING_DURATION (10s),
// BENCH_BILLING_ROUNDS (3), BENCH_BILLING_CONCURRENCY (16) and
// BENCH_BILLING_MEMBERS (500) override it. Without BENCH_BILLING=1 it runs
// a one-second smoke round.
package billing

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres"
)

const secret = "whsec_bench_billing"

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envDur(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// floor is the least a webhook endpoint can do: read the body, take the
// event id, insert the inbox row and update the member's row, one
// transaction.
func floor(pool *pgxpool.Pool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var ev struct {
			ID      string `json:"id"`
			Type    string `json:"type"`
			Created int64  `json:"created"`
			Data    struct {
				Object struct {
					Customer          string `json:"customer"`
					Status            string `json:"status"`
					CancelAtPeriodEnd bool   `json:"cancel_at_period_end"`
				} `json:"object"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		at := time.Unix(ev.Created, 0)
		err = postgres.InTx(r.Context(), pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(r.Context(), `INSERT INTO billing_events (id, type, status, created, customer_id, payload)
				VALUES ($1, $2, 'applied', $3, $4, $5) ON CONFLICT (id) DO NOTHING`, ev.ID, ev.Type, at, ev.Data.Object.Customer, body); err != nil {
				return err
			}
			status := ""
			if strings.HasPrefix(ev.Type, "customer.subscription.") {
				status = ev.Data.Object.Status
			}
			_, err := tx.Exec(r.Context(), `UPDATE billing_subscriptions SET status = coalesce(nullif($2, ''), status),
				cancel_at_period_end = $3, last_event_at = $4, updated_at = now() WHERE customer_id = $1`,
				ev.Data.Object.Customer, status, ev.Data.Object.CancelAtPeriodEnd, at)
			return err
		})
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"received":true}`))
	})
}

type result struct {
	ok, errs int
	elapsed  time.Duration
	lat      []time.Duration
	firstErr string
}

func (r result) rps() float64 { return float64(r.ok) / r.elapsed.Seconds() }

func (r result) quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	slices.Sort(r.lat)
	return r.lat[max(0, min(int(q*float64(len(r.lat))+0.5)-1, len(r.lat)-1))]
}

// event is the n-th event of a load. "renewals" is what a monthly card
// subscription sends at each renewal, alternating per member:
// customer.subscription.updated moving the period end (a change
// entitlement records) and invoice.paid (newer, nothing new for
// entitlement). "flips" is the worst case: every event changes the
// member's entitlement (active, past_due, cancel at period end and back).
func event(kind, prefix string, n int64, cus string, base time.Time) []byte {
	created := base.Unix() + n
	sub := func(status string, cancel bool, periodEnd int64) map[string]any {
		return map[string]any{"id": "sub_" + cus, "object": "subscription", "customer": cus,
			"status": status, "cancel_at_period_end": cancel, "collection_method": "charge_automatically",
			"start_date": base.Unix(), "items": map[string]any{"object": "list", "data": []any{map[string]any{
				"id": "si_" + cus, "object": "subscription_item", "current_period_end": periodEnd,
				"price": map[string]any{"id": "price_fake_monthly", "object": "price", "recurring": map[string]any{"interval": "month"}}}}}}
	}
	typ, obj := "customer.subscription.updated", map[string]any(nil)
	switch {
	case kind == "flips":
		status, cancel := "active", n%2 == 0
		if n%4 == 1 {
			status = "past_due"
		}
		obj = sub(status, cancel, base.AddDate(0, 1, 0).Unix())
	case n%2 == 0:
		obj = sub("active", false, base.AddDate(0, 1, 0).Unix()+n)
	default:
		typ = "invoice.paid"
		obj = map[string]any{"id": fmt.Sprintf("in_%s_%d", prefix, n), "object": "invoice", "customer": cus, "status": "paid",
			"amount_due": 4990, "total": 4990, "number": fmt.Sprintf("VC-%d", n), "attempt_count": 1}
	}
	payload, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("evt_%s_%09d", prefix, n), "object": "event",
		"api_version": stripe.APIVersion, "created": created, "type": typ, "data": map[string]any{"object": obj}})
	return payload
}

// run posts signed subscription events for members in a closed loop of
// clients for d. Every event is new (ids never repeat) and newer than the
// member's last, so each one changes the member's state.
func run(url, kind, prefix string, customers []string, clients int, d time.Duration, seq *atomic.Int64, base time.Time) result {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}}
	var mu sync.Mutex
	var total result
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			var local result
			for time.Now().Before(deadline) {
				n := seq.Add(1)
				payload := event(kind, prefix, n, customers[int(n)%len(customers)], base)
				sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(sp.Payload))
				req.Header.Set("Stripe-Signature", sp.Header)
				req.Header.Set("Content-Type", "application/json")
				t0 := time.Now()
				res, err := hc.Do(req)
				if err != nil {
					local.errs++
					if local.firstErr == "" {
						local.firstErr = err.Error()
					}
					continue
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					local.errs++
					if local.firstErr == "" {
						local.firstErr = res.Status + " " + string(body)
					}
					continue
				}
				local.ok++
				local.lat = append(local.lat, time.Since(t0))
			}
			mu.Lock()
			total.ok += local.ok
			total.errs += local.errs
			total.lat = append(total.lat, local.lat...)
			if total.firstErr == "" {
				total.firstErr = local.firstErr
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	total.elapsed = time.Since(start)
	return total
}

func TestWebhookThroughputAgainstFloor(t *testing.T) {
	full := os.Getenv("BENCH_BILLING") == "1"
	d, rounds, clients, members := time.Second, 1, 4, 20
	if full {
		d = envDur("BENCH_BILLING_DURATION", 10*time.Second)
		rounds = envInt("BENCH_BILLING_ROUNDS", 3)
		clients = envInt("BENCH_BILLING_CONCURRENCY", 16)
		members = envInt("BENCH_BILLING_MEMBERS", 500)
	}
	srv := apptest.Start(t, map[string]string{"STRIPE_WEBHOOK_SECRET": secret, "LOG_LEVEL": "error"})
	ctx := context.Background()
	pool := srv.App.Pool
	// Members with a customer and an active subscription row (and a trial
	// subscriber row, as every confirmed member has).
	var customers []string
	for i := range members {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, fmt.Sprintf("bench%d@example.com", i)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		cus := fmt.Sprintf("cus_bench%05d", i)
		if _, err := pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, $2)`, id, cus); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO billing_subscriptions (user_id, customer_id, status) VALUES ($1, $2, 'active')`, id, cus); err != nil {
			t.Fatal(err)
		}
		if err := srv.App.Engagement.Subscriptions.StartTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		customers = append(customers, cus)
	}
	fl := httptest.NewServer(floor(pool))
	defer fl.Close()
	var seq atomic.Int64
	base := time.Now().Add(-24 * time.Hour)
	add := func(to *result, r result) {
		to.ok += r.ok
		to.errs += r.errs
		to.elapsed += r.elapsed
		to.lat = append(to.lat, r.lat...)
		if to.firstErr == "" {
			to.firstErr = r.firstErr
		}
	}
	// Warm both sides, then alternate rounds so neither gets a colder database.
	measure := func(kind string) (real, flo result) {
		run(srv.URL+"/api/billing/webhook", kind, "warm"+kind, customers, clients, d/5, &seq, base)
		run(fl.URL, kind, "warmf"+kind, customers, clients, d/5, &seq, base)
		for range rounds {
			add(&flo, run(fl.URL, kind, "floor"+kind, customers, clients, d, &seq, base))
			add(&real, run(srv.URL+"/api/billing/webhook", kind, "real"+kind, customers, clients, d, &seq, base))
		}
		if real.errs > 0 || flo.errs > 0 {
			t.Errorf("%s errors: real %d (%s), floor %d (%s)", kind, real.errs, real.firstErr, flo.errs, flo.firstErr)
		}
		if real.ok == 0 || flo.ok == 0 {
			t.Fatalf("%s: a side answered nothing", kind)
		}
		var applied, ignored int
		_ = pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'applied'), count(*) FILTER (WHERE status = 'ignored')
			FROM billing_events WHERE id LIKE 'evt_real`+kind+`_%'`).Scan(&applied, &ignored)
		fmt.Printf("webhook throughput, %s load, %d clients, %d members, %d × %s per side:\n", kind, clients, members, rounds, d)
		fmt.Printf("  floor  %8.0f events/s  p50 %6.2f ms  p99 %6.2f ms\n", flo.rps(), ms(flo.quantile(.5)), ms(flo.quantile(.99)))
		fmt.Printf("  real   %8.0f events/s  p50 %6.2f ms  p99 %6.2f ms  (%d applied, %d ignored as older)\n", real.rps(), ms(real.quantile(.5)), ms(real.quantile(.99)), applied, ignored)
		fmt.Printf("  real / floor = %.0f %%\n", 100*real.rps()/flo.rps())
		return real, flo
	}
	real, flo := measure("renewals")
	ratio := real.rps() / flo.rps()
	fmt.Printf("  target ≥ 60 %% on the renewals load\n")
	// The worst case is reported, not held to the target: each of its
	// events makes core/subscriptions record and publish a change.
	measure("flips")
	if full && ratio < 0.60 {
		t.Errorf("real webhook throughput is %.0f %% of the floor on the renewals load, under 60 %%", 100*ratio)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
