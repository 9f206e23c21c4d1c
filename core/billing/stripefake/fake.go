// Package stripefake is a small, stateful stand-in for the parts of the
// Stripe API VetClube calls, served over HTTP so the production code path
// (the same stripe-go client, only another backend URL) runs against it in
// development and tests. It keeps customers, tax ids, checkout sessions,
// subscriptions, invoices, prices and events; its hosted pages stand in
// for Stripe Checkout (/pay/{session}), the customer portal
// (/portal/{session}) and a boleto's hosted invoice (/invoice/{id}).
// Every state change records an event and, unless webhooks are switched
// off, POSTs it signed (webhook.GenerateTestSignedPayload, the pinned API
// version) to the configured webhook address.
//
// Test-only controls (for browser tests and demos), JSON or form bodies:
//
//	POST /_fake/payment_failed {"customer":"cus_…"} or {"email":"…"}
//	    the member's subscription goes past_due and a signed
//	    invoice.payment_failed event is sent (the dunning banner).
//	POST /_fake/invoice_paid {"customer"|"email"}: the open invoice is paid
//	    (invoice.paid, subscription active again).
//	POST /_fake/webhooks {"enabled":false}: stop (or resume) sending events;
//	    they stay listed as undelivered (delivery_success=false).
//	GET  /_fake/state: the whole state as JSON.
package stripefake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// Object is a Stripe object as JSON.
type Object = map[string]any

// Price is a plan the fake knows.
type Price struct {
	ID       string
	Amount   int64
	Interval string // month | year
}

// Options configure a Fake.
type Options struct {
	// WebhookURL receives signed events ("" sends none).
	WebhookURL    string
	WebhookSecret string
	Prices        []Price
	// StatePath keeps the state across restarts (JSON); "" keeps it in memory.
	StatePath string
	Now       func() time.Time
	Log       *slog.Logger
}

// DefaultPrices are the development plans (BRL).
var DefaultPrices = []Price{
	{ID: "price_fake_monthly", Amount: 4990, Interval: "month"},
	{ID: "price_fake_yearly", Amount: 47900, Interval: "year"},
}

type event struct {
	Obj       Object `json:"obj"`
	Delivered bool   `json:"delivered"`
}

type state struct {
	Seq          int               `json:"seq"`
	Customers    map[string]Object `json:"customers"`
	TaxIDs       map[string]Object `json:"tax_ids"`
	Sessions     map[string]Object `json:"sessions"`
	Portals      map[string]Object `json:"portals"`
	Subs         map[string]Object `json:"subscriptions"`
	Invoices     map[string]Object `json:"invoices"`
	Prices       map[string]Object `json:"prices"`
	BalanceTxs   map[string]Object `json:"balance_transactions"`
	Coupons      map[string]Object `json:"coupons"`
	Events       []*event          `json:"events"`
	Idempotent   map[string][]byte `json:"idempotent"`
	WebhooksOff  bool              `json:"webhooks_off"`
	RequestCount map[string]int    `json:"request_count"`
}

// Fake is the fake Stripe.
type Fake struct {
	mu   sync.Mutex
	st   *state
	opts Options
	base string
	hc   *http.Client
	srv  *http.Server
}

// New returns a fake with its prices (DefaultPrices when none), loading
// the state from StatePath when it exists.
func New(o Options) *Fake {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if len(o.Prices) == 0 {
		o.Prices = DefaultPrices
	}
	f := &Fake{opts: o, hc: &http.Client{Timeout: 30 * time.Second}}
	f.st = &state{}
	if o.StatePath != "" {
		if b, err := os.ReadFile(o.StatePath); err == nil {
			if err := json.Unmarshal(b, f.st); err != nil {
				o.Log.Warn("stripe fake: state unreadable, starting empty", "path", o.StatePath, "err", err)
				f.st = &state{}
			}
		}
	}
	f.init()
	for _, p := range o.Prices {
		f.st.Prices[p.ID] = Object{"id": p.ID, "object": "price", "active": true, "currency": "brl", "unit_amount": p.Amount,
			"type": "recurring", "recurring": Object{"interval": p.Interval, "interval_count": 1}, "livemode": false}
	}
	return f
}

