package auth

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Messages of a sign-up with a referral code (the product spec's).
const (
	MsgSignupReferralOK     = "Conta criada com sucesso! Indicação processada."
	MsgSignupReferralFailed = "Conta criada, mas houve um problema ao processar a indicação."
)

// NewAccount is an account sign-up just created, for the referral program.
type NewAccount struct {
	UserID, Email, ReferralCode, DeviceID, IP string
}

// ReferralRecorder binds new accounts to referral codes (core/referrals
// implements it; core/app plugs it in with SetReferrals).
type ReferralRecorder interface {
	// KnownCode reports whether code is some member's referral code.
	KnownCode(ctx context.Context, code string) (bool, error)
	// RecordSignup binds the account in the sign-up transaction (inside a
	// savepoint: its failure never fails the sign-up).
	RecordSignup(ctx context.Context, tx pgx.Tx, acc NewAccount) (recorded bool, err error)
	// AfterSignup runs after the sign-up committed.
	AfterSignup(ctx context.Context, userID string)
}

// SetReferrals plugs the referral program in; call it while wiring.
func (s *Service) SetReferrals(r ReferralRecorder) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.referrals = r
}

func (s *Service) referralRecorder() ReferralRecorder {
	s.hooksMu.RLock()
	defer s.hooksMu.RUnlock()
	return s.referrals
}

// recordReferral runs the recorder in a savepoint of tx; false when it failed.
func (s *Service) recordReferral(ctx context.Context, tx pgx.Tx, r ReferralRecorder, acc NewAccount) bool {
	sp, err := tx.Begin(ctx)
	if err == nil {
		if _, err = r.RecordSignup(ctx, sp, acc); err == nil {
			err = sp.Commit(ctx)
		} else {
			_ = sp.Rollback(ctx)
		}
	}
	if err != nil {
		s.log.ErrorContext(ctx, "record referral at sign-up", "user_id", acc.UserID, "err", err)
		return false
	}
	return true
}
