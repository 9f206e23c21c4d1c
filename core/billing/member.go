package billing

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

func errNotFound(msg string) error { return core.Errorf(core.ENOTFOUND, "%s", msg) }

// Plan is one plan of GET /api/billing/plans.
type Plan struct {
	Cycle      string `json:"cycle"`
	PriceCents int64  `json:"price_cents"`
	Interval   string `json:"interval"`
	PriceID    string `json:"price_id"`
}

// Plans is GET /api/billing/plans.
type Plans struct {
	Currency            string `json:"currency"`
	Plans               []Plan `json:"plans"`
	YearlySavingPercent int    `json:"yearly_saving_percent"`
	Boleto              bool   `json:"boleto"`
	Pix                 bool   `json:"pix"`
}

// Plans reads the two plans' prices from Stripe (kept 10 minutes).
func (s *Service) Plans(ctx context.Context) (Plans, error) {
	out := Plans{Currency: "BRL", Plans: []Plan{}, Boleto: s.cfg.BoletoEnabled, Pix: s.cfg.PixEnabled}
	var monthly, yearly int64
	for _, c := range []struct{ cycle, id string }{{"monthly", s.cfg.PriceMonthly}, {"yearly", s.cfg.PriceYearly}} {
		if c.id == "" {
			continue
		}
		p, err := s.price(ctx, c.id)
		if err != nil {
			return out, err
		}
		if p.Currency != "" {
			out.Currency = p.Currency
		}
		interval := p.Interval
		if interval == "" {
			interval = map[string]string{"monthly": "month", "yearly": "year"}[c.cycle]
		}
		out.Plans = append(out.Plans, Plan{Cycle: c.cycle, PriceCents: p.Amount, Interval: interval, PriceID: p.ID})
		if c.cycle == "monthly" {
			monthly = p.Amount
		} else {
			yearly = p.Amount
		}
	}
	if monthly > 0 && yearly > 0 && yearly < 12*monthly {
		out.YearlySavingPercent = int((12*monthly - yearly) * 100 / (12 * monthly))
	}
	return out, nil
}

// viewMap is the member's subscription view as a JSON object.
func (s *Service) viewMap(ctx context.Context, userID string) (map[string]any, error) {
	out := map[string]any{}
	if s.view == nil {
		return out, nil
	}
	v, err := s.view.View(ctx, userID)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("subscription view is not an object: %w", err)
	}
	return out, nil
}

// CheckInterval is how often check-subscription asks Stripe per member.
const CheckInterval = 5 * time.Minute

// Check is check-subscription: it syncs the member with Stripe at most once
// per CheckInterval, then answers the subscription view.
func (s *Service) Check(ctx context.Context, userID string) (map[string]any, error) {
	var customerID string
	err := s.pool.QueryRow(ctx, `UPDATE billing_customers SET last_check_at = $2
		WHERE user_id = $1 AND (last_check_at IS NULL OR last_check_at <= $3) RETURNING customer_id`,
		userID, s.now(), s.now().Add(-CheckInterval)).Scan(&customerID)
	if err != nil && !postgres.IsNoRows(err) {
		return nil, fmt.Errorf("check subscription: %w", err)
	}
	if customerID != "" {
		if _, err := s.Sync(ctx, customerID); err != nil {
			return nil, stripeDown(err)
		}
	}
	return s.viewMap(ctx, userID)
}

// SyncSession is sync-subscription (what /subscription-success calls): it
// syncs the member now and, with a session id of the member's, adds the
// checkout's state.
func (s *Service) SyncSession(ctx context.Context, userID, sessionID string) (map[string]any, error) {
	customerID, _, err := customerOf(ctx, s.pool, userID)
	if err != nil {
		return nil, err
	}
	var cs *stripe.CheckoutSession
	if sessionID != "" {
		if len(sessionID) > 255 {
			return nil, core.Invalid("Sessão de pagamento inválida.", map[string]string{"session_id": "Sessão desconhecida."})
		}
		if customerID == "" {
			return nil, errNotFound("Sessão de pagamento não encontrada.")
		}
		cs, err = s.sc.V1CheckoutSessions.Retrieve(ctx, sessionID, nil)
		if err != nil {
			if se, ok := err.(*stripe.Error); ok && se.HTTPStatusCode == 404 {
				return nil, errNotFound("Sessão de pagamento não encontrada.")
			}
			return nil, stripeDown(err)
		}
		if cs.Customer == nil || cs.Customer.ID != customerID {
			return nil, errNotFound("Sessão de pagamento não encontrada.")
		}
	}
	if customerID != "" {
		if _, err := s.Sync(ctx, customerID); err != nil {
			return nil, stripeDown(err)
		}
	}
	out, err := s.viewMap(ctx, userID)
	if err != nil {
		return nil, err
	}
	if cs != nil {
		out["checkout_status"] = string(cs.Status)
		out["payment_status"] = string(cs.PaymentStatus)
	}
	return out, nil
}

// Invoice is one invoice of the subscription page.
type Invoice struct {
	ID          string    `json:"id"`
	Number      string    `json:"number"`
	Status      string    `json:"status"`
	AmountCents int64     `json:"amount_cents"`
	Created     time.Time `json:"created"`
	PDFURL      string    `json:"pdf_url"`
	HostedURL   string    `json:"hosted_url"`
}

