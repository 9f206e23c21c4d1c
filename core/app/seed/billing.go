package seed

import (
	"context"
	"fmt"
	"io"
)

const premiumEmail = "premium@vetclube.dev"

// seedBilling makes the premium demo member a paying subscriber: a Stripe
// customer in the local fake Stripe with a monthly subscription that
// started four months ago (five paid invoices), synced into billing and
// entitlement as a webhook would. With a real Stripe key nothing is seeded.
func (a demo) seedBilling(ctx context.Context, userID string, stdout io.Writer) error {
	if a.StripeFake == nil || a.Billing == nil {
		return nil
	}
	customer, err := a.Billing.EnsureCustomer(ctx, userID, "")
	if err != nil {
		return fmt.Errorf("seed premium customer: %w", err)
	}
	// A fake whose state file was removed learns the stored customer again.
	a.StripeFake.AdoptCustomer(customer, premiumEmail, userID)
	if _, err := a.StripeFake.Seed(customer, a.Billing.Config().PriceMonthly, 4); err != nil {
		return fmt.Errorf("seed premium subscription: %w", err)
	}
	if _, err := a.Billing.Sync(ctx, customer); err != nil {
		return fmt.Errorf("sync premium subscription: %w", err)
	}
	if _, err := a.Billing.BackfillInvoices(ctx, customer); err != nil {
		return fmt.Errorf("seed premium invoices: %w", err)
	}
	return nil
}
