package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/referrals"
	"github.com/vetclube/vetclube/workflows"
)

// buildReferrals wires "Indique e ganhe": the service, its Referral
// workflows (their own worker and task queue) when Temporal is on, the
// sign-up binding and the email-confirmed signal.
func (a *App) buildReferrals(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	svc := referrals.New(pool, referrals.Options{
		Notifications: a.Engagement.Notifications,
		Points:        a.Engagement.Points,
		Log:           log,
		PublicURL:     cfg.PublicURL,
		Day:           cfg.ReferralDay,
	})
	if c := a.Engagement.Temporal; c != nil {
		svc.SetWorkflows(workflows.ReferralEngine{Client: c})
		if cfg.TemporalWorker {
			w := workflows.NewReferralWorker(c, &workflows.ReferralActivities{Referrals: svc})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start referral worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
			go func() {
				if n, err := svc.ResumeWorkflows(context.Background()); err != nil {
					log.Warn("resume referral workflows", "started", n, "err", err)
				}
			}()
		}
	}
	a.Auth.SetReferrals(signupReferrals{svc})
	a.Auth.AddEmailConfirmedHook(svc.EmailConfirmed)
	a.Referrals = svc
	return nil
}

// signupReferrals is core/referrals as core/auth's ReferralRecorder.
type signupReferrals struct{ s *referrals.Service }

func (r signupReferrals) KnownCode(ctx context.Context, code string) (bool, error) {
	return r.s.KnownCode(ctx, code)
}

func (r signupReferrals) RecordSignup(ctx context.Context, tx pgx.Tx, acc auth.NewAccount) (bool, error) {
	out, err := r.s.RecordSignupTx(ctx, tx, referrals.SignupInfo{UserID: acc.UserID, Email: acc.Email,
		Code: acc.ReferralCode, DeviceID: acc.DeviceID, IP: acc.IP})
	return out.Recorded, err
}

func (r signupReferrals) AfterSignup(ctx context.Context, userID string) {
	r.s.AfterSignup(ctx, userID)
}

// connectReferralsBilling lets billing's webhook tell the referral program
// about paid invoices, refunds and disputes, and lets the rewards use
// billing's customer balance and card fingerprints.
func (a *App) connectReferralsBilling() {
	if a.Billing == nil || a.Referrals == nil {
		return
	}
	a.Billing.SetPaymentHooks(a.Referrals)
	a.Referrals.SetBilling(a.Billing)
}
