package stripefake

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"
)

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Stripe (simulado)</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}button{font:inherit;padding:.7rem 1.2rem;border-radius:8px;border:0;background:#635bff;color:#fff;cursor:pointer;margin:.3rem 0}
button.secondary{background:#eee;color:#1a1a1a}small{color:#666}</style></head>
<body><div class="card"><p><small>Stripe de desenvolvimento (simulado) — nenhum pagamento real</small></p>
<h1>{{.Title}}</h1>{{if .Text}}<p>{{.Text}}</p>{{end}}
{{range .Actions}}<form method="post" action="{{.Action}}"><button type="submit" class="{{.Class}}">{{.Label}}</button></form>{{end}}
{{if .Back}}<p><a href="{{.Back}}">{{.BackLabel}}</a></p>{{end}}
</div></body></html>`))

type action struct{ Action, Label, Class string }

type pageData struct {
	Title, Text     string
	Actions         []action
	Back, BackLabel string
}

func render(w http.ResponseWriter, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = page.Execute(w, d)
}

func brl(cents int64) string {
	s := fmt.Sprintf("R$ %d,%02d", cents/100, cents%100)
	return s
}

// payPage is the hosted checkout: GET shows the plan, POST pays.
func (f *Fake) payPage(w http.ResponseWriter, r *http.Request, id string) {
	f.mu.Lock()
	s, ok := f.st.Sessions[id]
	var title, text string
	if ok {
		pr := f.st.Prices[fmt.Sprint(s["price"])]
		interval := "mês"
		if rec, _ := pr["recurring"].(map[string]any); rec != nil && rec["interval"] == "year" {
			interval = "ano"
		}
		title = "Assinar VetClube Premium"
		text = brl(num(pr["unit_amount"])) + " por " + interval + " — cartão de teste 4242 4242 4242 4242"
	}
	f.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodPost {
		u, err := f.PayCheckout(id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		http.Redirect(w, r, u, http.StatusSeeOther)
		return
	}
	render(w, pageData{Title: title, Text: text, Actions: []action{{Action: "/pay/" + id, Label: "Pagar"}},
		Back: fmt.Sprint(s["cancel_url"]), BackLabel: "Voltar"})
}

// PayCheckout completes a checkout session as if the member paid: the
// subscription starts active with a paid invoice, the events are sent; it
// returns the session's success address.
func (f *Fake) PayCheckout(id string) (string, error) {
	f.mu.Lock()
	s, ok := f.st.Sessions[id]
	if !ok {
		f.mu.Unlock()
		return "", errors.New("no such checkout session")
	}
	success := strings.ReplaceAll(fmt.Sprint(s["success_url"]), "{CHECKOUT_SESSION_ID}", id)
	if s["status"] != "open" {
		f.mu.Unlock()
		return success, nil
	}
	md, _ := s["subscription_metadata"].(map[string]any)
	sub := f.newSub(fmt.Sprint(s["customer"]), fmt.Sprint(s["price"]), "active", "charge_automatically", md)
	// Stripe's test card.
	sub["default_payment_method"] = Object{"id": f.id("pm"), "object": "payment_method", "type": "card",
		"customer": s["customer"], "card": Object{"brand": "visa", "last4": "4242", "exp_month": 12, "exp_year": 2034}}
	inv := f.newInvoice(sub, "paid", 1)
	s["status"], s["payment_status"], s["subscription"], s["invoice"] = "complete", "paid", sub["id"], inv["id"]
	evs := []*event{
		f.emit("customer.subscription.created", f.expandSub(sub)),
		f.emit("invoice.paid", inv),
		f.emit("checkout.session.completed", s),
	}
	f.save()
	f.mu.Unlock()
	f.deliver(evs)
	return success, nil
}

// portalPage is the customer portal: cancel at period end, reactivate,
// back to the app.
func (f *Fake) portalPage(w http.ResponseWriter, r *http.Request, id, act string) {
	f.mu.Lock()
	ps, ok := f.st.Portals[id]
	var sub Object
	if ok {
		sub = f.liveSub(fmt.Sprint(ps["customer"]))
	}
	f.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	back := fmt.Sprint(ps["return_url"])
	if r.Method == http.MethodPost && sub != nil {
		switch act {
		case "cancel":
			f.UpdateSubscription(fmt.Sprint(sub["id"]), func(s Object) { s["cancel_at_period_end"] = true })
		case "reactivate":
			f.UpdateSubscription(fmt.Sprint(sub["id"]), func(s Object) { s["cancel_at_period_end"] = false })
		}
		http.Redirect(w, r, "/portal/"+id, http.StatusSeeOther)
		return
	}
	d := pageData{Title: "Sua assinatura", Back: back, BackLabel: "Voltar ao VetClube"}
	switch {
	case sub == nil:
		d.Text = "Nenhuma assinatura ativa."
	case sub["cancel_at_period_end"] == true:
		d.Text = "Assinatura cancelada ao fim do período."
		d.Actions = []action{{Action: "/portal/" + id + "/reactivate", Label: "Reativar assinatura"}}
	default:
		d.Text = "Status: " + fmt.Sprint(sub["status"])
		d.Actions = []action{{Action: "/portal/" + id + "/cancel", Label: "Cancelar assinatura", Class: "secondary"}}
	}
	render(w, d)
}

// invoicePage is a hosted invoice (a boleto's): POST pays it.
func (f *Fake) invoicePage(w http.ResponseWriter, r *http.Request, id string) {
	f.mu.Lock()
	inv, ok := f.st.Invoices[id]
	var status string
	var amount int64
	if ok {
		status, amount = fmt.Sprint(inv["status"]), num(inv["amount_due"])
	}
	f.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodPost {
		if err := f.PayInvoice(id); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		http.Redirect(w, r, "/invoice/"+id, http.StatusSeeOther)
		return
	}
	d := pageData{Title: "Fatura VetClube", Text: brl(amount) + " — " + map[string]string{"open": "em aberto (boleto vence em 3 dias)", "paid": "paga"}[status]}
	if status == "open" {
		d.Actions = []action{{Action: "/invoice/" + id, Label: "Pagar boleto"}}
	}
	render(w, d)
}

// liveSub is the customer's newest subscription that is not over (mu held).
func (f *Fake) liveSub(cus string) Object {
	var best Object
	for _, s := range f.st.Subs {
		if s["customer"] != cus || s["status"] == "canceled" || s["status"] == "incomplete_expired" {
			continue
		}
		if best == nil || num(s["created"]) > num(best["created"]) {
			best = s
		}
	}
	return best
}

// UpdateSubscription changes a subscription and sends
// customer.subscription.updated (deleted when fn cancels it).
func (f *Fake) UpdateSubscription(id string, fn func(Object)) error {
	f.mu.Lock()
	s, ok := f.st.Subs[id]
	if !ok {
		f.mu.Unlock()
		return errors.New("no such subscription")
	}
	fn(s)
	typ := "customer.subscription.updated"
	if s["status"] == "canceled" {
		typ = "customer.subscription.deleted"
		if s["ended_at"] == nil {
			s["ended_at"] = f.now()
			s["canceled_at"] = f.now()
		}
	}
	ev := f.emit(typ, f.expandSub(s))
	f.save()
	f.mu.Unlock()
	f.deliver([]*event{ev})
	return nil
}

// PayInvoice pays an open invoice: the subscription becomes active.
func (f *Fake) PayInvoice(id string) error {
	f.mu.Lock()
	inv, ok := f.st.Invoices[id]
	if !ok || inv["status"] != "open" {
		f.mu.Unlock()
		return errors.New("no open invoice")
	}
	inv["status"], inv["amount_paid"] = "paid", inv["amount_due"]
	inv["status_transitions"] = Object{"paid_at": f.now()}
	evs := []*event{f.emit("invoice.paid", inv)}
	if sd, _ := inv["parent"].(map[string]any); sd != nil {
		if d, _ := sd["subscription_details"].(map[string]any); d != nil {
			if sub, ok := f.st.Subs[fmt.Sprint(d["subscription"])]; ok && sub["status"] != "active" {
				sub["status"] = "active"
				evs = append(evs, f.emit("customer.subscription.updated", f.expandSub(sub)))
			}
		}
	}
	f.save()
	f.mu.Unlock()
	f.deliver(evs)
	return nil
}

// FailPayment makes the customer's renewal fail: a new open invoice with
// one failed attempt, the subscription past_due, and
// invoice.payment_failed sent. It returns the invoice id.
func (f *Fake) FailPayment(cus string) (string, error) {
	f.mu.Lock()
	sub := f.liveSub(cus)
	if sub == nil {
		f.mu.Unlock()
		return "", errors.New("the customer has no live subscription")
	}
	inv := f.newInvoice(sub, "open", 1)
	sub["status"] = "past_due"
	evs := []*event{f.emit("invoice.payment_failed", inv), f.emit("customer.subscription.updated", f.expandSub(sub))}
	f.save()
	f.mu.Unlock()
	f.deliver(evs)
	return fmt.Sprint(inv["id"]), nil
}

// CustomerByEmail finds a customer ("" when none).
func (f *Fake) CustomerByEmail(email string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var best Object
	for _, c := range f.st.Customers {
		if strings.EqualFold(fmt.Sprint(c["email"]), email) && (best == nil || num(c["created"]) > num(best["created"])) {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	return fmt.Sprint(best["id"])
}

// openInvoice is the customer's newest open invoice (mu held).
func (f *Fake) openInvoice(cus string) string {
	var best Object
	for _, inv := range f.st.Invoices {
		if inv["customer"] == cus && inv["status"] == "open" && (best == nil || num(inv["created"]) > num(best["created"])) {
			best = inv
		}
	}
	if best == nil {
		return ""
	}
	return fmt.Sprint(best["id"])
}

// control serves the test-only controls (see the package comment).
func (f *Fake) control(w http.ResponseWriter, r *http.Request, what string) {
	if what == "state" && r.Method == http.MethodGet {
		f.mu.Lock()
		defer f.mu.Unlock()
		writeJSON(w, 200, f.st)
		return
	}
	if r.Method != http.MethodPost {
		http.Error(w, "POST", http.StatusMethodNotAllowed)
		return
	}
	var body struct {
		Customer string `json:"customer"`
		Email    string `json:"email"`
		Enabled  *bool  `json:"enabled"`
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		_ = json.NewDecoder(r.Body).Decode(&body)
	} else {
		body.Customer, body.Email = r.Form.Get("customer"), r.Form.Get("email")
		if v := r.Form.Get("enabled"); v != "" {
			on := v == "true"
			body.Enabled = &on
		}
	}
	if body.Customer == "" && body.Email != "" {
		body.Customer = f.CustomerByEmail(body.Email)
	}
	switch what {
	case "webhooks":
		if body.Enabled == nil {
			http.Error(w, "enabled: true|false", http.StatusBadRequest)
			return
		}
		f.SetWebhooks(*body.Enabled)
		writeJSON(w, 200, Object{"webhooks": *body.Enabled})
	case "payment_failed":
		id, err := f.FailPayment(body.Customer)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		writeJSON(w, 200, Object{"invoice": id, "customer": body.Customer})
	case "invoice_paid":
		f.mu.Lock()
		id := f.openInvoice(body.Customer)
		f.mu.Unlock()
		if err := f.PayInvoice(id); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		writeJSON(w, 200, Object{"invoice": id})
	default:
		http.NotFound(w, r)
	}
}

// Seed gives a customer an active subscription to price that started
// months ago, with one paid invoice per period so far (the demo's premium
// member). No event is sent: the caller syncs. It returns the
// subscription id; a customer who already has a live one keeps it.
func (f *Fake) Seed(cus, price string, months int) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.st.Customers[cus]; !ok {
		return "", errors.New("no such customer")
	}
	if s := f.liveSub(cus); s != nil {
		return fmt.Sprint(s["id"]), nil
	}
	sub := f.newSub(cus, price, "active", "charge_automatically", Object{})
	now := f.opts.Now().UTC()
	start := now.AddDate(0, -months, 0)
	sub["created"], sub["start_date"] = start.Unix(), start.Unix()
	_, item := subPrice(sub)
	// One paid invoice per elapsed period, the last one opening the current period.
	yearly := false
	if rec, _ := f.st.Prices[price]["recurring"].(map[string]any); rec != nil && rec["interval"] == "year" {
		yearly = true
	}
	periodStart := start
	for {
		next := periodStart.AddDate(0, 1, 0)
		if yearly {
			next = periodStart.AddDate(1, 0, 0)
		}
		inv := f.newInvoice(sub, "paid", 1)
		inv["created"] = periodStart.Unix()
		inv["status_transitions"] = Object{"paid_at": periodStart.Unix()}
		if next.After(now) {
			if item != nil {
				item["current_period_start"], item["current_period_end"] = periodStart.Unix(), next.Unix()
			}
			break
		}
		periodStart = next
	}
	f.save()
	return fmt.Sprint(sub["id"]), nil
}

// AdoptCustomer records a customer under a known id when the fake does not
// have it (the app's database outlived the fake's state file).
func (f *Fake) AdoptCustomer(id, email, userID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.st.Customers[id]; ok {
		return
	}
	f.st.Customers[id] = Object{"id": id, "object": "customer", "created": f.now(), "email": email, "name": "",
		"metadata": Object{"user_id": userID}, "livemode": false, "deleted": false, "currency": "brl"}
	f.save()
}
