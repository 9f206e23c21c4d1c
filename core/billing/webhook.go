package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/vetclube/vetclube/core/postgres"
)

// WebhookTolerance is how old a signature's timestamp may be.
const WebhookTolerance = 300 * time.Second

// Event statuses in the inbox.
const (
	EventReceived = "received"
	EventApplied  = "applied"
	EventIgnored  = "ignored"
	EventFailed   = "failed"
)

// HandledEvents are the event types billing acts on (the endpoint should
// be created with these).
var HandledEvents = []string{
	"checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.async_payment_failed",
	"customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
	"customer.subscription.paused", "customer.subscription.resumed", "customer.subscription.trial_will_end",
	"invoice.paid", "invoice.payment_failed", "invoice.payment_action_required",
	"charge.refunded", "charge.dispute.created",
}

// ErrBadSignature is a webhook whose signature or timestamp is refused.
var ErrBadSignature = errors.New("bad webhook signature")

// VerifyWebhook checks the Stripe-Signature header on the raw body (the
// pinned API version, 300 s tolerance) and returns the event.
func (s *Service) VerifyWebhook(payload []byte, header string) (stripe.Event, error) {
	ev, err := webhook.ConstructEventWithOptions(payload, header, s.cfg.WebhookSecret, webhook.ConstructEventOptions{Tolerance: WebhookTolerance})
	if err != nil {
		return ev, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if ev.ID == "" || ev.Data == nil {
		return ev, fmt.Errorf("%w: event without id or data", ErrBadSignature)
	}
	return ev, nil
}

// Outcome is what handling an event did.
type Outcome struct {
	Status    string // applied, ignored (or the status a duplicate already had)
	Duplicate bool
}

// HandleEvent applies a verified event once: the inbox row keyed by its id
// and the change it causes commit together, so a duplicate or a replay
// changes nothing. source is webhook, reconciler or reprocess (which
// applies it again; the ordering rules keep that harmless).
func (s *Service) HandleEvent(ctx context.Context, ev *stripe.Event, source string) (Outcome, error) {
	var out Outcome
	var notify *State
	payload, err := json.Marshal(ev)
	if err != nil {
		return out, fmt.Errorf("encode event: %w", err)
	}
	created := time.Unix(ev.Created, 0).UTC()
	customerID := eventCustomer(ev)
	if customerID == "" && ev.Type == "charge.dispute.created" {
		// A dispute names the charge, not the customer.
		if ch := ev.GetObjectValue("charge"); ch != "" {
			if c, err := s.sc.V1Charges.Retrieve(ctx, ch, nil); err == nil && c.Customer != nil {
				customerID = c.Customer.ID
			}
		}
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		var inserted bool
		now := s.now()
		err := tx.QueryRow(ctx, `INSERT INTO billing_events (id, type, status, created, received_at, lag_ms, customer_id, source, payload)
			VALUES ($1, $2, 'received', $3, $4, $5, $6, $7, $8)
			ON CONFLICT (id) DO UPDATE SET attempts = billing_events.attempts + 1
			RETURNING status, (xmax = 0)`,
			ev.ID, string(ev.Type), created, now, max(now.Sub(created).Milliseconds(), 0), nilIfEmpty(customerID), source, payload).Scan(&status, &inserted)
		if err != nil {
			return fmt.Errorf("inbox: %w", err)
		}
		if !inserted && source != "reprocess" && (status == EventApplied || status == EventIgnored) {
			out = Outcome{Status: status, Duplicate: true}
			return nil
		}
		st, applied, userID, err := s.apply(ctx, tx, ev, customerID)
		if err != nil {
			return err
		}
		out.Status = EventIgnored
		if applied {
			out.Status = EventApplied
		}
		changed := false
		if st != nil {
			if changed, err = s.applyEntitlement(ctx, tx, *st, false); err != nil {
				return err
			}
			notify = st
		}
		_, err = tx.Exec(ctx, `UPDATE billing_events SET status = $2, applied_at = $3, user_id = $4, error = '',
			entitlement_changed = $5 WHERE id = $1`, ev.ID, out.Status, s.now(), nilIfEmpty(userID), changed)
		return err
	})
	if err != nil {
		s.recordFailure(ctx, ev, payload, customerID, source, err)
		return out, err
	}
	if notify != nil {
		s.notify(ctx, *notify)
	}
	return out, nil
}

