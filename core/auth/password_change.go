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

const (
	MsgPasswordChanged    = "Senha alterada com sucesso! As outras sessões foram encerradas."
	MsgCurrentPasswordBad = "Senha atual incorreta."
	MsgPasswordSame       = "A nova senha deve ser diferente da atual."
	MsgNoPassword         = "Sua conta entra com o Google e não tem senha. Para criar uma, use \"Esqueceu sua senha?\" na tela de login."
)

// ChangePassword sets a new password from a signed-in session: the current
// one first (wrong ones count toward the lockout like a sign-in's), the new
// one through the sign-up's validator. Every other session of the account is
// signed out; keepSessionID stays.
func (s *Service) ChangePassword(ctx context.Context, userID, keepSessionID, current, next string) error {
	if err := s.limit(ctx, "password:user:"+userID, s.opts.LoginPerEmail, MsgLoginLimited); err != nil {
		return err
	}
	if err := checkPasswordLength(current); err != nil {
		return err
	}
	if err := checkPasswordLength(next); err != nil {
		return err
	}
	var email string
	var hash *string
	var lockedUntil *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT email, password_hash, locked_until FROM users WHERE id = $1`, userID).Scan(&email, &hash, &lockedUntil); err != nil {
		if postgres.IsNoRows(err) {
			return errNotAuthenticated
		}
		return fmt.Errorf("load user: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return lockedError(*lockedUntil)
	}
	if hash == nil {
		return core.Errorf(core.ECONFLICT, "%s", MsgNoPassword)
	}
	ok, err := password.Verify(current, *hash)
	if err != nil {
		return fmt.Errorf("verify password: %w", err)
	}
	if !ok {
		until, locked, err := s.recordFailure(ctx, userID)
		if err != nil {
			return err
		}
		if locked {
			return lockedError(until)
		}
		return core.Invalid(MsgCurrentPasswordBad, map[string]string{"current_password": MsgCurrentPasswordBad})
	}
	if current == next {
		return core.Invalid(MsgPasswordSame, map[string]string{"password": MsgPasswordSame})
	}
	if reasons := password.Validate(next, email); len(reasons) > 0 {
		msg := password.Message(reasons)
		return core.Invalid(msg, map[string]string{"password": msg})
	}
	newHash, err := s.opts.Hash.Hash(next)
	if err != nil {
		return err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		now := s.now()
		// Only if the password is still the one just checked: two changes at
		// once cannot both pass on the same current password.
		tag, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, failed_login_count = 0, locked_until = NULL, updated_at = $3
			WHERE id = $1 AND password_hash = $4`, userID, newHash, now, *hash)
		if err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if tag.RowsAffected() != 1 {
			return core.Invalid(MsgCurrentPasswordBad, map[string]string{"current_password": MsgCurrentPasswordBad})
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id::text <> $2 AND revoked_at IS NULL`,
			userID, keepSessionID, now); err != nil {
			return fmt.Errorf("revoke other sessions: %w", err)
		}
		// Outstanding reset links and e-mailed codes die with the old password.
		if _, err := tx.Exec(ctx, `UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'reset' AND used_at IS NULL`, userID, now); err != nil {
			return fmt.Errorf("spend reset tokens: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM login_codes WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("drop login codes: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.InvalidatePrincipalsOf(userID)
	s.sendSecurityNotice(ctx, userID, "Sua senha foi alterada",
		"A senha da sua conta do VetClube foi alterada em %s (horário de Brasília) e as outras sessões foram encerradas.")
	return nil
}