func (f *Fake) init() {
	s := f.st
	for _, m := range []*map[string]Object{&s.Customers, &s.TaxIDs, &s.Sessions, &s.Portals, &s.Subs, &s.Invoices, &s.Prices, &s.BalanceTxs, &s.Coupons} {
		if *m == nil {
			*m = map[string]Object{}
		}
	}
	if s.Idempotent == nil {
		s.Idempotent = map[string][]byte{}
	}
	if s.RequestCount == nil {
		s.RequestCount = map[string]int{}
	}
}

// Start serves the fake on addr ("127.0.0.1:0" for any free port) and
// returns its base URL.
func (f *Fake) Start(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("stripe fake: %w", err)
	}
	f.mu.Lock()
	f.base = "http://" + ln.Addr().String()
	f.mu.Unlock()
	f.srv = &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = f.srv.Serve(ln) }()
	return f.base, nil
}

// SetBase names the fake's own address (when served by the caller, such as
// an httptest.Server); the hosted pages' links use it.
func (f *Fake) SetBase(u string) { f.mu.Lock(); f.base = strings.TrimRight(u, "/"); f.mu.Unlock() }

// Close stops a fake started with Start.
func (f *Fake) Close() error {
	if f.srv == nil {
		return nil
	}
	return f.srv.Close()
}

// SetWebhookURL changes where events go (a test server's address is known
// after the fake).
func (f *Fake) SetWebhookURL(u, secret string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opts.WebhookURL, f.opts.WebhookSecret = u, secret
}

// SetWebhooks switches sending events on or off.
func (f *Fake) SetWebhooks(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st.WebhooksOff = !on
	f.save()
}

// Requests counts the API requests served by "METHOD /v1/path-prefix".
func (f *Fake) Requests(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st.RequestCount[key]
}

func (f *Fake) id(prefix string) string {
	f.st.Seq++
	return fmt.Sprintf("%s_fake%06d%s", prefix, f.st.Seq, randomSuffix())
}

func randomSuffix() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 8)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}

func (f *Fake) now() int64 { return f.opts.Now().Unix() }

func (f *Fake) save() {
	if f.opts.StatePath == "" {
		return
	}
	b, err := json.Marshal(f.st)
	if err != nil {
		return
	}
	tmp := f.opts.StatePath + ".tmp"
	if err := os.MkdirAll(filepath.Dir(f.opts.StatePath), 0o700); err == nil {
		if err := os.WriteFile(tmp, b, 0o600); err == nil {
			_ = os.Rename(tmp, f.opts.StatePath)
		}
	}
}

// copyObj deep-copies an object (events carry a snapshot).
func copyObj(o Object) Object {
	b, _ := json.Marshal(o)
	var out Object
	_ = json.Unmarshal(b, &out)
	return out
}

// emit records an event (the caller holds mu) and returns it for delivery.
func (f *Fake) emit(typ string, obj Object) *event {
	ev := &event{Obj: Object{"id": f.id("evt"), "object": "event", "api_version": stripe.APIVersion, "created": f.now(),
		"type": typ, "livemode": false, "pending_webhooks": 1, "data": Object{"object": copyObj(obj)},
		"request": Object{"id": nil, "idempotency_key": nil}}}
	f.st.Events = append(f.st.Events, ev)
	return ev
}

// deliver sends events in order, outside the lock (the app calls back).
func (f *Fake) deliver(evs []*event) {
	f.mu.Lock()
	target, secret, off := f.opts.WebhookURL, f.opts.WebhookSecret, f.st.WebhooksOff
	f.mu.Unlock()
	if target == "" || off {
		return
	}
	for _, ev := range evs {
		f.mu.Lock()
		payload, _ := json.Marshal(ev.Obj)
		f.mu.Unlock()
		sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: f.opts.Now()})
		req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(sp.Payload))
		if err != nil {
			continue
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Stripe-Signature", sp.Header)
		res, err := f.hc.Do(req)
		if err != nil {
			f.opts.Log.Warn("stripe fake: webhook not delivered", "event", ev.Obj["id"], "err", err)
			continue
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode/100 == 2 {
			f.mu.Lock()
			ev.Delivered = true
			ev.Obj["pending_webhooks"] = 0
			f.save()
			f.mu.Unlock()
		} else {
			f.opts.Log.Warn("stripe fake: webhook refused", "event", ev.Obj["id"], "status", res.StatusCode)
		}
	}
}

