package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/postgres"
)

// ExportUserData is the member's billing rows: the Stripe customer record,
// the subscription and every invoice, payment, refund and dispute.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	out := map[string]any{}
	for name, table := range map[string]string{
		"cliente": "billing_customers", "assinatura": "billing_subscriptions", "pagamentos": "billing_payments",
	} {
		rows, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM `+table+` t WHERE t.user_id = $1`, userID)
		if err != nil {
			return nil, err
		}
		out[name] = rows
	}
	return out, nil
}

// EraseCustomer is billing's deletion step: every subscription of the
// member's Stripe customer is cancelled at once, the customer is deleted at
// Stripe, and the webhook events that carried their data are dropped (the
// member's rows go with the account). A customer already gone is not an error.
func (s *Service) EraseCustomer(ctx context.Context, userID string) (int64, error) {
	var customerID string
	err := s.pool.QueryRow(ctx, `SELECT customer_id FROM billing_customers WHERE user_id = $1`, userID).Scan(&customerID)
	if err != nil && !postgres.IsNoRows(err) {
		return 0, fmt.Errorf("billing customer: %w", err)
	}
	var n int64
	if customerID != "" {
		if s.sc == nil {
			return 0, errors.New("billing: no Stripe client to delete the customer")
		}
		params := &stripe.SubscriptionListParams{Customer: stripe.String(customerID), Status: stripe.String("all")}
		for sub, err := range s.sc.V1Subscriptions.List(ctx, params) {
			if err != nil {
				if isMissing(err) {
					break
				}
				return 0, fmt.Errorf("list subscriptions: %w", err)
			}
			if sub.Status == stripe.SubscriptionStatusCanceled || sub.Status == stripe.SubscriptionStatusIncompleteExpired {
				continue
			}
			if _, err := s.sc.V1Subscriptions.Cancel(ctx, sub.ID, &stripe.SubscriptionCancelParams{}); err != nil && !isMissing(err) {
				return 0, fmt.Errorf("cancel subscription: %w", err)
			}
			n++
		}
		if _, err := s.sc.V1Customers.Delete(ctx, customerID, &stripe.CustomerDeleteParams{}); err != nil && !isMissing(err) {
			return 0, fmt.Errorf("delete customer: %w", err)
		}
		n++
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM billing_events WHERE user_id = $1 OR ($2 <> '' AND customer_id = $2)`, userID, customerID)
	if err != nil {
		return 0, fmt.Errorf("erase billing events: %w", err)
	}
	return n + tag.RowsAffected(), nil
}

func isMissing(err error) bool {
	var se *stripe.Error
	return errors.As(err, &se) && (se.Code == stripe.ErrorCodeResourceMissing || se.HTTPStatusCode == 404)
}

// redactDeletedCustomer keeps only the ids of a customer.deleted event: the
// customer (a deleted member's e-mail and name) is gone and its copy in the
// event inbox would outlive the account.
func redactDeletedCustomer(ev *stripe.Event, payload []byte) []byte {
	if ev.Type != "customer.deleted" {
		return payload
	}
	cus := ""
	if ev.Data != nil {
		if id, ok := ev.Data.Object["id"].(string); ok {
			cus = id
		}
	}
	b, err := json.Marshal(map[string]any{"id": ev.ID, "object": "event", "type": ev.Type, "created": ev.Created,
		"data": map[string]any{"object": map[string]any{"id": cus, "object": "customer", "deleted": true}}})
	if err != nil {
		return payload
	}
	return b
}
