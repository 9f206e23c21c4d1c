package billing_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/billing"
)

func sessionID(t *testing.T, checkoutURL string) string {
	t.Helper()
	u, err := url.Parse(checkoutURL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/pay/")
}

func TestConcurrentCheckoutsMakeOneSessionAndSubscribedMemberGets409(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	user := e.member(t)
	const n = 20
	urls := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			urls[i], errs[i] = e.svc.Checkout(ctx, user, billing.CheckoutRequest{BillingCycle: "yearly"})
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("checkout %d: %v", i, errs[i])
		}
		if urls[i] != urls[0] {
			t.Errorf("checkout %d answered %s, checkout 0 %s", i, urls[i], urls[0])
		}
	}
	if got := e.fake.Requests("POST /v1/checkout"); got != 1 {
		t.Errorf("%d checkout sessions created, want 1", got)
	}
	if got := e.fake.Requests("POST /v1/customers"); got != 1 {
		t.Errorf("%d customers created, want 1", got)
	}
	var customers int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM billing_customers WHERE user_id = $1`, user).Scan(&customers); err != nil || customers != 1 {
		t.Fatalf("customer rows %d (%v), want 1", customers, err)
	}
	// The session is subscription mode, pt-BR, with the success and cancel pages.
	st := e.fakeState(t)
	sess := st.Sessions[sessionID(t, urls[0])]
	if sess["mode"] != "subscription" || sess["locale"] != "pt-BR" ||
		sess["success_url"] != "http://vetclube.test/subscription-success?session_id={CHECKOUT_SESSION_ID}" ||
		sess["cancel_url"] != "http://vetclube.test/pricing" || sess["price"] != e.cfg.PriceYearly {
		t.Errorf("session %+v", sess)
	}

	// Paid (the webhook arrives), the member is active: 409 with the portal.
	if _, err := e.fake.PayCheckout(sessionID(t, urls[0])); err != nil {
		t.Fatal(err)
	}
	if got := e.ent.state(user); got.StripeStatus != "active" || got.Tier != billing.TierYearly {
		t.Fatalf("after paying: %+v", got)
	}
	_, err := e.svc.Checkout(ctx, user, billing.CheckoutRequest{BillingCycle: "monthly"})
	var conflict *billing.ConflictError
	if !errors.As(err, &conflict) || !strings.Contains(conflict.PortalURL, "/portal/") {
		t.Fatalf("checkout of an active member: %v, want a conflict with the portal URL", err)
	}
	if got := e.fake.Requests("POST /v1/checkout"); got != 1 {
		t.Errorf("%d checkout sessions after the 409, want 1", got)
	}
}

func TestCheckoutRefusesBadInputAndAttachesCPF(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	user := e.member(t)
	for _, req := range []billing.CheckoutRequest{
		{BillingCycle: "weekly"},
		{BillingCycle: "monthly", PaymentMethod: "cash"},
		{BillingCycle: "monthly", CPF: "111.111.111-11"},
		{BillingCycle: "monthly", PaymentMethod: "boleto"}, // boleto needs a CPF
	} {
		if _, err := e.svc.Checkout(ctx, user, req); core.ErrorCode(err) != core.EINVALID {
			t.Errorf("%+v: %v, want invalid", req, err)
		}
	}
	u, err := e.svc.Checkout(ctx, user, billing.CheckoutRequest{BillingCycle: "monthly", PaymentMethod: "boleto", CPF: "529.982.247-25"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u, "/invoice/") {
		t.Errorf("boleto checkout answered %s, want the hosted invoice", u)
	}
	st := e.fakeState(t)
	found := false
	for _, tx := range st.TaxIDs {
		found = found || (tx["type"] == "br_cpf" && tx["value"] == "529.982.247-25")
	}
	if !found {
		t.Errorf("no br_cpf tax id in %+v", st.TaxIDs)
	}
	for _, s := range st.Subs {
		if s["collection_method"] != "send_invoice" || s["status"] != "incomplete" {
			t.Errorf("boleto subscription %+v", s)
		}
	}
	// The member is not premium before paying the boleto; paying makes them active.
	if got := e.ent.state(user); got.StripeStatus == "active" {
		t.Errorf("premium before paying: %+v", got)
	}
	if err := e.fake.PayInvoice(strings.TrimPrefix(mustURL(t, u).Path, "/invoice/")); err != nil {
		t.Fatal(err)
	}
	if got := e.ent.state(user); got.StripeStatus != "active" || got.Tier != billing.TierMonthly {
		t.Errorf("after paying the boleto: %+v", got)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSyncWithoutWebhooksAndReconcilerRestoresState(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.fake.SetWebhooks(false)
	user := e.member(t)
	u, err := e.svc.Checkout(ctx, user, billing.CheckoutRequest{BillingCycle: "monthly"})
	if err != nil {
		t.Fatal(err)
	}
	id := sessionID(t, u)
	if _, err := e.fake.PayCheckout(id); err != nil {
		t.Fatal(err)
	}
	if got := e.ent.state(user); got.StripeStatus != "" {
		t.Fatalf("no webhook was sent, yet entitlement saw %+v", got)
	}
	// What /subscription-success calls: the first answer is premium.
	v, err := e.svc.SyncSession(ctx, user, id)
	if err != nil {
		t.Fatal(err)
	}
	if v["checkout_status"] != "complete" || v["payment_status"] != "paid" {
		t.Errorf("sync answered %+v", v)
	}
	if got := e.ent.state(user); got.StripeStatus != "active" || got.Tier != billing.TierMonthly || got.CurrentPeriodEnd.Before(time.Now().AddDate(0, 0, 27)) {
		t.Fatalf("after sync: %+v", got)
	}
	// Another member's session is not found.
	other := e.member(t)
	if _, err := e.svc.SyncSession(ctx, other, id); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("another member's session: %v, want not found", err)
	}

	// A failed renewal Stripe could not deliver, and a lost local row.
	cus := e.fake.CustomerByEmail(e.email(t, user))
	if _, err := e.fake.FailPayment(cus); err != nil {
		t.Fatal(err)
	}
	before := e.row(t, user)
	if _, err := e.pool.Exec(ctx, `DELETE FROM billing_subscriptions WHERE user_id = $1`, user); err != nil {
		t.Fatal(err)
	}
	rep, err := e.svc.Reconcile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Synced != 1 || rep.Replayed < 2 {
		t.Errorf("reconcile report %+v, want 1 synced and the undelivered events replayed", rep)
	}
	after := e.row(t, user)
	if after.status != "past_due" || !after.failed {
		t.Errorf("after reconcile %+v, want past_due with the payment failure", after)
	}
	before.status, before.failed = after.status, after.failed // the failure happened since
	if before != after {
		t.Errorf("restored row %+v, was %+v", after, before)
	}
	var replayed int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE source = 'reconciler' AND type = 'invoice.payment_failed'`).Scan(&replayed); err != nil || replayed != 1 {
		t.Errorf("replayed payment_failed events %d (%v), want 1", replayed, err)
	}
	// Run again: nothing new.
	rep, err = e.svc.Reconcile(ctx)
	if err != nil || rep.Replayed != 0 {
		t.Errorf("second reconcile %+v %v, want nothing replayed", rep, err)
	}
	if got := e.row(t, user); got != after {
		t.Errorf("second reconcile changed the row: %+v", got)
	}
}