// ---- HTTP ----

type apiError struct {
	status  int
	typ     string
	code    string
	message string
	param   string
}

func (e *apiError) Error() string { return e.message }

func missing(what, id string) *apiError {
	return &apiError{status: 404, typ: "invalid_request_error", code: "resource_missing", message: fmt.Sprintf("No such %s: '%s'", what, id)}
}

func invalid(param, msg string) *apiError {
	return &apiError{status: 400, typ: "invalid_request_error", code: "parameter_invalid", param: param, message: msg}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_fake")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func list(url string, data []Object) Object {
	if data == nil {
		data = []Object{}
	}
	return Object{"object": "list", "url": url, "has_more": false, "data": data}
}

// ServeHTTP routes the API, the hosted pages and the test controls.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, Object{"error": Object{"type": "invalid_request_error", "message": "bad form"}})
		return
	}
	p := strings.Trim(r.URL.Path, "/")
	parts := strings.Split(p, "/")
	switch {
	case len(parts) > 0 && parts[0] == "v1":
		f.api(w, r, parts[1:])
	case len(parts) == 2 && parts[0] == "pay":
		f.payPage(w, r, parts[1])
	case len(parts) >= 2 && parts[0] == "portal":
		f.portalPage(w, r, parts[1], strings.Join(parts[2:], "/"))
	case len(parts) == 2 && parts[0] == "invoice":
		f.invoicePage(w, r, parts[1])
	case len(parts) == 2 && parts[0] == "_fake":
		f.control(w, r, parts[1])
	default:
		http.NotFound(w, r)
	}
}

