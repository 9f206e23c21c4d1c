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

// Changing the e-mail while signed in. The new address takes effect only when
// its owner opens the link sent to it; the old address is then told, with a
// link that undoes the change for UndoEmailTTL.
//
// Whether the new address already belongs to another account is never said
// to the member asking: any member could otherwise test addresses through
// this form, which sign-up and password reset are careful not to allow. The
// answer is the same; the e-mail to a taken address says nothing changed, and
// its owner (who holds that other account) is the only one who learns it.
const (
	EmailChangeTTL = 24 * time.Hour
	UndoEmailTTL   = 7 * 24 * time.Hour
)

const (
	MsgEmailChangeSent     = "Enviamos um link de confirmação para o novo endereço. Seu e-mail só muda quando você abrir esse link."
	MsgEmailChangeSame     = "Este já é o seu e-mail."
	MsgEmailChangeBadPass  = "Senha incorreta."
	MsgEmailChangeLimited  = "Muitas tentativas de troca de e-mail. Aguarde um momento."
	MsgEmailChangeInvalid  = "Link de troca de e-mail inválido ou já usado."
	MsgEmailChangeExpired  = "O link de troca de e-mail expirou. Peça a troca novamente no seu perfil."
	MsgEmailChangeTaken    = "Este endereço já pertence a outra conta do VetClube. Nada foi alterado."
	MsgEmailChangeStale    = "O e-mail da conta mudou depois deste pedido. Peça a troca novamente no seu perfil."
	MsgEmailChanged        = "E-mail alterado. Use o novo endereço para entrar."
	MsgEmailUndoInvalid    = "Link para desfazer inválido ou já usado."
	MsgEmailUndoExpired    = "O link para desfazer a troca expirou (vale 7 dias). Fale com o suporte do VetClube."
	MsgEmailUndoConflict   = "O endereço antigo já está em uso por outra conta. Fale com o suporte do VetClube."
	MsgEmailUndone         = "A troca de e-mail foi desfeita e todas as sessões foram encerradas. Enviamos ao seu e-mail um link para criar uma nova senha: troque-a agora."
	MsgEmailChangeNoChange = "Nenhuma troca de e-mail pendente."
)

// PendingEmailChange is what the profile shows while a change waits for its link.
type PendingEmailChange struct {
	NewEmail  string    `json:"new_email"`
	ExpiresAt time.Time `json:"expires_at"`
}

// EmailSettings is what the e-mail form needs to explain itself.
type EmailSettings struct {
	Email       string              `json:"email"`
	HasPassword bool                `json:"has_password"`
	Google      bool                `json:"google"`
	Pending     *PendingEmailChange `json:"pending"`
}

// EmailSettingsOf reads userID's e-mail, sign-in methods and pending change.
func (s *Service) EmailSettingsOf(ctx context.Context, userID string) (EmailSettings, error) {
	var st EmailSettings
	err := s.pool.QueryRow(ctx, `SELECT email, password_hash IS NOT NULL,
			EXISTS (SELECT 1 FROM user_identities WHERE user_id = u.id AND provider = 'google')
		FROM users u WHERE id = $1`, userID).Scan(&st.Email, &st.HasPassword, &st.Google)
	if postgres.IsNoRows(err) {
		return st, errNotAuthenticated
	}
	if err != nil {
		return st, fmt.Errorf("email settings: %w", err)
	}
	var p PendingEmailChange
	err = s.pool.QueryRow(ctx, `SELECT new_email, expires_at FROM email_changes
		WHERE user_id = $1 AND confirmed_at IS NULL AND expires_at > $2`, userID, s.now()).Scan(&p.NewEmail, &p.ExpiresAt)
	if err == nil {
		st.Pending = &p
	} else if !postgres.IsNoRows(err) {
		return st, fmt.Errorf("pending email change: %w", err)
	}
	return st, nil
}

