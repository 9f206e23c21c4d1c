package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/postgres"
)

// MsgRecoveryRegenerated answers a regeneration; the codes are shown once.
const MsgRecoveryRegenerated = "Novos códigos de recuperação gerados. Os anteriores deixaram de valer: guarde estes agora, eles não serão mostrados de novo."

// RegenerateRecoveryCodes replaces userID's recovery codes with
// RecoveryCodeCount new ones (returned once, stored hashed), with the
// account's password (when it has one) and a current code; wrong ones count
// toward the lockout.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, userID, pass, code string) ([]string, error) {
	if err := s.limit(ctx, "twostep:user:"+userID, s.opts.LoginPerEmail, MsgTwoStepLimited); err != nil {
		return nil, err
	}
	if len(pass) > 1024 || len(code) > 64 {
		return nil, core.Errorf(core.EINVALID, MsgTwoStepBadCode)
	}
	var hash *string
	var lockedUntil *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT password_hash, locked_until FROM users WHERE id = $1`, userID).Scan(&hash, &lockedUntil); err != nil {
		if postgres.IsNoRows(err) {
			return nil, errNotAuthenticated
		}
		return nil, fmt.Errorf("load user: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return nil, lockedError(*lockedUntil)
	}
	on, err := s.twoStepEnabled(ctx, userID)
	if err != nil {
		return nil, err
	}
	if !on {
		return nil, core.Errorf(core.ECONFLICT, MsgTwoStepNotActive)
	}
	fail := func(msg string) error {
		until, locked, err := s.recordFailure(ctx, userID)
		if err != nil {
			return err
		}
		if locked {
			return lockedError(until)
		}
		return core.Errorf(core.EUNAUTHORIZED, "%s", msg)
	}
	if hash != nil {
		ok, err := password.Verify(pass, *hash)
		if err != nil {
			return nil, fmt.Errorf("verify password: %w", err)
		}
		if !ok {
			return nil, fail(MsgTwoStepBadPass)
		}
	}
	ok, err := s.useSecondFactor(ctx, userID, code)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fail(MsgTwoStepBadCode)
	}
	codes := make([]string, RecoveryCodeCount)
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("drop recovery codes: %w", err)
		}
		for i := range codes {
			codes[i] = newRecoveryCode()
			if _, err := tx.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, hashToken(normaliseCode(codes[i]))); err != nil {
				return fmt.Errorf("store recovery code: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.sendSecurityNotice(ctx, userID, "Novos códigos de recuperação",
		"Em %s (horário de Brasília), novos códigos de recuperação foram gerados para a sua conta do VetClube; os anteriores deixaram de valer.")
	return codes, nil
}
