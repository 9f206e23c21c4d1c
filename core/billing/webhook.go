package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
	// member is the event's member, for the payment hooks (referrals.go).
	member string
}

// HandleEvent applies a verified event once: the inbox row keyed by its id
// and the change it causes commit together, so a duplicate or a replay
// changes nothing. source is webhook, reconciler or reprocess (which
// applies it again; the ordering rules keep that harmless).
func (s *Service) HandleEvent(ctx context.Context, ev *stripe.Event, source string) (Outcome, error) {
	return s.handle(ctx, ev, nil, source)
}

// handle is HandleEvent with the event's raw body when there is one (the
// webhook's, stored as received).
func (s *Service) handle(ctx context.Context, ev *stripe.Event, payload []byte, source string) (Outcome, error) {
	if payload == nil {
		var err error
		if payload, err = json.Marshal(ev); err != nil {
			return Outcome{}, fmt.Errorf("encode event: %w", err)
		}
	}
	payload = redactDeletedCustomer(ev, payload)
	customerID := eventCustomer(ev)
	if customerID == "" && ev.Type == "charge.dispute.created" {
		// A dispute names the charge, not the customer.
		if ch := ev.GetObjectValue("charge"); ch != "" {
			if c, err := s.sc.V1Charges.Retrieve(ctx, ch, nil); err == nil && c.Customer != nil {
				customerID = c.Customer.ID
			}
		}
	}
	out, notify, unknown, err := s.handleTx(ctx, ev, payload, customerID, source, false)
	if err == nil && unknown {
		// A customer this database does not know yet: Stripe says whose
		// it is (metadata.user_id), then the event is applied.
		if _, err = s.userOfCustomer(ctx, s.pool, customerID); err == nil {
			out, notify, _, err = s.handleTx(ctx, ev, payload, customerID, source, true)
		}
	}
	if err != nil {
		s.recordFailure(ctx, ev, payload, customerID, source, err)
		return out, err
	}
	if notify != nil {
		s.notify(ctx, *notify)
	}
	if !out.Duplicate {
		s.runPaymentHooks(ctx, ev, out.member)
	}
	return out, nil
}

