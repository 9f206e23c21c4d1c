package billing_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// The whole app with the fake Stripe it starts when STRIPE_SECRET_KEY is
// empty, and the real entitlement (core/subscriptions).
func TestMemberBecomesPremiumOnTheFirstSyncWithWebhooksOff(t *testing.T) {
	srv := apptest.Start(t, nil)
	fake := srv.App.StripeFake
	if fake == nil {
		t.Fatal("no fake Stripe started without STRIPE_SECRET_KEY")
	}
	fake.SetWebhooks(false)
	c, _ := srv.SignedIn(t, "assinante@example.com")

	var plans struct {
		Currency string `json:"currency"`
		Plans    []struct {
			Cycle      string `json:"cycle"`
			PriceCents int64  `json:"price_cents"`
		} `json:"plans"`
		YearlySaving int `json:"yearly_saving_percent"`
	}
	srv.Client(t).Do("GET", "/api/billing/plans", nil).JSON(t, &plans)
	if plans.Currency != "BRL" || len(plans.Plans) != 2 || plans.YearlySaving <= 0 {
		t.Errorf("plans %+v", plans)
	}

	res := c.Do("POST", "/api/billing/checkout", map[string]string{"billing_cycle": "yearly"})
	if res.Status != http.StatusOK {
		t.Fatalf("checkout: %d %s", res.Status, res.Body)
	}
	var co struct {
		URL string `json:"url"`
	}
	res.JSON(t, &co)
	id := sessionID(t, co.URL)
	success, err := fake.PayCheckout(id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(success, "/subscription-success?session_id="+id) {
		t.Errorf("success URL %s", success)
	}
	// Nothing told the app yet; the success page's sync does, on its first answer.
	var view struct {
		IsPremium      bool    `json:"is_premium"`
		Tier           *string `json:"subscription_tier"`
		CheckoutStatus string  `json:"checkout_status"`
		PaymentStatus  string  `json:"payment_status"`
		PaymentFailed  bool    `json:"payment_failed"`
	}
	c.Do("GET", "/api/subscription", nil).JSON(t, &view)
	if view.IsPremium {
		t.Fatal("premium before any sync or webhook")
	}
	res = c.Do("POST", "/api/billing/sync", map[string]string{"session_id": id})
	if res.Status != http.StatusOK {
		t.Fatalf("sync: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &view)
	if !view.IsPremium || view.Tier == nil || *view.Tier != "premium_yearly" || view.CheckoutStatus != "complete" || view.PaymentStatus != "paid" {
		t.Fatalf("first sync answer %s", res.Body)
	}

	var sub struct {
		Plan       *string `json:"plan"`
		StatusText string  `json:"status_text"`
		NextCharge *struct {
			AmountCents int64 `json:"amount_cents"`
		} `json:"next_charge"`
		Invoices []struct {
			Status string `json:"status"`
		} `json:"invoices"`
		PaymentMethod map[string]string `json:"payment_method"`
	}
	c.Do("GET", "/api/billing/subscription", nil).JSON(t, &sub)
	if sub.Plan == nil || *sub.Plan != "yearly" || sub.StatusText != "ativa" || sub.NextCharge == nil || sub.NextCharge.AmountCents != 47900 ||
		len(sub.Invoices) != 1 || sub.Invoices[0].Status != "paid" || sub.PaymentMethod["last4"] != "4242" {
		t.Errorf("subscription page %+v", sub)
	}

	// Subscribed: a second checkout is 409 with the portal.
	res = c.Do("POST", "/api/billing/checkout", map[string]string{"billing_cycle": "monthly"})
	var conflict struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
		PortalURL string `json:"portal_url"`
	}
	res.JSON(t, &conflict)
	if res.Status != http.StatusConflict || conflict.Error.Code != "conflict" || !strings.Contains(conflict.PortalURL, "/portal/") {
		t.Errorf("second checkout: %d %s", res.Status, res.Body)
	}

	// Webhooks on: a failed renewal reaches the member at once (dunning).
	fake.SetWebhooks(true)
	if _, err := fake.FailPayment(fake.CustomerByEmail("assinante@example.com")); err != nil {
		t.Fatal(err)
	}
	c.Do("GET", "/api/subscription", nil).JSON(t, &view)
	if !view.PaymentFailed || !view.IsPremium {
		t.Errorf("after a failed payment: %+v (want premium in grace with payment_failed)", view)
	}
	var pays struct {
		Payments []struct {
			Kind, Status string
		} `json:"payments"`
	}
	c.Do("GET", "/api/billing/payments", nil).JSON(t, &pays)
	if len(pays.Payments) == 0 || pays.Payments[0].Kind != "attempt" && pays.Payments[0].Kind != "invoice" {
		t.Errorf("payments %+v", pays)
	}

	// The backoffice.
	admin, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	res = admin.Do("GET", "/api/admin/billing/subscriptions?filter="+`{"status":"past_due"}`, nil)
	if res.Status != 200 || !strings.Contains(string(res.Body), "assinante@example.com") || !strings.HasPrefix(res.Header.Get("Content-Range"), "subscriptions 0-0/1") {
		t.Errorf("admin list: %d %s %s", res.Status, res.Header.Get("Content-Range"), res.Body)
	}
	var diag struct {
		Mode         string `json:"mode"`
		APIReachable bool   `json:"api_reachable"`
		LastEvents   []any  `json:"last_events"`
	}
	admin.Do("GET", "/api/billing/diagnostics", nil).JSON(t, &diag)
	if diag.Mode != "fake" || !diag.APIReachable || len(diag.LastEvents) == 0 {
		t.Errorf("diagnostics %+v", diag)
	}
	if res := c.Do("GET", "/api/billing/diagnostics", nil); res.Status != http.StatusForbidden {
		t.Errorf("diagnostics as a member: %d", res.Status)
	}
	// The member's timeline: Stripe events and entitlement changes.
	var memberID string
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT id::text FROM users WHERE email = 'assinante@example.com'`).Scan(&memberID); err != nil {
		t.Fatal(err)
	}
	var timeline []struct {
		Source string `json:"source"`
		Type   string `json:"type"`
	}
	admin.Do("GET", "/api/admin/billing/subscriptions/"+memberID+"/timeline", nil).JSON(t, &timeline)
	sources := map[string]int{}
	for _, e := range timeline {
		sources[e.Source]++
	}
	if sources["stripe"] == 0 || sources["entitlement"] == 0 {
		t.Errorf("timeline %+v", timeline)
	}
	// Eventos do Stripe, and 'Reprocessar' changes nothing the second time.
	var events []struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
	}
	res = admin.Do("GET", "/api/admin/billing/events?filter="+`{"status":"applied"}`, nil)
	res.JSON(t, &events)
	if len(events) == 0 || !strings.HasPrefix(res.Header.Get("Content-Range"), "events ") {
		t.Fatalf("events %d %s", res.Status, res.Body)
	}
	before := map[string]any{}
	c.Do("GET", "/api/subscription", nil).JSON(t, &before)
	if res := admin.Do("POST", "/api/admin/billing/events/"+events[0].ID+"/reprocess", nil); res.Status != 200 {
		t.Errorf("reprocess: %d %s", res.Status, res.Body)
	}
	after := map[string]any{}
	c.Do("GET", "/api/subscription", nil).JSON(t, &after)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("reprocessing an applied event changed the view:\n%v\n%v", before, after)
	}
	if res := c.Do("POST", "/api/admin/billing/events/"+events[0].ID+"/reprocess", nil); res.Status != http.StatusForbidden {
		t.Errorf("reprocess as a member: %d", res.Status)
	}
	var metrics struct {
		Months []struct {
			Month    string `json:"month"`
			MRRCents int64  `json:"mrr_cents"`
			Active   int    `json:"active"`
		} `json:"mrr_cents_by_month"`
	}
	admin.Do("GET", "/api/admin/billing/metrics", nil).JSON(t, &metrics)
	if len(metrics.Months) != 12 || metrics.Months[11].Month != time.Now().UTC().Format("2006-01") || metrics.Months[11].Active != 1 ||
		metrics.Months[11].MRRCents != 47900/12 {
		t.Errorf("metrics %+v", metrics)
	}
}
