package billing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/billing/stripefake"
)

// scenario is 40 events of one member's subscription: checkout, renewals,
// failed payments and their recovery, a cancellation undone, refunds, and
// a few events sharing their second (ties are broken by id).
func scenario(customer string, t0 time.Time) [][]byte {
	yearly := stripefake.DefaultPrices[1].ID
	var out [][]byte
	n := 0
	add := func(typ string, obj map[string]any, sameSecond bool) {
		if !sameSecond {
			n++
		}
		ev := map[string]any{"id": fmt.Sprintf("evt_scn_%02d_%s", len(out), typ), "object": "event", "api_version": stripe.APIVersion,
			"created": t0.Add(time.Duration(n) * time.Second).Unix(), "type": typ, "livemode": false, "pending_webhooks": 1,
			"data": map[string]any{"object": obj}}
		b, _ := json.Marshal(ev)
		out = append(out, b)
	}
	periodEnd := t0.AddDate(1, 0, 0)
	sub := func(status string, cancel bool) map[string]any {
		return map[string]any{"id": "sub_scn", "object": "subscription", "customer": customer, "status": status,
			"cancel_at_period_end": cancel, "collection_method": "charge_automatically", "start_date": t0.Unix(), "created": t0.Unix(),
			"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_scn", "object": "subscription_item",
				"price":              map[string]any{"id": yearly, "object": "price", "unit_amount": 47900, "recurring": map[string]any{"interval": "year"}},
				"current_period_end": periodEnd.Unix()}}}}
	}
	inv := func(k int, status string) map[string]any {
		return map[string]any{"id": fmt.Sprintf("in_scn_%d", k), "object": "invoice", "customer": customer, "status": status,
			"amount_due": 47900, "total": 47900, "number": fmt.Sprintf("VC-%04d", k), "attempt_count": 1}
	}
	add("customer.subscription.created", sub("incomplete", false), false)
	add("invoice.paid", inv(1, "paid"), false)
	add("customer.subscription.updated", sub("active", false), true)
	for k := 2; len(out) < 40; k++ {
		periodEnd = periodEnd.AddDate(1, 0, 0)
		add("invoice.payment_failed", inv(k, "open"), false)
		add("customer.subscription.updated", sub("past_due", false), false)
		add("invoice.payment_failed", inv(k, "open"), false)
		add("invoice.paid", inv(k, "paid"), false)
		add("customer.subscription.updated", sub("active", false), true)
		add("customer.subscription.updated", sub("active", true), false)
		add("charge.refunded", map[string]any{"id": fmt.Sprintf("ch_scn_%d", k), "object": "charge", "customer": customer, "amount_refunded": 1000}, false)
		add("customer.subscription.updated", sub("active", false), false)
	}
	return out[:40]
}

func deliver(t *testing.T, url string, payload []byte, secret string, at time.Time) (int, string) {
	t.Helper()
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(sp.Payload))
	req.Header.Set("Stripe-Signature", sp.Header)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

type outcome struct {
	Row      []any
	Payments []string
	Events   int
	State    string
}

func (e *env) outcome(t *testing.T, userID string) outcome {
	t.Helper()
	ctx := context.Background()
	var o outcome
	var status, subEvent, invEvent string
	var tier *string
	var periodEnd, failedAt, lastEvent *time.Time
	var cancel bool
	err := e.pool.QueryRow(ctx, `SELECT status, tier, current_period_end, cancel_at_period_end, payment_failed_at, sub_event_id,
		invoice_event_id, last_event_at FROM billing_subscriptions WHERE user_id = $1`, userID).
		Scan(&status, &tier, &periodEnd, &cancel, &failedAt, &subEvent, &invEvent, &lastEvent)
	if err != nil {
		t.Fatal(err)
	}
	o.Row = []any{status, *tier, periodEnd.Unix(), cancel, failedAt != nil, subEvent, invEvent, lastEvent.Unix()}
	rows, _ := e.pool.Query(ctx, `SELECT id || ':' || status || ':' || amount_cents || ':' || extract(epoch from at)::bigint FROM billing_payments WHERE user_id = $1 ORDER BY id`, userID)
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		o.Payments = append(o.Payments, s)
	}
	rows.Close()
	_ = e.pool.QueryRow(ctx, `SELECT count(*) FROM billing_events`).Scan(&o.Events)
	st := e.ent.state(userID)
	o.State = fmt.Sprintf("%s %s %d %v %v %d", st.StripeStatus, st.Tier, st.CurrentPeriodEnd.Unix(), st.CancelAtPeriodEnd, st.PaymentFailedAt != nil, st.ObservedAt.Unix())
	return o
}