// RequestEmailChange starts changing userID's e-mail to newEmail: the
// current password (for an account that has one; wrong ones count toward
// the lockout), then a link to the new address. A newer request replaces a
// pending one.
func (s *Service) RequestEmailChange(ctx context.Context, userID, newEmail, pass string) error {
	if err := s.limit(ctx, "emailchange:user:"+userID, s.opts.LoginPerEmail, MsgEmailChangeLimited); err != nil {
		return err
	}
	newEmail = NormaliseEmail(newEmail)
	if err := checkEmail(newEmail); err != nil {
		return err
	}
	if len(pass) > 1024 {
		return core.Invalid(MsgEmailChangeBadPass, map[string]string{"password": MsgEmailChangeBadPass})
	}
	var email string
	var hash *string
	var meta map[string]string
	var lockedUntil *time.Time
	err := s.pool.QueryRow(ctx, `SELECT email, password_hash, metadata, locked_until FROM users WHERE id = $1`, userID).Scan(&email, &hash, &meta, &lockedUntil)
	if postgres.IsNoRows(err) {
		return errNotAuthenticated
	}
	if err != nil {
		return fmt.Errorf("load user: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return lockedError(*lockedUntil)
	}
	if hash != nil {
		ok, err := password.Verify(pass, *hash)
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
			return core.Invalid(MsgEmailChangeBadPass, map[string]string{"password": MsgEmailChangeBadPass})
		}
	}
	if newEmail == email {
		return core.Invalid(MsgEmailChangeSame, map[string]string{"email": MsgEmailChangeSame})
	}
	var taken bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE email = $1)`, newEmail).Scan(&taken); err != nil {
		return fmt.Errorf("check email: %w", err)
	}
	token := randomToken()
	now := s.now()
	// The row is written for a taken address too, so both answers do the
	// same work; its link can never be confirmed (the e-mail says so).
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM email_changes WHERE user_id = $1 AND confirmed_at IS NULL`, userID); err != nil {
			return fmt.Errorf("drop pending email change: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO email_changes (user_id, old_email, new_email, confirm_hash, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, userID, email, newEmail, hashToken(token), now, now.Add(EmailChangeTTL)); err != nil {
			return fmt.Errorf("store email change: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if taken {
		s.send(ctx, newEmail, "Pedido de troca de e-mail no VetClube", emailContent{
			Intro:  "Alguém pediu para usar este endereço numa outra conta do VetClube, mas ele já pertence à sua conta. Nada foi alterado.",
			Action: "Entrar no VetClube",
			Link:   s.opts.PublicURL + "/login",
			Footer: "Se foi você, use outro endereço na outra conta. Se não foi, ignore este e-mail: sua conta continua como estava.",
		})
		return nil
	}
	s.send(ctx, newEmail, "Confirme seu novo e-mail no VetClube", emailContent{
		Name:   firstNameOf(meta),
		Intro:  "Você pediu para trocar o e-mail da sua conta do VetClube para este endereço. Confirme pelo link abaixo: até lá, o e-mail da conta continua o mesmo.",
		Action: "Confirmar novo e-mail",
		Link:   s.link("/email/confirmar", token),
		Footer: "O link vale por 24 horas e pode ser usado uma única vez. Se você não pediu esta troca, ignore este e-mail.",
	})
	return nil
}

// CancelEmailChange drops userID's pending change.
func (s *Service) CancelEmailChange(ctx context.Context, userID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM email_changes WHERE user_id = $1 AND confirmed_at IS NULL`, userID)
	if err != nil {
		return fmt.Errorf("cancel email change: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return core.Errorf(core.ENOTFOUND, MsgEmailChangeNoChange)
	}
	return nil
}

// ConfirmEmailChange applies the change token names (the link sent to the
// new address), once: the account's e-mail becomes the new one, links and
// codes sent to the old one die, and the old address gets the undo link.
// It returns the new address.
func (s *Service) ConfirmEmailChange(ctx context.Context, token string) (string, error) {
	if token == "" || len(token) > 128 {
		return "", core.Errorf(core.EINVALID, MsgEmailChangeInvalid)
	}
	now := s.now()
	undo := randomToken()
	var userID, oldEmail, newEmail string
	var meta map[string]string
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var id string
		var expires time.Time
		err := tx.QueryRow(ctx, `SELECT id::text, user_id::text, old_email, new_email, expires_at FROM email_changes
			WHERE confirm_hash = $1 AND confirmed_at IS NULL FOR UPDATE`, hashToken(token)).Scan(&id, &userID, &oldEmail, &newEmail, &expires)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.EINVALID, MsgEmailChangeInvalid)
		}
		if err != nil {
			return fmt.Errorf("find email change: %w", err)
		}
		if !expires.After(now) {
			return core.Errorf(core.EINVALID, MsgEmailChangeExpired)
		}
		var current string
		if err := tx.QueryRow(ctx, `SELECT email, metadata FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&current, &meta); err != nil {
			return fmt.Errorf("load user: %w", err)
		}
		if current != oldEmail {
			return core.Errorf(core.ECONFLICT, MsgEmailChangeStale)
		}
		var taken bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE email = $1)`, newEmail).Scan(&taken); err != nil {
			return fmt.Errorf("check email: %w", err)
		}
		if taken {
			return core.Errorf(core.ECONFLICT, MsgEmailChangeTaken)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET email = $2, updated_at = $3 WHERE id = $1`, userID, newEmail, now); err != nil {
			if postgres.IsUniqueViolation(err, "") {
				return core.Errorf(core.ECONFLICT, MsgEmailChangeTaken)
			}
			return fmt.Errorf("set email: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE email_changes SET confirmed_at = $2, undo_hash = $3, undo_until = $4 WHERE id = $1`,
			id, now, hashToken(undo), now.Add(UndoEmailTTL)); err != nil {
			return fmt.Errorf("confirm email change: %w", err)
		}
		return s.dropMailedCredentials(ctx, tx, userID, now)
	})
	if err != nil {
		return "", err
	}
	s.InvalidatePrincipalsOf(userID)
	when := now.In(saoPaulo).Format("02/01/2006 às 15:04")
	s.send(ctx, oldEmail, "O e-mail da sua conta do VetClube foi alterado", emailContent{
		Name:   firstNameOf(meta),
		Intro:  "Em " + when + " (horário de Brasília), o e-mail da sua conta do VetClube passou a ser " + newEmail + ". Se foi você, nada a fazer.",
		Action: "Não fui eu: desfazer a troca",
		Link:   s.link("/email/desfazer", undo),
		Footer: "Se não foi você, o link acima devolve a conta a este endereço, encerra todas as sessões e envia um link para criar uma nova senha. Ele vale por 7 dias.",
	})
	s.sendSecurityNotice(ctx, userID, "Seu e-mail foi alterado",
		"Em %s (horário de Brasília), este passou a ser o e-mail da sua conta do VetClube.")
	return newEmail, nil
}