// Charge is the next charge.
type Charge struct {
	AmountCents int64     `json:"amount_cents"`
	At          time.Time `json:"at"`
}

// Subscription is GET /api/billing/subscription.
type Subscription struct {
	View          map[string]any    `json:"view"`
	Plan          *string           `json:"plan"`
	StatusText    string            `json:"status_text,omitempty"`
	NextCharge    *Charge           `json:"next_charge"`
	PaymentMethod map[string]string `json:"payment_method"`
	Invoices      []Invoice         `json:"invoices"`
}

var brt = time.FixedZone("BRT", -3*3600)

func dateBR(t time.Time) string { return t.In(brt).Format("02/01/2006") }

// statusText is the state in words (pt-BR).
func statusText(x *row, grace time.Duration) string {
	if x == nil {
		return ""
	}
	end := ""
	if x.CurrentPeriodEnd != nil {
		end = dateBR(*x.CurrentPeriodEnd)
	}
	switch {
	case x.Status == "trialing":
		return "em teste até " + end
	case x.Status == "active" && x.CancelAtPeriodEnd:
		return "cancelada — acesso até " + end
	case x.PaymentFailedAt != nil || x.Status == "past_due" || x.Status == "unpaid":
		until := end
		if x.PaymentFailedAt != nil {
			until = dateBR(x.PaymentFailedAt.Add(grace))
		}
		return "pagamento pendente — acesso até " + until
	case x.Status == "active":
		return "ativa"
	case x.Status == "incomplete":
		return "aguardando pagamento"
	case x.Status == "paused":
		return "pausada"
	case x.Status == "canceled", x.Status == "incomplete_expired":
		return "cancelada"
	}
	return ""
}

func planOf(tier *string) *string {
	if tier == nil {
		return nil
	}
	p := map[string]string{TierMonthly: "monthly", TierYearly: "yearly"}[*tier]
	if p == "" {
		return nil
	}
	return &p
}

// Subscription is the member's subscription page: the view, the plan, the
// state in words, the next charge, the payment method and the invoices.
func (s *Service) Subscription(ctx context.Context, userID string) (Subscription, error) {
	out := Subscription{Invoices: []Invoice{}}
	var err error
	if out.View, err = s.viewMap(ctx, userID); err != nil {
		return out, err
	}
	x, err := getRow(ctx, s.pool, userID)
	if err != nil {
		return out, err
	}
	if x == nil {
		return out, nil
	}
	out.Plan = planOf(x.Tier)
	out.StatusText = statusText(x, s.cfg.Grace)
	if x.CollectionMethod != nil && *x.CollectionMethod == "send_invoice" {
		out.PaymentMethod = map[string]string{"type": "boleto"}
	}
	if x.SubscriptionID != nil && isLive(x.Status) {
		rp := &stripe.SubscriptionRetrieveParams{}
		rp.AddExpand("default_payment_method")
		sub, err := s.sc.V1Subscriptions.Retrieve(ctx, *x.SubscriptionID, rp)
		if err == nil && sub.DefaultPaymentMethod != nil && sub.DefaultPaymentMethod.Card != nil {
			out.PaymentMethod = map[string]string{"brand": string(sub.DefaultPaymentMethod.Card.Brand), "last4": sub.DefaultPaymentMethod.Card.Last4}
		}
		if !x.CancelAtPeriodEnd && x.CurrentPeriodEnd != nil && x.PriceID != nil && (x.Status == "active" || x.Status == "trialing" || x.Status == "past_due") {
			if p, err := s.price(ctx, *x.PriceID); err == nil {
				out.NextCharge = &Charge{AmountCents: p.Amount, At: *x.CurrentPeriodEnd}
			}
		}
	}
	params := &stripe.InvoiceListParams{Customer: stripe.String(x.CustomerID)}
	params.Limit = stripe.Int64(12)
	params.Single = true
	for inv, err := range s.sc.V1Invoices.List(ctx, params) {
		if err != nil {
			s.log.WarnContext(ctx, "list invoices", "customer", x.CustomerID, "err", err)
			break
		}
		if inv.Status == stripe.InvoiceStatusDraft {
			continue
		}
		out.Invoices = append(out.Invoices, Invoice{ID: inv.ID, Number: inv.Number, Status: string(inv.Status),
			AmountCents: max(inv.AmountDue, inv.Total), Created: time.Unix(inv.Created, 0).UTC(), PDFURL: inv.InvoicePDF, HostedURL: inv.HostedInvoiceURL})
	}
	return out, nil
}

// Payment is one entry of GET /api/billing/payments.
type Payment struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	Status      string    `json:"status"`
	AmountCents int64     `json:"amount_cents"`
	At          time.Time `json:"at"`
	Description string    `json:"description"`
	HostedURL   string    `json:"hosted_url,omitempty"`
}

// Payments is the member's payments history, newest first.
func (s *Service) Payments(ctx context.Context, userID string) ([]Payment, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, kind, status, amount_cents, at, description, hosted_url FROM billing_payments
		WHERE user_id = $1 ORDER BY at DESC, id LIMIT 100`, userID)
	if err != nil {
		return nil, fmt.Errorf("payments: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Payment, error) {
		var p Payment
		err := r.Scan(&p.ID, &p.Kind, &p.Status, &p.AmountCents, &p.At, &p.Description, &p.HostedURL)
		return p, err
	})
}