// handleTx is one transaction of handle: the member's lock, the inbox and
// the row read in one round trip, the change, then the row and the inbox
// written in one more, and entitlement. unknown reports a customer not in
// billing_customers (nothing was written) unless allowUnknown.
func (s *Service) handleTx(ctx context.Context, ev *stripe.Event, payload []byte, customerID, source string, allowUnknown bool) (out Outcome, notify *State, unknown bool, err error) {
	created := time.Unix(ev.Created, 0).UTC()
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var userID string
		var prev *string
		var x *row
		b := &pgx.Batch{}
		if customerID != "" {
			b.Queue(`SELECT user_id::text, pg_advisory_xact_lock(hashtextextended('billing:' || user_id::text, 0))::text
				FROM billing_customers WHERE customer_id = $1`, customerID).QueryRow(func(r pgx.Row) error {
				var ignore string
				if err := r.Scan(&userID, &ignore); err != nil && !postgres.IsNoRows(err) {
					return err
				}
				return nil
			})
		}
		// Read after the lock (its own statement, its own snapshot).
		b.Queue(`SELECT e.status, `+nullableRowColumns+` FROM (VALUES (1)) v
			LEFT JOIN billing_events e ON e.id = $1
			LEFT JOIN billing_customers c ON c.customer_id = $2
			LEFT JOIN billing_subscriptions b ON b.user_id = c.user_id`, ev.ID, customerID).QueryRow(func(r pgx.Row) error {
			var err error
			prev, x, err = scanNullableRow(r)
			return err
		})
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("inbox: %w", err)
		}
		if userID == "" && customerID != "" && !allowUnknown {
			unknown = true
			return nil
		}
		if prev != nil && source != "reprocess" && (*prev == EventApplied || *prev == EventIgnored) {
			out = Outcome{Status: *prev, Duplicate: true}
			_, err := tx.Exec(ctx, `UPDATE billing_events SET attempts = attempts + 1 WHERE id = $1`, ev.ID)
			return err
		}
		// The payments history rows, the member's row and the inbox row go
		// to the database in one round trip.
		wb := &pgx.Batch{}
		var write *row
		var applied, synced bool
		if userID != "" {
			var err error
			if notify, write, applied, synced, err = s.apply(ctx, tx, batchExec{wb}, ev, userID, customerID, x); err != nil {
				return err
			}
		}
		out.Status, out.member = EventIgnored, userID
		if applied {
			out.Status = EventApplied
		}
		now := s.now()
		if write != nil {
			queuePutRow(wb, write)
		}
		wb.Queue(`INSERT INTO billing_events (id, type, status, created, received_at, applied_at, lag_ms, customer_id, user_id, source, payload)
			VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, attempts = billing_events.attempts + 1, applied_at = EXCLUDED.applied_at,
				user_id = EXCLUDED.user_id, source = EXCLUDED.source, error = ''`,
			ev.ID, string(ev.Type), out.Status, created, now, max(now.Sub(created).Milliseconds(), 0), nilIfEmpty(customerID),
			nilIfEmpty(userID), source, payload)
		if err := tx.SendBatch(ctx, wb).Close(); err != nil {
			return fmt.Errorf("write event: %w", err)
		}
		if notify == nil {
			return nil
		}
		if synced {
			return nil
		}
		changed, err := s.applyEntitlement(ctx, tx, *notify, false)
		if err != nil || !changed || s.hist != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE billing_events SET entitlement_changed = true WHERE id = $1`, ev.ID)
		return err
	})
	if unknown || err != nil {
		notify = nil
	}
	return out, notify, unknown, err
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

// apply makes the event's change on x (the member's row as read under the
// lock, nil when there is none): it returns the state to hand
// entitlement, the row to write (nil when nothing changed), whether
// anything was applied, and synced when a Sync already wrote the row and
// applied the state (it is then only notified). Payments history rows are
// written here.
func (s *Service) apply(ctx context.Context, tx pgx.Tx, w execer, ev *stripe.Event, userID, customerID string, x *row) (*State, *row, bool, bool, error) {
	at := time.Unix(ev.Created, 0).UTC()
	if x == nil {
		x = &row{UserID: userID, CustomerID: customerID}
	}
	change := func(fn func(*row) bool) (*State, *row, bool, bool, error) {
		before := *x
		if !fn(x) {
			return nil, nil, false, false, nil
		}
		x.LastEventAt = maxTime(x.LastEventAt, at)
		if sameState(before, *x) {
			// Newer but saying the same (a renewal's invoice.paid, a
			// metadata change): the row moves on, entitlement has nothing
			// to learn.
			return nil, x, true, false, nil
		}
		st := x.state()
		return &st, x, true, false, nil
	}
	switch ev.Type {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.async_payment_failed":
		// The session names the subscription but not its state: read it.
		st, _, err := s.syncTx(ctx, tx, userID, customerID)
		if err != nil {
			return nil, nil, false, false, err
		}
		// syncTx wrote the row and handed entitlement its state already:
		// no row to write, but the state to notify after the commit.
		return &st, nil, true, true, nil
	case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
		"customer.subscription.paused", "customer.subscription.resumed", "customer.subscription.trial_will_end":
		var sub stripe.Subscription
		if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
			return nil, nil, false, false, fmt.Errorf("decode subscription: %w", err)
		}
		return change(func(x *row) bool { return s.snapshot(x, &sub, at, ev.ID) })
	case "invoice.paid", "invoice.payment_failed", "invoice.payment_action_required":
		var inv stripe.Invoice
		if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
			return nil, nil, false, false, fmt.Errorf("decode invoice: %w", err)
		}
		if err := s.recordInvoice(ctx, w, userID, ev, &inv); err != nil {
			return nil, nil, false, false, err
		}
		failed := ev.Type != "invoice.paid"
		return change(func(x *row) bool { return invoiceOutcome(x, failed, at, ev.ID) })
	case "charge.refunded":
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return nil, nil, false, false, fmt.Errorf("decode charge: %w", err)
		}
		err := s.recordPayment(ctx, w, payment{ID: "refund:" + ch.ID, UserID: userID, Kind: "refund", Status: "refunded",
			Amount: ch.AmountRefunded, At: at, Description: "Reembolso", EventID: ev.ID})
		return nil, nil, err == nil, false, err
	case "charge.dispute.created":
		var d stripe.Dispute
		if err := json.Unmarshal(ev.Data.Raw, &d); err != nil {
			return nil, nil, false, false, fmt.Errorf("decode dispute: %w", err)
		}
		err := s.recordPayment(ctx, w, payment{ID: "dispute:" + d.ID, UserID: userID, Kind: "dispute", Status: string(d.Status),
			Amount: d.Amount, At: at, Description: "Contestação do pagamento", EventID: ev.ID})
		return nil, nil, err == nil, false, err
	}
	return nil, nil, false, false, nil
}

// execer runs a write now (a transaction) or queues it (batchExec).
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// batchExec queues writes on a batch; their errors come with SendBatch.
type batchExec struct{ b *pgx.Batch }

func (e batchExec) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	e.b.Queue(sql, args...)
	return pgconn.CommandTag{}, nil
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
// of the same invoice (by event time, then event id) updates it, an older
// one never does, whatever the arrival order.
func (s *Service) recordPayment(ctx context.Context, tx execer, p payment) error {
	_, err := tx.Exec(ctx, `INSERT INTO billing_payments (id, user_id, kind, status, amount_cents, at, description, hosted_url, event_id)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
		ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, amount_cents = EXCLUDED.amount_cents, event_id = EXCLUDED.event_id,
			at = EXCLUDED.at, hosted_url = CASE WHEN EXCLUDED.hosted_url <> '' THEN EXCLUDED.hosted_url ELSE billing_payments.hosted_url END
		WHERE (billing_payments.at, coalesce(billing_payments.event_id, '')) < (EXCLUDED.at, coalesce(EXCLUDED.event_id, ''))`,
		p.ID, p.UserID, p.Kind, p.Status, p.Amount, p.At, p.Description, p.HostedURL, nilIfEmpty(p.EventID))
	if err != nil {
		return fmt.Errorf("record payment: %w", err)
	}
	return nil
}

// recordInvoice writes the invoice and, for a failure, the attempt.
func (s *Service) recordInvoice(ctx context.Context, tx execer, userID string, ev *stripe.Event, inv *stripe.Invoice) error {
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