func (f *Fake) api(w http.ResponseWriter, r *http.Request, parts []string) {
	f.mu.Lock()
	if len(parts) > 0 {
		f.st.RequestCount[r.Method+" /v1/"+parts[0]]++
	}
	key := r.Header.Get("Idempotency-Key")
	if r.Method == http.MethodPost && key != "" {
		if b, ok := f.st.Idempotent[key]; ok {
			f.mu.Unlock()
			w.Header().Set("Idempotent-Replayed", "true")
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(b)
			return
		}
	}
	out, evs, err := f.route(r, parts)
	var body []byte
	if err == nil {
		body, _ = json.Marshal(out)
		if r.Method == http.MethodPost && key != "" {
			f.st.Idempotent[key] = body
		}
		f.save()
	}
	f.mu.Unlock()
	if err != nil {
		writeJSON(w, err.status, Object{"error": Object{"type": err.typ, "code": err.code, "message": err.message, "param": err.param}})
		return
	}
	// Like Stripe, events an API call causes arrive after its answer (the
	// caller may hold a lock the webhook needs).
	if len(evs) > 0 {
		go f.deliver(evs)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_fake")
	_, _ = w.Write(append(body, '\n'))
}

// route answers one API call (mu held).
func (f *Fake) route(r *http.Request, p []string) (any, []*event, *apiError) {
	m := r.Method
	get := func(k string) string { return r.Form.Get(k) }
	switch {
	case m == "POST" && len(p) == 1 && p[0] == "customers":
		c := Object{"id": f.id("cus"), "object": "customer", "created": f.now(), "email": get("email"), "name": get("name"),
			"metadata": formMap(r.Form, "metadata"), "livemode": false, "deleted": false, "currency": "brl",
			"invoice_settings": Object{"default_payment_method": nil}, "preferred_locales": []string{"pt-BR"}}
		f.st.Customers[c["id"].(string)] = c
		return c, nil, nil
	case m == "GET" && len(p) == 2 && p[0] == "customers":
		if c, ok := f.st.Customers[p[1]]; ok {
			return c, nil, nil
		}
		return nil, nil, missing("customer", p[1])
	case m == "POST" && len(p) == 3 && p[0] == "customers" && p[2] == "tax_ids":
		if _, ok := f.st.Customers[p[1]]; !ok {
			return nil, nil, missing("customer", p[1])
		}
		if get("type") != "br_cpf" && get("type") != "br_cnpj" {
			return nil, nil, invalid("type", "Invalid tax id type")
		}
		t := Object{"id": f.id("txi"), "object": "tax_id", "customer": p[1], "type": get("type"), "value": get("value"),
			"country": "BR", "created": f.now(), "livemode": false, "verification": Object{"status": "unavailable"}}
		f.st.TaxIDs[t["id"].(string)] = t
		return t, nil, nil
	case m == "GET" && len(p) == 3 && p[0] == "customers" && p[2] == "balance_transactions":
		var out []Object
		for _, t := range f.st.BalanceTxs {
			if t["customer"] == p[1] {
				out = append(out, t)
			}
		}
		sortByCreated(out)
		return list("/v1/customers/"+p[1]+"/balance_transactions", out), nil, nil
	case m == "POST" && len(p) == 3 && p[0] == "customers" && p[2] == "balance_transactions":
		// A credit (negative amount) or debit on the customer's balance.
		c, ok := f.st.Customers[p[1]]
		if !ok {
			return nil, nil, missing("customer", p[1])
		}
		amount, err := strconv.ParseInt(get("amount"), 10, 64)
		if err != nil || amount == 0 {
			return nil, nil, invalid("amount", "Invalid integer amount")
		}
		balance := num(c["balance"]) + amount
		c["balance"] = balance
		t := Object{"id": f.id("cbtxn"), "object": "customer_balance_transaction", "customer": p[1], "amount": amount,
			"currency": "brl", "description": get("description"), "ending_balance": balance, "type": "adjustment",
			"created": f.now(), "livemode": false, "metadata": formMap(r.Form, "metadata")}
		f.st.BalanceTxs[t["id"].(string)] = t
		return t, nil, nil
	case m == "POST" && len(p) == 1 && p[0] == "coupons":
		// A discount bought with VetCoins (percent off, once or repeating).
		pct, err := strconv.ParseFloat(get("percent_off"), 64)
		if err != nil || pct <= 0 || pct > 100 {
			return nil, nil, invalid("percent_off", "Invalid percent_off")
		}
		id := get("id")
		if id == "" {
			id = f.id("coupon")
		}
		if _, dup := f.st.Coupons[id]; dup {
			return nil, nil, &apiError{status: 400, typ: "invalid_request_error", code: "resource_already_exists", message: "Coupon already exists."}
		}
		c := Object{"id": id, "object": "coupon", "percent_off": pct, "duration": get("duration"),
			"name": get("name"), "valid": true, "created": f.now(), "livemode": false, "metadata": formMap(r.Form, "metadata")}
		if n, err := strconv.ParseInt(get("duration_in_months"), 10, 64); err == nil {
			c["duration_in_months"] = n
		}
		f.st.Coupons[c["id"].(string)] = c
		return c, nil, nil
	case m == "GET" && len(p) == 3 && p[0] == "customers" && p[2] == "payment_methods":
		// The fake keeps no payment methods (its checkout pays without one).
		return list("/v1/customers/"+p[1]+"/payment_methods", nil), nil, nil
	case m == "POST" && len(p) == 2 && p[0] == "checkout" && p[1] == "sessions":
		return f.createSession(r)
	case m == "GET" && len(p) == 3 && p[0] == "checkout" && p[1] == "sessions":
		if s, ok := f.st.Sessions[p[2]]; ok {
			return s, nil, nil
		}
		return nil, nil, missing("checkout.session", p[2])
	case m == "POST" && len(p) == 2 && p[0] == "billing_portal" && p[1] == "sessions":
		cus := get("customer")
		if _, ok := f.st.Customers[cus]; !ok {
			return nil, nil, missing("customer", cus)
		}
		id := f.id("bps")
		s := Object{"id": id, "object": "billing_portal.session", "customer": cus, "return_url": get("return_url"),
			"url": f.base + "/portal/" + id, "created": f.now(), "livemode": false, "locale": get("locale")}
		f.st.Portals[id] = s
		return s, nil, nil
	case m == "DELETE" && len(p) == 2 && p[0] == "subscriptions":
		// Cancels at once (a deleted account's subscription).
		sub, ok := f.st.Subs[p[1]]
		if !ok {
			return nil, nil, missing("subscription", p[1])
		}
		var evs []*event
		if sub["status"] != "canceled" {
			sub["status"], sub["canceled_at"], sub["ended_at"], sub["cancel_at_period_end"] = "canceled", f.now(), f.now(), false
			evs = append(evs, f.emit("customer.subscription.deleted", f.expandSub(sub)))
		}
		return f.expandSub(sub), evs, nil
	case m == "DELETE" && len(p) == 2 && p[0] == "customers":
		// Deletes the customer and cancels its subscriptions, as Stripe does.
		c, ok := f.st.Customers[p[1]]
		if !ok {
			return nil, nil, missing("customer", p[1])
		}
		var evs []*event
		for _, sub := range f.st.Subs {
			if sub["customer"] == p[1] && sub["status"] != "canceled" {
				sub["status"], sub["canceled_at"], sub["ended_at"] = "canceled", f.now(), f.now()
				evs = append(evs, f.emit("customer.subscription.deleted", f.expandSub(sub)))
			}
		}
		delete(f.st.Customers, p[1])
		evs = append(evs, f.emit("customer.deleted", c))
		return Object{"id": p[1], "object": "customer", "deleted": true}, evs, nil
	case m == "GET" && len(p) == 1 && p[0] == "subscriptions":
		var out []Object
		for _, s := range f.st.Subs {
			if c := get("customer"); c != "" && s["customer"] != c {
				continue
			}
			if st := get("status"); st != "" && st != "all" && s["status"] != st {
				continue
			}
			if st := get("status"); st == "" && (s["status"] == "canceled" || s["status"] == "incomplete_expired") {
				continue
			}
			out = append(out, f.expandSub(s))
		}
		sortByCreated(out)
		return list("/v1/subscriptions", out), nil, nil
	case m == "GET" && len(p) == 2 && p[0] == "subscriptions":
		if s, ok := f.st.Subs[p[1]]; ok {
			return f.expandSub(s), nil, nil
		}
		return nil, nil, missing("subscription", p[1])
	case m == "POST" && len(p) == 1 && p[0] == "subscriptions":
		return f.createBoletoSub(r)
	case m == "POST" && len(p) == 2 && p[0] == "subscriptions":
		// Only discounts are updated here (a coupon bought with VetCoins).
		sub, ok := f.st.Subs[p[1]]
		if !ok {
			return nil, nil, missing("subscription", p[1])
		}
		if cid := get("discounts[0][coupon]"); cid != "" {
			c, ok := f.st.Coupons[cid]
			if !ok {
				return nil, nil, missing("coupon", cid)
			}
			sub["discounts"] = []string{"di_" + cid}
			sub["discount"] = Object{"id": "di_" + cid, "object": "discount", "coupon": c, "subscription": p[1], "customer": sub["customer"]}
		}
		return f.expandSub(sub), nil, nil
	case m == "POST" && len(p) == 3 && p[0] == "invoices" && p[2] == "finalize":
		inv, ok := f.st.Invoices[p[1]]
		if !ok {
			return nil, nil, missing("invoice", p[1])
		}
		if inv["status"] == "draft" {
			inv["status"] = "open"
		}
		return inv, nil, nil
	case m == "GET" && len(p) == 1 && p[0] == "invoices":
		var out []Object
		for _, inv := range f.st.Invoices {
			if c := get("customer"); c != "" && inv["customer"] != c {
				continue
			}
			out = append(out, inv)
		}
		sortByCreated(out)
		if n, err := strconv.Atoi(get("limit")); err == nil && n > 0 && len(out) > n {
			out = out[:n]
		}
		return list("/v1/invoices", out), nil, nil
	case m == "GET" && len(p) == 2 && p[0] == "invoices":
		if inv, ok := f.st.Invoices[p[1]]; ok {
			return inv, nil, nil
		}
		return nil, nil, missing("invoice", p[1])
	case m == "GET" && len(p) == 2 && p[0] == "prices":
		if pr, ok := f.st.Prices[p[1]]; ok {
			return pr, nil, nil
		}
		return nil, nil, missing("price", p[1])
	case m == "GET" && len(p) == 1 && p[0] == "events":
		return f.listEvents(r), nil, nil
	case m == "GET" && len(p) == 2 && p[0] == "events":
		for _, ev := range f.st.Events {
			if ev.Obj["id"] == p[1] {
				return ev.Obj, nil, nil
			}
		}
		return nil, nil, missing("event", p[1])
	}
	return nil, nil, &apiError{status: 404, typ: "invalid_request_error", message: "Unrecognized request URL (" + m + " /v1/" + strings.Join(p, "/") + ") in the fake"}
}

// formMap reads prefix[key]=value pairs.
func formMap(form url.Values, prefix string) Object {
	out := Object{}
	for k, v := range form {
		if strings.HasPrefix(k, prefix+"[") && strings.HasSuffix(k, "]") && !strings.Contains(k[len(prefix)+1:len(k)-1], "[") {
			out[k[len(prefix)+1:len(k)-1]] = v[0]
		}
	}
	return out
}

func sortByCreated(out []Object) {
	sort.SliceStable(out, func(i, j int) bool {
		ci, cj := num(out[i]["created"]), num(out[j]["created"])
		if ci != cj {
			return ci > cj
		}
		return fmt.Sprint(out[i]["id"]) > fmt.Sprint(out[j]["id"])
	})
}

func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case int:
		return int64(x)
	case json.Number:
		n, _ := x.Int64()
		return n
	}
	return 0
}

