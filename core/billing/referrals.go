package billing

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stripe/stripe-go/v82"
)

// PaymentHooks hears about a member's payments once their webhook event
// committed (core/referrals implements it; core/app plugs it in): the
// paid invoices of a paid plan (a trial's zero invoice is not one), and
// refunds and disputes. A hook's failure is logged and never fails the
// event; the hooks must be idempotent (a reprocessed event calls again).
type PaymentHooks interface {
	InvoicePaid(ctx context.Context, userID, invoiceID string, paidAt time.Time) error
	// PaymentReversed: kind is "refund" or "dispute".
	PaymentReversed(ctx context.Context, userID, kind string, at time.Time) error
}

// SetPaymentHooks plugs the hooks in; call it while wiring.
func (s *Service) SetPaymentHooks(h PaymentHooks) { s.hooks = h }

// runPaymentHooks tells the hooks about ev, after its commit.
func (s *Service) runPaymentHooks(ctx context.Context, ev *stripe.Event, userID string) {
	if s.hooks == nil || userID == "" || ev.Data == nil {
		return
	}
	at := time.Unix(ev.Created, 0).UTC()
	var err error
	switch ev.Type {
	case "invoice.paid":
		var inv stripe.Invoice
		if json.Unmarshal(ev.Data.Raw, &inv) != nil || inv.AmountPaid <= 0 {
			return
		}
		if inv.StatusTransitions != nil && inv.StatusTransitions.PaidAt > 0 {
			at = time.Unix(inv.StatusTransitions.PaidAt, 0).UTC()
		}
		err = s.hooks.InvoicePaid(ctx, userID, inv.ID, at)
	case "charge.refunded":
		err = s.hooks.PaymentReversed(ctx, userID, "refund", at)
	case "charge.dispute.created":
		err = s.hooks.PaymentReversed(ctx, userID, "dispute", at)
	default:
		return
	}
	if err != nil {
		s.log.ErrorContext(ctx, "billing payment hook", "event", ev.ID, "type", ev.Type, "err", err)
	}
}

// CreditFreeMonths puts months × the monthly price on the member's Stripe
// customer balance (a credit the next invoices use; negative months take
// it back), once per idempotencyKey (Stripe's idempotency key).
func (s *Service) CreditFreeMonths(ctx context.Context, userID string, months int, idempotencyKey string) error {
	if months == 0 {
		return nil
	}
	cus, _, err := customerOf(ctx, s.pool, userID)
	if err != nil {
		return err
	}
	if cus == "" {
		return fmt.Errorf("credit free months: member %s has no Stripe customer", userID)
	}
	p, err := s.price(ctx, s.cfg.PriceMonthly)
	if err != nil {
		return err
	}
	desc := "Indique e ganhe: mês grátis"
	if months < 0 {
		desc = "Indique e ganhe: estorno do mês grátis"
	}
	params := &stripe.CustomerBalanceTransactionCreateParams{
		Customer:    stripe.String(cus),
		Amount:      stripe.Int64(-int64(months) * p.Amount), // negative = credit to the customer
		Currency:    stripe.String("brl"),
		Description: stripe.String(desc),
		Metadata:    map[string]string{"idempotency_key": idempotencyKey},
	}
	params.SetIdempotencyKey(idempotencyKey)
	if _, err := s.sc.V1CustomerBalanceTransactions.Create(ctx, params); err != nil {
		return stripeDown(err)
	}
	return nil
}

// CardFingerprints are the fingerprints of the member's saved cards.
func (s *Service) CardFingerprints(ctx context.Context, userID string) ([]string, error) {
	cus, _, err := customerOf(ctx, s.pool, userID)
	if err != nil || cus == "" {
		return nil, err
	}
	var out []string
	for pm, err := range s.sc.V1Customers.ListPaymentMethods(ctx, &stripe.CustomerListPaymentMethodsParams{
		Customer: stripe.String(cus), Type: stripe.String("card")}) {
		if err != nil {
			return nil, stripeDown(err)
		}
		if pm.Card != nil && pm.Card.Fingerprint != "" {
			out = append(out, pm.Card.Fingerprint)
		}
	}
	return out, nil
}