type rowView struct {
	sub, status, tier string
	periodEnd         int64
	cancel, failed    bool
}

func (e *env) row(t *testing.T, user string) rowView {
	t.Helper()
	var r rowView
	var end time.Time
	var failedAt *time.Time
	err := e.pool.QueryRow(context.Background(), `SELECT subscription_id, status, tier, current_period_end, cancel_at_period_end, payment_failed_at
		FROM billing_subscriptions WHERE user_id = $1`, user).Scan(&r.sub, &r.status, &r.tier, &end, &r.cancel, &failedAt)
	if err != nil {
		t.Fatal(err)
	}
	r.periodEnd, r.failed = end.Unix(), failedAt != nil
	return r
}

func (e *env) email(t *testing.T, user string) string {
	var s string
	if err := e.pool.QueryRow(context.Background(), `SELECT email FROM users WHERE id = $1`, user).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheckSubscriptionAsksStripeAtMostEveryFiveMinutes(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	svc := billing.New(e.pool, billing.NewClient(e.cfg, nil), e.cfg, billing.Options{Entitlement: e.ent, Now: clock})
	user := e.member(t)
	if _, err := svc.EnsureCustomer(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	lists := func() int { return e.fake.Requests("GET /v1/subscriptions") }
	for range 3 {
		if _, err := svc.Check(ctx, user); err != nil {
			t.Fatal(err)
		}
	}
	if got := lists(); got != 1 {
		t.Errorf("3 checks within 5 minutes asked Stripe %d times, want 1", got)
	}
	mu.Lock()
	now = now.Add(4*time.Minute + 59*time.Second)
	mu.Unlock()
	_, _ = svc.Check(ctx, user)
	if got := lists(); got != 1 {
		t.Errorf("a check at 4:59 asked Stripe again (%d)", got)
	}
	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	_, _ = svc.Check(ctx, user)
	if got := lists(); got != 2 {
		t.Errorf("a check after 5 minutes: %d asks, want 2", got)
	}
	// A member without a customer is answered without asking Stripe.
	other := e.member(t)
	if _, err := svc.Check(ctx, other); err != nil || lists() != 2 {
		t.Errorf("check without a customer: %v, %d asks", err, lists())
	}
}