func (f *Fake) createSession(r *http.Request) (any, []*event, *apiError) {
	get := r.Form.Get
	if get("mode") != "subscription" {
		return nil, nil, invalid("mode", "the fake serves subscription mode only")
	}
	cus := get("customer")
	if _, ok := f.st.Customers[cus]; !ok {
		return nil, nil, missing("customer", cus)
	}
	price := get("line_items[0][price]")
	if _, ok := f.st.Prices[price]; !ok {
		return nil, nil, missing("price", price)
	}
	if get("success_url") == "" {
		return nil, nil, invalid("success_url", "Missing required param: success_url.")
	}
	id := f.id("cs")
	var methods []string
	for i := 0; ; i++ {
		v := get(fmt.Sprintf("payment_method_types[%d]", i))
		if v == "" {
			break
		}
		methods = append(methods, v)
	}
	s := Object{"id": id, "object": "checkout.session", "mode": "subscription", "customer": cus, "status": "open",
		"payment_status": "unpaid", "url": f.base + "/pay/" + id, "success_url": get("success_url"), "cancel_url": get("cancel_url"),
		"locale": get("locale"), "client_reference_id": get("client_reference_id"), "metadata": formMap(r.Form, "metadata"),
		"subscription": nil, "created": f.now(), "expires_at": f.now() + 24*3600, "livemode": false,
		"payment_method_types": methods, "price": price, "subscription_metadata": formMap(r.Form, "subscription_data[metadata]")}
	f.st.Sessions[id] = s
	return s, nil, nil
}

