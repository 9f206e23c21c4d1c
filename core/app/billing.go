package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/billing/stripefake"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// buildBilling creates billing (core/billing) on one Stripe client. With
// no STRIPE_SECRET_KEY outside production, the in-repo fake Stripe serves
// on STRIPE_FAKE_ADDR and sends its signed events to this instance, so
// checkout works with nothing configured.
func (a *App) buildBilling(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	bc := billing.Config{
		SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
		PriceMonthly: cfg.StripePriceMonthly, PriceYearly: cfg.StripePriceYearly, APIBase: cfg.StripeAPIBase,
		PixEnabled: cfg.BillingPixEnabled, BoletoEnabled: cfg.BillingBoletoEnabled, Grace: cfg.BillingGrace, PublicURL: cfg.PublicURL,
	}
	if bc.SecretKey == "" && cfg.Env != "production" {
		secret := bc.WebhookSecret
		if secret == "" {
			b := make([]byte, 16)
			_, _ = rand.Read(b)
			secret = "whsec_fake_" + hex.EncodeToString(b)
		}
		fake := stripefake.New(stripefake.Options{
			WebhookURL: bc.WebhookURL(), WebhookSecret: secret,
			StatePath: filepath.Join(cfg.DataDir, "stripe-fake.json"), Log: log,
		})
		base, err := fake.Start(cfg.StripeFakeAddr)
		if err != nil {
			return err
		}
		a.onClose(fake.Close)
		a.StripeFake = fake
		bc.SecretKey, bc.WebhookSecret, bc.APIBase, bc.Fake = "sk_test_fake", secret, base, true
		if bc.PriceMonthly == "" {
			bc.PriceMonthly = stripefake.DefaultPrices[0].ID
		}
		if bc.PriceYearly == "" {
			bc.PriceYearly = stripefake.DefaultPrices[1].ID
		}
		log.Info("STRIPE_SECRET_KEY is empty: billing runs against the local fake Stripe", "url", base)
	} else if bc.SecretKey == "" {
		log.Warn("STRIPE_SECRET_KEY is empty: checkout and the customer portal answer 503")
	}
	subs := a.Engagement.Subscriptions
	a.Billing = billing.New(pool, billing.NewClient(bc, nil), bc, billing.Options{
		Entitlement: entitlement{subs}, Views: views{subs}, Log: log,
		EntitlementTimeline: func(ctx context.Context, userID string) ([]billing.TimelineEntry, error) {
			changes, err := subs.Changes(ctx, userID)
			if err != nil {
				return nil, err
			}
			out := make([]billing.TimelineEntry, 0, len(changes))
			for _, c := range changes {
				detail := "sem acesso premium"
				if c.IsPremium {
					detail = "acesso premium"
				}
				out = append(out, billing.TimelineEntry{At: c.At, Source: "entitlement", Type: c.Kind, Detail: detail + " " + string(c.Detail)})
			}
			return out, nil
		},
	})
	a.onClose(a.Billing.StartReconciler(nil))
	return nil
}

// entitlement hands billing's states to core/subscriptions.
type entitlement struct{ s *subscriptions.Service }

func billingState(st billing.State) subscriptions.BillingState {
	return subscriptions.BillingState{UserID: st.UserID, StripeStatus: st.StripeStatus, Tier: st.Tier, CurrentPeriodEnd: st.CurrentPeriodEnd,
		CancelAtPeriodEnd: st.CancelAtPeriodEnd, PaymentFailedAt: st.PaymentFailedAt, ObservedAt: st.ObservedAt}
}

func (e entitlement) ApplyBilling(ctx context.Context, tx pgx.Tx, st billing.State) (bool, error) {
	return e.s.ApplyBilling(ctx, tx, billingState(st))
}

func (e entitlement) NotifyEntitlement(ctx context.Context, st billing.State) error {
	if err := e.s.NotifyEntitlement(ctx, billingState(st)); err != nil {
		return fmt.Errorf("notify entitlement: %w", err)
	}
	return nil
}

// views answers the subscription view billing's routes return.
type views struct{ s *subscriptions.Service }

func (v views) View(ctx context.Context, userID string) (any, error) { return v.s.View(ctx, userID) }
