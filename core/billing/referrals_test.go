package billing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core/billing/stripefake"
)

// paymentHooks records what billing tells the referral program.
type paymentHooks struct {
	mu    sync.Mutex
	calls []string
}

func (h *paymentHooks) InvoicePaid(_ context.Context, userID, invoiceID string, _ time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, "paid:"+userID+":"+invoiceID)
	return nil
}

func (h *paymentHooks) PaymentReversed(_ context.Context, userID, kind string, _ time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, kind+":"+userID)
	return nil
}

func (h *paymentHooks) list() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

func event(id, typ string, obj map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion,
		"created": time.Now().Add(-time.Minute).Unix(), "type": typ, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": obj}})
	return b
}

// A paid invoice with money (not a trial's zero invoice), a refund and a
// dispute reach the payment hooks once each, after their commit; a
// redelivered event does not call them again.
func TestPaymentHooksHearPaidInvoicesRefundsAndDisputes(t *testing.T) {
	e := newEnv(t)
	hooks := &paymentHooks{}
	e.svc.SetPaymentHooks(hooks)
	user := e.member(t)
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_ref')`, user); err != nil {
		t.Fatal(err)
	}
	inv := func(id string, paid int) map[string]any {
		return map[string]any{"id": id, "object": "invoice", "customer": "cus_ref", "status": "paid", "amount_due": paid,
			"amount_paid": paid, "total": paid, "number": "VC-" + id, "attempt_count": 1}
	}
	events := [][]byte{
		event("evt_ref_trial", "invoice.paid", inv("in_trial", 0)),
		event("evt_ref_paid", "invoice.paid", inv("in_paid", 4790)),
		event("evt_ref_paid", "invoice.paid", inv("in_paid", 4790)), // redelivered
		event("evt_ref_refund", "charge.refunded", map[string]any{"id": "ch_ref", "object": "charge", "customer": "cus_ref", "amount_refunded": 4790}),
		event("evt_ref_dispute", "charge.dispute.created", map[string]any{"id": "dp_ref", "object": "dispute", "customer": "cus_ref", "charge": "ch_ref", "amount": 4790, "status": "needs_response"}),
	}
	for i, ev := range events {
		if code, body := deliver(t, e.app.URL, ev, testWebhookSecret, time.Now()); code != 200 {
			t.Fatalf("event %d: %d %s", i, code, body)
		}
	}
	want := []string{"paid:" + user + ":in_paid", "refund:" + user, "dispute:" + user}
	if got := hooks.list(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("hooks heard %v, want %v", got, want)
	}
}

// The referrer's free month is a customer balance credit of the monthly
// price, once per key; a negative month takes it back.
func TestCreditFreeMonthsOnTheCustomerBalance(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	user := e.member(t)
	if err := e.svc.CreditFreeMonths(ctx, user, 1, "k0"); err == nil {
		t.Fatal("a member without a Stripe customer was credited")
	}
	cus, err := e.svc.EnsureCustomer(ctx, user, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.svc.CreditFreeMonths(ctx, user, 1, "referral:x:referrer:free-month"); err != nil {
			t.Fatal(err)
		}
	}
	price := stripefake.DefaultPrices[0].Amount
	if got := e.balance(t, cus); got != -price {
		t.Fatalf("balance %d after one credit (sent twice), want %d", got, -price)
	}
	if err := e.svc.CreditFreeMonths(ctx, user, -1, "referral:x:referrer:free-month:reversal"); err != nil {
		t.Fatal(err)
	}
	if got := e.balance(t, cus); got != 0 {
		t.Fatalf("balance %d after the reversal, want 0", got)
	}
	if fps, err := e.svc.CardFingerprints(ctx, user); err != nil || len(fps) != 0 {
		t.Fatalf("fingerprints %v err %v", fps, err)
	}
}

func (e *env) balance(t *testing.T, cus string) int64 {
	t.Helper()
	var st struct {
		Customers map[string]map[string]any `json:"customers"`
	}
	res, err := httpGet(e.fakeURL() + "/_fake/state")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(res, &st); err != nil {
		t.Fatal(err)
	}
	b, _ := st.Customers[cus]["balance"].(float64)
	return int64(b)
}

func httpGet(url string) ([]byte, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	return io.ReadAll(res.Body)
}
