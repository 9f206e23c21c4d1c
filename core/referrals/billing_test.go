package referrals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/referrals"
)

// recordingWorkflows stands in for Temporal here: it records what the
// referral service asks of the workflow engine.
type recordingWorkflows struct {
	mu      sync.Mutex
	started []string
	signals []string
}

func (r *recordingWorkflows) StartReferral(_ context.Context, _, refereeID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started = append(r.started, refereeID)
	return nil
}

func (r *recordingWorkflows) SignalReferral(_ context.Context, refereeID, signal string, payload any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.signals = append(r.signals, fmt.Sprintf("%s:%s", refereeID, signal))
	return nil
}

// Stripe's signed events reach the referral program through billing's
// webhook: the referee's first paid invoice and a refund signal the
// referee's workflow; a trial's zero invoice does not.
func TestBillingWebhookReachesReferrals(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := context.Background()
	rec := &recordingWorkflows{}
	srv.App.Referrals.SetWorkflows(rec)
	ana, _ := srv.SignedIn(t, "ana@example.com")
	var d referrals.Dashboard
	ana.Do("GET", "/api/referrals/me", nil).JSON(t, &d)
	r := srv.Client(t).Do("POST", "/api/auth/signup", map[string]string{"first_name": "Bia", "last_name": "Lima",
		"email": "bia@example.com", "password": apptest.TestPassword, "referral_code": d.Code})
	if r.Status != http.StatusCreated {
		t.Fatalf("signup %d %s", r.Status, r.Body)
	}
	var bia string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id FROM users WHERE email = 'bia@example.com'`).Scan(&bia); err != nil {
		t.Fatal(err)
	}
	if len(rec.started) != 1 || rec.started[0] != bia {
		t.Fatalf("workflow starts %v", rec.started)
	}
	if _, err := srv.App.Pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_bia')`, bia); err != nil {
		t.Fatal(err)
	}
	send := func(id, typ string, obj map[string]any) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion,
			"created": time.Now().Add(-time.Minute).Unix(), "type": typ, "livemode": false, "pending_webhooks": 1,
			"data": map[string]any{"object": obj}})
		sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: b, Secret: srv.App.Billing.Config().WebhookSecret, Timestamp: time.Now()})
		req, _ := http.NewRequest("POST", srv.URL+"/api/billing/webhook", bytes.NewReader(sp.Payload))
		req.Header.Set("Stripe-Signature", sp.Header)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("webhook %s: %d", typ, res.StatusCode)
		}
	}
	inv := func(id string, paid int) map[string]any {
		return map[string]any{"id": id, "object": "invoice", "customer": "cus_bia", "status": "paid", "amount_due": paid,
			"amount_paid": paid, "total": paid, "number": "VC-" + id, "attempt_count": 1}
	}
	send("evt_trial", "invoice.paid", inv("in_trial", 0))
	send("evt_paid", "invoice.paid", inv("in_paid", 4990))
	// The first paid invoice is stored at once (the hold starts), whatever becomes of the signal.
	var state string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT state FROM referrals WHERE referee_id = $1`, bia).Scan(&state); err != nil || state != "em_carencia" {
		t.Fatalf("after invoice.paid: state %q err %v", state, err)
	}
	send("evt_refund", "charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "customer": "cus_bia", "amount_refunded": 4990})
	// A refund during the hold ends the referral unrewarded, at once.
	if err := srv.App.Pool.QueryRow(ctx, `SELECT state FROM referrals WHERE referee_id = $1`, bia).Scan(&state); err != nil || state != "nao_aprovada" {
		t.Fatalf("after charge.refunded: state %q err %v", state, err)
	}
	want := []string{bia + ":" + referrals.SignalInvoicePaid, bia + ":" + referrals.SignalPaymentReversed}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if fmt.Sprint(rec.signals) != fmt.Sprint(want) {
		t.Fatalf("signals %v, want %v", rec.signals, want)
	}
}

// Referrals under way get their workflow again at start; ended ones do not.
func TestResumeWorkflowsStartsReferralsUnderWay(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rec := &recordingWorkflows{}
	f.svc.SetWorkflows(rec)
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	code, _ := f.svc.Code(ctx, a)
	live, _ := f.signup(t, code, "bia@example.com", "", "")
	ended, out := f.signup(t, code, "caio@example.com", "", "")
	if _, err := f.pool.Exec(ctx, `UPDATE referrals SET state = 'expirada' WHERE id = $1`, out.ReferralID); err != nil {
		t.Fatal(err)
	}
	n, err := f.svc.ResumeWorkflows(ctx)
	if err != nil || n != 1 || len(rec.started) != 1 || rec.started[0] != live {
		t.Fatalf("resumed %d %v (err %v); want only %s, not %s", n, rec.started, err, live, ended)
	}
}