func (f *Fake) periodEnd(price string, from int64) int64 {
	t := time.Unix(from, 0).UTC()
	if pr, ok := f.st.Prices[price]; ok {
		if rec, ok := pr["recurring"].(map[string]any); ok && rec["interval"] == "year" {
			return t.AddDate(1, 0, 0).Unix()
		}
	}
	return t.AddDate(0, 1, 0).Unix()
}

// newSub makes a subscription object (mu held).
func (f *Fake) newSub(cus, price, status, collection string, metadata Object) Object {
	id := f.id("sub")
	now := f.now()
	item := Object{"id": f.id("si"), "object": "subscription_item", "price": f.st.Prices[price], "quantity": 1,
		"current_period_start": now, "current_period_end": f.periodEnd(price, now), "subscription": id, "created": now}
	s := Object{"id": id, "object": "subscription", "customer": cus, "status": status, "collection_method": collection,
		"cancel_at_period_end": false, "cancel_at": nil, "canceled_at": nil, "ended_at": nil, "created": now, "start_date": now,
		"currency": "brl", "livemode": false, "metadata": metadata, "latest_invoice": nil,
		"items": Object{"object": "list", "data": []Object{item}, "has_more": false, "url": "/v1/subscription_items?subscription=" + id}}
	if collection == "send_invoice" {
		s["days_until_due"] = 3
	}
	f.st.Subs[id] = s
	return s
}