func TestWebhooksShuffledAndRepeatedConvergeOnInOrderState(t *testing.T) {
	ctx := context.Background()
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	run := func(shuffle bool) (outcome, *env, string) {
		e := newEnv(t)
		user := e.member(t)
		if _, err := e.pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_scn')`, user); err != nil {
			t.Fatal(err)
		}
		events := scenario("cus_scn", t0)
		order := make([]int, len(events))
		for i := range order {
			order[i] = i
		}
		rounds := 1
		if shuffle {
			rounds = 3
		}
		for round := 0; round < rounds; round++ {
			if shuffle {
				rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			for _, i := range order {
				if code, body := deliver(t, e.app.URL, events[i], testWebhookSecret, time.Now()); code != 200 {
					t.Fatalf("event %d: %d %s", i, code, body)
				}
			}
			if round == 0 {
				callsAfterFirst := e.ent.callCount()
				defer func() {
					// Duplicates reach entitlement never: one side effect per event id.
					if got := e.ent.callCount(); got != callsAfterFirst {
						t.Errorf("redeliveries called entitlement %d more times", got-callsAfterFirst)
					}
				}()
			}
		}
		if shuffle {
			var minA, maxA int
			if err := e.pool.QueryRow(ctx, `SELECT min(attempts), max(attempts) FROM billing_events`).Scan(&minA, &maxA); err != nil {
				t.Fatal(err)
			}
			if minA != 3 || maxA != 3 {
				t.Errorf("attempts per event %d..%d, want 3", minA, maxA)
			}
		}
		return e.outcome(t, user), e, user
	}
	inOrder, _, _ := run(false)
	shuffled, e, user := run(true)
	if !reflect.DeepEqual(inOrder, shuffled) {
		t.Errorf("shuffled and repeated delivery differs from in-order:\n in order %+v\n shuffled %+v", inOrder, shuffled)
	}
	if inOrder.Events != 40 {
		t.Errorf("inbox holds %d events, want 40", inOrder.Events)
	}
	// The scenario ends active, yearly, with the last cancellation undone
	// and the last failed payment paid.
	want := billing.State{StripeStatus: "active", Tier: billing.TierYearly}
	if got := e.ent.state(user); got.StripeStatus != want.StripeStatus || got.Tier != want.Tier || got.CancelAtPeriodEnd || got.PaymentFailedAt != nil {
		t.Errorf("entitlement got %+v", got)
	}
	// Refunds are recorded once each, invoices once each.
	refunds := 0
	for _, p := range shuffled.Payments {
		if len(p) > 7 && p[:7] == "refund:" {
			refunds++
		}
	}
	if refunds != 4 {
		t.Errorf("refunds recorded %d, want 4 (%v)", refunds, shuffled.Payments)
	}
}

func TestWebhookRefusesBadSignatureAndOldTimestampWritingNothing(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	user := e.member(t)
	if _, err := e.pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_bad')`, user); err != nil {
		t.Fatal(err)
	}
	ev := scenario("cus_bad", time.Now().Add(-time.Minute))[2]
	cases := []struct {
		name   string
		secret string
		at     time.Time
	}{
		{"wrong secret", "whsec_someone_else", time.Now()},
		{"timestamp 301 s old", testWebhookSecret, time.Now().Add(-301 * time.Second)},
		{"timestamp an hour old", testWebhookSecret, time.Now().Add(-time.Hour)},
	}
	for _, c := range cases {
		if code, body := deliver(t, e.app.URL, ev, c.secret, c.at); code != 400 {
			t.Errorf("%s: %d %s, want 400", c.name, code, body)
		}
	}
	// No signature at all, and a tampered body.
	res, err := http.Post(e.app.URL, "application/json", bytes.NewReader(ev))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("unsigned: %d, want 400", res.StatusCode)
	}
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: ev, Secret: testWebhookSecret, Timestamp: time.Now()})
	tampered := bytes.Replace(sp.Payload, []byte(`"active"`), []byte(`"canceled"`), 1)
	req, _ := http.NewRequest(http.MethodPost, e.app.URL, bytes.NewReader(tampered))
	req.Header.Set("Stripe-Signature", sp.Header)
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("tampered: %d, want 400", res.StatusCode)
	}
	var events, subs, payments int
	if err := e.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM billing_events), (SELECT count(*) FROM billing_subscriptions),
		(SELECT count(*) FROM billing_payments)`).Scan(&events, &subs, &payments); err != nil {
		t.Fatal(err)
	}
	if events+subs+payments != 0 || e.ent.callCount() != 0 {
		t.Errorf("refused events wrote events=%d subscriptions=%d payments=%d entitlement calls=%d", events, subs, payments, e.ent.callCount())
	}
	// Within the tolerance it is accepted.
	if code, body := deliver(t, e.app.URL, ev, testWebhookSecret, time.Now().Add(-299*time.Second)); code != 200 {
		t.Errorf("299 s old: %d %s, want 200", code, body)
	}
}

func TestOlderEventIsIgnoredAndDuplicateChangesNothing(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	user := e.member(t)
	if _, err := e.pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, 'cus_old')`, user); err != nil {
		t.Fatal(err)
	}
	events := scenario("cus_old", time.Now().Add(-time.Hour))
	// events[4] (subscription past_due) is older than events[7] (subscription
	// active again); invoices are ordered apart from subscriptions.
	newerEv, olderEv := events[7], events[4]
	for _, ev := range [][]byte{newerEv, olderEv, newerEv} {
		if code, body := deliver(t, e.app.URL, ev, testWebhookSecret, time.Now()); code != 200 {
			t.Fatalf("%d %s", code, body)
		}
	}
	var statuses []string
	rows, err := e.pool.Query(ctx, `SELECT status || '/' || attempts FROM billing_events ORDER BY created`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		statuses = append(statuses, s)
	}
	rows.Close()
	if fmt.Sprint(statuses) != "[ignored/1 applied/2]" {
		t.Errorf("inbox %v, want the older one ignored and the newer applied once, delivered twice", statuses)
	}
	if got := e.row(t, user); got.status != "active" {
		t.Errorf("row %+v, want active (the older past_due ignored)", got)
	}
	if got := e.ent.callCount(); got != 1 {
		t.Errorf("entitlement called %d times, want 1", got)
	}
}
