package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// 'Entrar com código': a 6-digit code by e-mail instead of the password.
const (
	LoginCodeTTL         = 10 * time.Minute
	MaxLoginCodeFailures = 5
	mailLoginCode        = "login_code"
)

const (
	MsgLoginCodeSent    = "Se o email estiver cadastrado, enviamos um código de acesso. Ele vale por 10 minutos."
	MsgLoginCodeInvalid = "Código inválido ou expirado. Confira o código ou solicite um novo."
	MsgLoginLinkInvalid = "Link de acesso inválido ou expirado. Solicite um novo código."
)

// RequestLoginCode queues the e-mail with a code for email. Known and
// unknown addresses do the same here (the answer is always MsgLoginCodeSent);
// the request loop sends a code only to a confirmed account. The password
// sign-in's rate limits apply, on the same budget.
func (s *Service) RequestLoginCode(ctx context.Context, email, clientIP string) error {
	email = NormaliseEmail(email)
	if err := checkEmail(email); err != nil {
		return err
	}
	if err := s.limit(ctx, "login:email:"+email, s.opts.LoginPerEmail, MsgLoginLimited); err != nil {
		return err
	}
	if err := s.limit(ctx, "login:ip:"+clientIP, s.opts.LoginPerIP, MsgLoginLimited); err != nil {
		return err
	}
	if err := s.requestMail(ctx, s.pool, mailLoginCode, email); err != nil {
		return err
	}
	s.kickMail()
	return nil
}

// newLoginCode stores a fresh code and link for userID (replacing any other),
// counted from requested.
func (s *Service) newLoginCode(ctx context.Context, tx pgx.Tx, userID string, requested time.Time) (code, link string, err error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", "", err
	}
	code = fmt.Sprintf("%06d", n.Int64())
	link = randomToken()
	_, err = tx.Exec(ctx, `INSERT INTO login_codes (user_id, code_hash, link_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (user_id) DO UPDATE SET code_hash = excluded.code_hash, link_hash = excluded.link_hash,
			created_at = excluded.created_at, expires_at = excluded.expires_at, failures = 0`,
		userID, loginCodeHash(userID, code), hashToken(link), requested, requested.Add(LoginCodeTTL))
	if err != nil {
		return "", "", fmt.Errorf("store login code: %w", err)
	}
	return code, link, nil
}

func loginCodeHash(userID, code string) []byte { return hashToken(userID + ":" + code) }

// LoginCodeInput is a sign-in with an e-mailed code (Email and Code) or its
// one-click link (Token).
type LoginCodeInput struct {
	Email, Code, Token  string
	TrustedDevice       string
	ClientIP, UserAgent string
}

// LoginWithCode signs in with an e-mailed code: lockout check, rate limits,
// then the code, in the password's order and with its failure counting (an
// unknown address is counted and locked alike). A good code is spent; the 5th
// wrong one deletes it. Two-step verification follows as after a password.
func (s *Service) LoginWithCode(ctx context.Context, in LoginCodeInput) (LoginResult, error) {
	if in.Token != "" {
		return s.loginWithLink(ctx, in)
	}
	email := NormaliseEmail(in.Email)
	if err := checkEmail(email); err != nil {
		return LoginResult{}, err
	}
	code := normaliseCode(in.Code)
	var userID string
	var lockedUntil, confirmed *time.Time
	err := s.pool.QueryRow(ctx, `SELECT id, locked_until, email_confirmed_at FROM users WHERE email = $1`, email).Scan(&userID, &lockedUntil, &confirmed)
	found := err == nil
	if err != nil && !postgres.IsNoRows(err) {
		return LoginResult{}, fmt.Errorf("find account: %w", err)
	}
	if err := s.signInGate(ctx, email, in.ClientIP, found, lockedUntil); err != nil {
		return LoginResult{}, err
	}
	now := s.now()
	ok := false
	if found && isTOTPCode(code) {
		// Spent in the same statement that checks it: two requests with the
		// right code get one session.
		tag, err := s.pool.Exec(ctx, `DELETE FROM login_codes WHERE user_id = $1 AND code_hash = $2 AND expires_at > $3`,
			userID, loginCodeHash(userID, code), now)
		if err != nil {
			return LoginResult{}, fmt.Errorf("spend login code: %w", err)
		}
		ok = tag.RowsAffected() == 1
	} else {
		// The same work for an unknown address as a wrong code costs.
		_ = subtle.ConstantTimeCompare(loginCodeHash(email, code), loginCodeHash(email, ""))
	}
	if !ok {
		var until time.Time
		var locked bool
		var err error
		if found {
			// The 5th wrong try deletes the code; the ones before count.
			tag, delErr := s.pool.Exec(ctx, `DELETE FROM login_codes WHERE user_id = $1 AND failures + 1 >= $2`, userID, MaxLoginCodeFailures)
			if delErr != nil {
				return LoginResult{}, fmt.Errorf("count login code failure: %w", delErr)
			}
			if tag.RowsAffected() == 0 {
				if _, err := s.pool.Exec(ctx, `UPDATE login_codes SET failures = failures + 1 WHERE user_id = $1`, userID); err != nil {
					return LoginResult{}, fmt.Errorf("count login code failure: %w", err)
				}
			}
			until, locked, err = s.recordFailure(ctx, userID)
		} else {
			until, locked, err = s.recordUnknownFailure(ctx, email)
		}
		if err != nil {
			return LoginResult{}, err
		}
		if locked {
			return LoginResult{}, lockedError(until)
		}
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgLoginCodeInvalid)
	}
	return s.afterCode(ctx, userID, confirmed, in)
}

func (s *Service) loginWithLink(ctx context.Context, in LoginCodeInput) (LoginResult, error) {
	if len(in.Token) > 128 || strings.TrimSpace(in.Token) == "" {
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgLoginLinkInvalid)
	}
	var userID string
	err := s.pool.QueryRow(ctx, `DELETE FROM login_codes WHERE link_hash = $1 AND expires_at > $2 RETURNING user_id`, hashToken(in.Token), s.now()).Scan(&userID)
	if postgres.IsNoRows(err) {
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgLoginLinkInvalid)
	}
	if err != nil {
		return LoginResult{}, fmt.Errorf("spend login link: %w", err)
	}
	var lockedUntil, confirmed *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT locked_until, email_confirmed_at FROM users WHERE id = $1`, userID).Scan(&lockedUntil, &confirmed); err != nil {
		return LoginResult{}, fmt.Errorf("find account: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return LoginResult{}, lockedError(*lockedUntil)
	}
	return s.afterCode(ctx, userID, confirmed, in)
}

func (s *Service) afterCode(ctx context.Context, userID string, confirmed *time.Time, in LoginCodeInput) (LoginResult, error) {
	if confirmed == nil {
		return LoginResult{}, core.Errorf(core.EFORBIDDEN, MsgNotConfirmed)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE users SET failed_login_count = 0, locked_until = NULL
		WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`, userID); err != nil {
		return LoginResult{}, fmt.Errorf("reset failed logins: %w", err)
	}
	return s.afterFirstStep(ctx, userID, LoginInput{TrustedDevice: in.TrustedDevice, ClientIP: in.ClientIP, UserAgent: in.UserAgent})
}