// newInvoice makes an invoice of sub (mu held).
func (f *Fake) newInvoice(sub Object, status string, attempts int) Object {
	id := f.id("in")
	price, _ := subPrice(sub)
	amount := num(f.st.Prices[price]["unit_amount"])
	f.st.Seq++
	inv := Object{"id": id, "object": "invoice", "customer": sub["customer"], "status": status, "amount_due": amount,
		"amount_paid": 0, "total": amount, "currency": "brl", "created": f.now(), "number": fmt.Sprintf("VC-%04d", f.st.Seq),
		"attempt_count": attempts, "collection_method": sub["collection_method"], "livemode": false,
		"hosted_invoice_url": f.base + "/invoice/" + id, "invoice_pdf": f.base + "/invoice/" + id + "?pdf=1",
		"parent": Object{"type": "subscription_details", "subscription_details": Object{"subscription": sub["id"], "metadata": sub["metadata"]}}}
	if status == "paid" {
		inv["amount_paid"] = amount
		inv["status_transitions"] = Object{"paid_at": f.now()}
	}
	f.st.Invoices[id] = inv
	sub["latest_invoice"] = id
	return inv
}

func subPrice(sub Object) (string, Object) {
	items, _ := sub["items"].(map[string]any)
	if items == nil {
		return "", nil
	}
	data, _ := items["data"].([]any)
	if len(data) == 0 {
		if d2, ok := items["data"].([]Object); ok && len(d2) > 0 {
			pr, _ := d2[0]["price"].(map[string]any)
			return fmt.Sprint(pr["id"]), d2[0]
		}
		return "", nil
	}
	it, _ := data[0].(map[string]any)
	pr, _ := it["price"].(map[string]any)
	return fmt.Sprint(pr["id"]), it
}

// expandSub returns sub with its latest invoice expanded.
func (f *Fake) expandSub(s Object) Object {
	out := copyObj(s)
	if id, ok := s["latest_invoice"].(string); ok {
		if inv, ok := f.st.Invoices[id]; ok {
			out["latest_invoice"] = copyObj(inv)
		}
	}
	return out
}

func (f *Fake) createBoletoSub(r *http.Request) (any, []*event, *apiError) {
	get := r.Form.Get
	cus := get("customer")
	if _, ok := f.st.Customers[cus]; !ok {
		return nil, nil, missing("customer", cus)
	}
	price := get("items[0][price]")
	if _, ok := f.st.Prices[price]; !ok {
		return nil, nil, missing("price", price)
	}
	if get("collection_method") != "send_invoice" || get("days_until_due") == "" {
		return nil, nil, invalid("collection_method", "the fake creates subscriptions collected by invoice only")
	}
	sub := f.newSub(cus, price, "incomplete", "send_invoice", formMap(r.Form, "metadata"))
	inv := f.newInvoice(sub, "open", 0)
	evs := []*event{f.emit("customer.subscription.created", f.expandSub(sub)), f.emit("invoice.finalized", inv)}
	return f.expandSub(sub), evs, nil
}

func (f *Fake) listEvents(r *http.Request) Object {
	get := r.Form.Get
	types := map[string]bool{}
	for k, v := range r.Form {
		if strings.HasPrefix(k, "types[") {
			types[v[0]] = true
		}
	}
	gte, _ := strconv.ParseInt(get("created[gte]"), 10, 64)
	var out []Object
	for i := len(f.st.Events) - 1; i >= 0; i-- {
		ev := f.st.Events[i]
		if d := get("delivery_success"); d == "false" && ev.Delivered || d == "true" && !ev.Delivered {
			continue
		}
		if len(types) > 0 && !types[fmt.Sprint(ev.Obj["type"])] {
			continue
		}
		if t := get("type"); t != "" && ev.Obj["type"] != t {
			continue
		}
		if gte > 0 && num(ev.Obj["created"]) < gte {
			continue
		}
		out = append(out, ev.Obj)
	}
	return list("/v1/events", out)
}