// recordFailure keeps a failed event in the inbox (status failed, its
// error) for the backoffice and the retry; Stripe redelivers it too.
func (s *Service) recordFailure(ctx context.Context, ev *stripe.Event, payload []byte, customerID, source string, cause error) {
	created := time.Unix(ev.Created, 0).UTC()
	_, err := s.pool.Exec(ctx, `INSERT INTO billing_events (id, type, status, created, customer_id, source, payload, error)
		VALUES ($1, $2, 'failed', $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO UPDATE SET status = 'failed', attempts = billing_events.attempts + 1, error = EXCLUDED.error
		WHERE billing_events.status NOT IN ('applied', 'ignored')`,
		ev.ID, string(ev.Type), created, nilIfEmpty(customerID), source, payload, truncate(cause.Error(), 500))
	if err != nil {
		s.log.ErrorContext(ctx, "record failed billing event", "event", ev.ID, "err", err)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// eventCustomer is the customer an event concerns.
func eventCustomer(ev *stripe.Event) string {
	var obj struct {
		Object   string          `json:"object"`
		Customer json.RawMessage `json:"customer"`
	}
	if ev.Data == nil || json.Unmarshal(ev.Data.Raw, &obj) != nil {
		return ""
	}
	var id string
	if json.Unmarshal(obj.Customer, &id) == nil {
		return id
	}
	var c struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(obj.Customer, &c) == nil {
		return c.ID
	}
	return ""
}

// apply makes the event's change inside tx; it returns the state to hand
// entitlement (nil when the subscription row did not change), whether
// anything was applied and the member.
func (s *Service) apply(ctx context.Context, tx pgx.Tx, ev *stripe.Event, customerID string) (*State, bool, string, error) {
	userID, err := s.userOfCustomer(ctx, tx, customerID)
	if err != nil || userID == "" {
		return nil, false, "", err
	}
	if err := lockMember(ctx, tx, userID); err != nil {
		return nil, false, userID, err
	}
	at := time.Unix(ev.Created, 0).UTC()
	switch ev.Type {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.async_payment_failed":
		// The session names the subscription but not its state: read it.
		st, _, err := s.syncTx(ctx, tx, userID, customerID)
		if err != nil {
			return nil, false, userID, err
		}
		return &st, true, userID, nil
	case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
		"customer.subscription.paused", "customer.subscription.resumed", "customer.subscription.trial_will_end":
		var sub stripe.Subscription
		if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
			return nil, false, userID, fmt.Errorf("decode subscription: %w", err)
		}
		return s.changeRow(ctx, tx, userID, customerID, at, func(x *row) bool { return s.snapshot(x, &sub, at, ev.ID) })
	case "invoice.paid", "invoice.payment_failed", "invoice.payment_action_required":
		var inv stripe.Invoice
		if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
			return nil, false, userID, fmt.Errorf("decode invoice: %w", err)
		}
		if err := s.recordInvoice(ctx, tx, userID, ev, &inv); err != nil {
			return nil, false, userID, err
		}
		failed := ev.Type != "invoice.paid"
		return s.changeRow(ctx, tx, userID, customerID, at, func(x *row) bool { return invoiceOutcome(x, failed, at, ev.ID) })
	case "charge.refunded":
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return nil, false, userID, fmt.Errorf("decode charge: %w", err)
		}
		err := s.recordPayment(ctx, tx, payment{ID: "refund:" + ch.ID, UserID: userID, Kind: "refund", Status: "refunded",
			Amount: ch.AmountRefunded, At: at, Description: "Reembolso", EventID: ev.ID})
		return nil, err == nil, userID, err
	case "charge.dispute.created":
		var d stripe.Dispute
		if err := json.Unmarshal(ev.Data.Raw, &d); err != nil {
			return nil, false, userID, fmt.Errorf("decode dispute: %w", err)
		}
		err := s.recordPayment(ctx, tx, payment{ID: "dispute:" + d.ID, UserID: userID, Kind: "dispute", Status: string(d.Status),
			Amount: d.Amount, At: at, Description: "Contestação do pagamento", EventID: ev.ID})
		return nil, err == nil, userID, err
	}
	return nil, false, userID, nil
}