// dropMailedCredentials spends the reset links and e-mailed sign-in codes
// of userID: they went to an address that no longer names the account.
func (s *Service) dropMailedCredentials(ctx context.Context, tx pgx.Tx, userID string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, userID, now); err != nil {
		return fmt.Errorf("spend email tokens: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM login_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("drop login codes: %w", err)
	}
	return nil
}

// UndoEmailChange puts the old address back (the link sent to it, valid
// UndoEmailTTL, once): every session is signed out, remembered devices are
// forgotten, and the old address gets a password-reset link, since whoever
// changed the e-mail knew the password.
func (s *Service) UndoEmailChange(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return core.Errorf(core.EINVALID, MsgEmailUndoInvalid)
	}
	now := s.now()
	var userID, oldEmail string
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var id string
		var until time.Time
		err := tx.QueryRow(ctx, `SELECT id::text, user_id::text, old_email, undo_until FROM email_changes
			WHERE undo_hash = $1 AND undone_at IS NULL FOR UPDATE`, hashToken(token)).Scan(&id, &userID, &oldEmail, &until)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.EINVALID, MsgEmailUndoInvalid)
		}
		if err != nil {
			return fmt.Errorf("find email change: %w", err)
		}
		if !until.After(now) {
			return core.Errorf(core.EINVALID, MsgEmailUndoExpired)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET email = $2, updated_at = $3 WHERE id = $1`, userID, oldEmail, now); err != nil {
			if postgres.IsUniqueViolation(err, "") {
				return core.Errorf(core.ECONFLICT, MsgEmailUndoConflict)
			}
			return fmt.Errorf("restore email: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE email_changes SET undone_at = $2 WHERE id = $1`, id, now); err != nil {
			return fmt.Errorf("undo email change: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM email_changes WHERE user_id = $1 AND confirmed_at IS NULL`, userID); err != nil {
			return fmt.Errorf("drop pending email change: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, userID, now); err != nil {
			return fmt.Errorf("sign out sessions: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM trusted_devices WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("forget devices: %w", err)
		}
		if err := s.dropMailedCredentials(ctx, tx, userID, now); err != nil {
			return err
		}
		return s.requestMail(ctx, tx, mailReset, oldEmail)
	})
	if err != nil {
		return err
	}
	s.InvalidatePrincipalsOf(userID)
	s.kickMail()
	return nil
}
