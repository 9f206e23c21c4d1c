package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core/postgres"
)

// ReconcileReport is what a reconciler run did.
type ReconcileReport struct {
	Synced   int `json:"synced"`
	Replayed int `json:"replayed"`
	Failed   int `json:"failed"`
}

// Reconcile syncs every member who has a Stripe customer and replays the
// events Stripe failed to deliver (delivery_success=false, the 30 days
// Stripe keeps) and those the inbox holds as failed.
func (s *Service) Reconcile(ctx context.Context) (ReconcileReport, error) {
	var rep ReconcileReport
	rows, err := s.pool.Query(ctx, `SELECT customer_id FROM billing_customers ORDER BY created_at`)
	if err != nil {
		return rep, fmt.Errorf("list customers: %w", err)
	}
	customers, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return rep, fmt.Errorf("list customers: %w", err)
	}
	var errs []error
	for _, c := range customers {
		if _, err := s.Sync(ctx, c); err != nil {
			rep.Failed++
			errs = append(errs, fmt.Errorf("sync %s: %w", c, err))
			continue
		}
		if _, err := s.BackfillInvoices(ctx, c); err != nil {
			errs = append(errs, err)
		}
		rep.Synced++
	}
	params := &stripe.EventListParams{DeliverySuccess: stripe.Bool(false), Types: stripe.StringSlice(HandledEvents)}
	params.Limit = stripe.Int64(100)
	params.CreatedRange = &stripe.RangeQueryParams{GreaterThanOrEqual: s.now().Add(-30 * 24 * time.Hour).Unix()}
	// Stripe lists newest first; they are applied oldest first.
	var undelivered []*stripe.Event
	for ev, err := range s.sc.V1Events.List(ctx, params) {
		if err != nil {
			errs = append(errs, fmt.Errorf("list undelivered events: %w", err))
			break
		}
		undelivered = append(undelivered, ev)
	}
	for i := len(undelivered) - 1; i >= 0; i-- {
		ev := undelivered[i]
		out, err := s.HandleEvent(ctx, ev, "reconciler")
		if err != nil {
			rep.Failed++
			errs = append(errs, fmt.Errorf("replay %s: %w", ev.ID, err))
			continue
		}
		if !out.Duplicate {
			rep.Replayed++
		}
	}
	// Events the inbox holds as failed are applied again from their payload.
	ids, err := s.failedEvents(ctx)
	if err != nil {
		errs = append(errs, err)
	}
	for _, id := range ids {
		if _, err := s.Reprocess(ctx, id); err != nil {
			rep.Failed++
			errs = append(errs, fmt.Errorf("retry %s: %w", id, err))
			continue
		}
		rep.Replayed++
	}
	return rep, errors.Join(errs...)
}

func (s *Service) failedEvents(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM billing_events WHERE status IN ('failed', 'received') AND received_at < $1 ORDER BY created`,
		s.now().Add(-time.Minute))
	if err != nil {
		return nil, fmt.Errorf("list failed events: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// Reprocess applies a stored event again (the backoffice's 'Reprocessar').
func (s *Service) Reprocess(ctx context.Context, id string) (Outcome, error) {
	var payload []byte
	if err := s.pool.QueryRow(ctx, `SELECT payload FROM billing_events WHERE id = $1`, id).Scan(&payload); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return Outcome{}, errNotFound("Evento não encontrado.")
		}
		return Outcome{}, fmt.Errorf("read event: %w", err)
	}
	var ev stripe.Event
	if err := json.Unmarshal(payload, &ev); err != nil {
		return Outcome{}, fmt.Errorf("decode stored event: %w", err)
	}
	return s.HandleEvent(ctx, &ev, "reprocess")
}

// NextReconcile is when the nightly run after t happens: 06:00 UTC (03:00
// in Brasília).
func NextReconcile(t time.Time) time.Time {
	t = t.UTC()
	next := time.Date(t.Year(), t.Month(), t.Day(), 6, 0, 0, 0, time.UTC)
	if !next.After(t) {
		next = next.Add(24 * time.Hour)
	}
	return next
}

// StartReconciler runs Reconcile every night (NextReconcile) until the
// returned stop is called. One instance runs it at a time: a session-level
// advisory lock held for the run.
func (s *Service) StartReconciler(next func(time.Time) time.Time) (stop func() error) {
	if next == nil {
		next = NextReconcile
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			wait := time.Until(next(s.now()))
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			s.reconcileOnce(ctx)
		}
	}()
	return func() error { cancel(); <-done; return nil }
}

func (s *Service) reconcileOnce(ctx context.Context) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "billing reconciler", "err", err)
		return
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended('billing:reconciler', 0))`).Scan(&got); err != nil || !got {
		return
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock(hashtextextended('billing:reconciler', 0))`)
	rep, err := s.Reconcile(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "billing reconciler", "synced", rep.Synced, "replayed", rep.Replayed, "failed", rep.Failed, "err", err)
		return
	}
	s.log.InfoContext(ctx, "billing reconciler", "synced", rep.Synced, "replayed", rep.Replayed)
}

// BackfillInvoices writes the customer's invoices Stripe has into the
// payments history (the reconciler restores a lost history with it; the
// demo seed fills it). Rows already newer stay as they are.
func (s *Service) BackfillInvoices(ctx context.Context, customerID string) (int, error) {
	userID, err := s.userOfCustomer(ctx, s.pool, customerID)
	if err != nil || userID == "" {
		return 0, err
	}
	params := &stripe.InvoiceListParams{Customer: stripe.String(customerID)}
	params.Limit = stripe.Int64(100)
	n := 0
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		for inv, err := range s.sc.V1Invoices.List(ctx, params) {
			if err != nil {
				return fmt.Errorf("list invoices of %s: %w", customerID, err)
			}
			if inv.Status == stripe.InvoiceStatusDraft {
				continue
			}
			desc := "Fatura"
			if inv.Number != "" {
				desc = "Fatura " + inv.Number
			}
			at := time.Unix(inv.Created, 0).UTC()
			if inv.StatusTransitions != nil && inv.StatusTransitions.PaidAt > 0 {
				at = time.Unix(inv.StatusTransitions.PaidAt, 0).UTC()
			}
			if err := s.recordPayment(ctx, tx, payment{ID: "invoice:" + inv.ID, UserID: userID, Kind: "invoice", Status: string(inv.Status),
				Amount: max(inv.AmountDue, inv.Total), At: at, Description: desc, HostedURL: inv.HostedInvoiceURL}); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