// changeRow reads the member's row, applies fn and writes it when fn
// changed it.
func (s *Service) changeRow(ctx context.Context, tx pgx.Tx, userID, customerID string, at time.Time, fn func(*row) bool) (*State, bool, string, error) {
	x, err := getRow(ctx, tx, userID)
	if err != nil {
		return nil, false, userID, err
	}
	if x == nil {
		x = &row{UserID: userID, CustomerID: customerID}
	}
	if !fn(x) {
		return nil, false, userID, nil
	}
	x.LastEventAt = maxTime(x.LastEventAt, at)
	if err := putRow(ctx, tx, x); err != nil {
		return nil, false, userID, err
	}
	st := x.state()
	return &st, true, userID, nil
}

// payment is one billing_payments row.
type payment struct {
	ID, UserID, Kind, Status string
	Amount                   int64
	At                       time.Time
	Description, HostedURL   string
	EventID                  string
}

// recordPayment writes a payments history row once per id; a later state
// of the same invoice updates it.
func (s *Service) recordPayment(ctx context.Context, tx pgx.Tx, p payment) error {
	_, err := tx.Exec(ctx, `INSERT INTO billing_payments (id, user_id, kind, status, amount_cents, at, description, hosted_url, event_id)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
		ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, amount_cents = EXCLUDED.amount_cents, event_id = EXCLUDED.event_id,
			hosted_url = CASE WHEN EXCLUDED.hosted_url <> '' THEN EXCLUDED.hosted_url ELSE billing_payments.hosted_url END
		WHERE billing_payments.at <= EXCLUDED.at`,
		p.ID, p.UserID, p.Kind, p.Status, p.Amount, p.At, p.Description, p.HostedURL, nilIfEmpty(p.EventID))
	if err != nil {
		return fmt.Errorf("record payment: %w", err)
	}
	return nil
}

// recordInvoice writes the invoice and, for a failure, the attempt.
func (s *Service) recordInvoice(ctx context.Context, tx pgx.Tx, userID string, ev *stripe.Event, inv *stripe.Invoice) error {
	at := time.Unix(ev.Created, 0).UTC()
	desc := "Fatura"
	if inv.Number != "" {
		desc = "Fatura " + inv.Number
	}
	status := string(inv.Status)
	if err := s.recordPayment(ctx, tx, payment{ID: "invoice:" + inv.ID, UserID: userID, Kind: "invoice", Status: status,
		Amount: max(inv.AmountDue, inv.Total), At: at, Description: desc, HostedURL: inv.HostedInvoiceURL, EventID: ev.ID}); err != nil {
		return err
	}
	if ev.Type == "invoice.paid" {
		return nil
	}
	st := "failed"
	if ev.Type == "invoice.payment_action_required" {
		st = "action_required"
	}
	return s.recordPayment(ctx, tx, payment{ID: "attempt:" + ev.ID, UserID: userID, Kind: "attempt", Status: st,
		Amount: inv.AmountDue, At: at, Description: "Tentativa de cobrança recusada", HostedURL: inv.HostedInvoiceURL, EventID: ev.ID})
}
