package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	_ "time/tzdata" // the lockout time is shown in America/Sao_Paulo on any host
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/ratelimit"
	"github.com/vetclube/vetclube/core/roles"
	"github.com/vetclube/vetclube/core/text"
)

// User-facing messages (pt-BR, shown as they are).
const (
	MsgSignupOK        = "Conta criada com sucesso! Verifique seu email para confirmação."
	MsgSignupLimited   = "Muitas tentativas de cadastro. Aguarde um momento."
	MsgLoginOK         = "Login realizado com sucesso!"
	MsgBadCredentials  = "Email ou senha incorretos"
	MsgNotConfirmed    = "Email não confirmado. Verifique sua caixa de entrada."
	MsgLoginLimited    = "Muitas tentativas de login. Aguarde um momento."
	MsgLockedFmt       = "Conta bloqueada devido a muitas tentativas de login falhadas. Tente novamente após %s."
	MsgLogoutOK        = "Logout realizado com sucesso!"
	MsgResetSent       = "Email de recuperação enviado!"
	MsgConfirmOK       = "Email confirmado com sucesso! Faça login para continuar."
	MsgConfirmInvalid  = "Link de confirmação inválido ou expirado."
	MsgResendOK        = "Se o email estiver cadastrado e ainda não confirmado, enviamos um novo link de confirmação."
	MsgResetOK         = "Senha redefinida com sucesso! Faça login com sua nova senha."
	MsgResetInvalid    = "Link de recuperação inválido ou expirado."
	msgInvalidData     = "Dados inválidos."
	msgEmailInvalid    = "Informe um email válido."
	msgFirstNameNeeded = "Informe seu nome."
	msgLastNameNeeded  = "Informe seu sobrenome."
	// MsgNameNoLinks refuses a name carrying a link, an address or markup.
	MsgNameNoLinks = "O nome não pode conter links, endereços de email ou marcação."
)

var saoPaulo = mustLoadLocation("America/Sao_Paulo")

func mustLoadLocation(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is embedded, so this cannot happen
	}
	return loc
}

// NormaliseEmail trims and lower-cases an address, as stored.
func NormaliseEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// MaxEmailLength is the longest address accepted (RFC 5321's path limit).
const MaxEmailLength = 254

func validEmail(email string) bool {
	// Length and characters first: a huge or binary input is refused before
	// any parsing, rate-limit key or query is built from it.
	if email == "" || len(email) > MaxEmailLength || !utf8.ValidString(email) {
		return false
	}
	for _, r := range email {
		if r <= ' ' || r == 0x7f || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && strings.Contains(email[strings.LastIndex(email, "@"):], ".")
}

// checkEmail refuses an address that cannot be an account's, with the
// field's message. Every endpoint taking an email runs it before its rate
// limiter, whose key is built from the address.
func checkEmail(email string) error {
	if !validEmail(email) {
		return core.Invalid(msgEmailInvalid, map[string]string{"email": msgEmailInvalid})
	}
	return nil
}

// checkPasswordLength refuses an over-long password before it is hashed.
func checkPasswordLength(pass string) error {
	if password.TooLong(pass) {
		msg := password.Message([]string{password.ReasonTooLong})
		return core.Invalid(msg, map[string]string{"password": msg})
	}
	return nil
}

// SignupInput is the sign-up form.
type SignupInput struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Email        string `json:"email"`
	Password     string `json:"password"`
	ReferralCode string `json:"referral_code,omitempty"`
	// DeviceID is the PWA's first-party device id (the referral checks).
	DeviceID string `json:"device_id,omitempty"`
	// Intent "premium_monthly" (/register-premium): the confirmation link
	// also signs in, and the page continues to the monthly checkout.
	Intent string `json:"intent,omitempty"`
}

// IntentPremiumMonthly is the only sign-up intent.
const IntentPremiumMonthly = "premium_monthly"

// Signup creates an unconfirmed account and emails its confirmation link.
// An address already registered gets the same answer and no new account, so
// sign-up does not reveal who has an account.
func (s *Service) Signup(ctx context.Context, in SignupInput, clientIP string) error {
	_, err := s.SignupWithMessage(ctx, in, clientIP)
	return err
}

// SignupWithMessage is Signup answering the message to show: with a
// referral code, whether the code was taken (it depends on the code only,
// never on whether the address was registered).
func (s *Service) SignupWithMessage(ctx context.Context, in SignupInput, clientIP string) (string, error) {
	email := NormaliseEmail(in.Email)
	if reasons := password.Validate(in.Password, email); len(reasons) > 0 {
		msg := password.Message(reasons)
		return "", core.Invalid(msg, map[string]string{"password": msg})
	}
	fields := map[string]string{}
	if !validEmail(email) {
		fields["email"] = msgEmailInvalid
	}
	// Names are shown to other members: invisible and bidirectional-override
	// characters are removed and a letter is required (core/text).
	first, firstOK := text.CleanName(in.FirstName)
	last, lastOK := text.CleanName(in.LastName)
	if !firstOK || utf8.RuneCountInString(first) > 100 {
		fields["first_name"] = msgFirstNameNeeded
	} else if text.HasLinkOrMarkup(first) {
		fields["first_name"] = MsgNameNoLinks
	}
	if !lastOK || utf8.RuneCountInString(last) > 100 {
		fields["last_name"] = msgLastNameNeeded
	} else if text.HasLinkOrMarkup(last) {
		fields["last_name"] = MsgNameNoLinks
	}
	referral := strings.TrimSpace(in.ReferralCode)
	if len(referral) > 64 {
		fields["referral_code"] = "Código de indicação inválido."
	}
	if in.Intent != "" && in.Intent != IntentPremiumMonthly {
		fields["intent"] = "Plano inválido."
	}
	if len(fields) > 0 {
		return "", core.Invalid(msgInvalidData, fields)
	}
	if err := s.limit(ctx, "signup:email:"+email, s.opts.SignupPerEmail, MsgSignupLimited); err != nil {
		return "", err
	}
	if err := s.limit(ctx, "signup:ip:"+clientIP, s.opts.SignupPerIP, MsgSignupLimited); err != nil {
		return "", err
	}
	hash, err := s.opts.Hash.Hash(in.Password)
	if err != nil {
		return "", err
	}
	message := MsgSignupOK
	rec := s.referralRecorder()
	referralOK := false
	if referral != "" && rec != nil {
		if referralOK, err = rec.KnownCode(ctx, referral); err != nil {
			s.log.ErrorContext(ctx, "check referral code", "err", err)
			referralOK = false
		}
	}
	meta, _ := json.Marshal(map[string]string{"first_name": first, "last_name": last})
	var referralArg *string
	if referral != "" {
		referralArg = &referral
	}
	var created string
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		created = ""
		// ON CONFLICT makes two simultaneous sign-ups of one address create one account.
		var userID string
		err := tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, provider, metadata, referral_code)
			VALUES ($1, $2, 'email', $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id`,
			email, hash, meta, referralArg).Scan(&userID)
		if err != nil && !postgres.IsNoRows(err) {
			return fmt.Errorf("create account: %w", err)
		}
		// A registered address gets the same answer (sign-up does not tell
		// who is registered) and its owner hears about the attempt. Either
		// way the email is one queued request in this same transaction, so
		// both cases cost the same writes.
		kind := mailConfirm
		if in.Intent == IntentPremiumMonthly {
			kind = mailConfirmPremium
		}
		if userID == "" {
			kind = mailRegistered
		} else if referralOK {
			created = userID
			referralOK = s.recordReferral(ctx, tx, rec, NewAccount{UserID: userID, Email: email,
				ReferralCode: referral, DeviceID: in.DeviceID, IP: clientIP})
		}
		return s.requestMail(ctx, tx, kind, email)
	})
	if err != nil {
		return "", err
	}
	s.kickMail()
	if referral != "" && rec != nil {
		if created != "" && referralOK {
			rec.AfterSignup(ctx, created)
		}
		message = MsgSignupReferralFailed
		if referralOK {
			message = MsgSignupReferralOK
		}
	}
	return message, nil
}

// limit counts one hit and refuses with msg beyond rule.
func (s *Service) limit(ctx context.Context, key string, rule ratelimit.Rule, msg string) error {
	ok, err := s.limiter.Allow(ctx, key, rule)
	if err != nil {
		return err
	}
	if !ok {
		return core.Errorf(core.ERATELIMITED, "%s", msg)
	}
	return nil
}

// newEmailTokenAt stores a single-use link token for userID, valid for ttl
// from created (when it was asked for).
func (s *Service) newEmailTokenAt(ctx context.Context, tx pgx.Tx, userID, purpose string, created time.Time, ttl time.Duration) (string, error) {
	token := randomToken()
	now := created
	_, err := tx.Exec(ctx, `INSERT INTO email_tokens (token_hash, user_id, purpose, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, hashToken(token), userID, purpose, now, now.Add(ttl))
	if err != nil {
		return "", fmt.Errorf("store %s token: %w", purpose, err)
	}
	return token, nil
}

// spendEmailToken marks a live token used and returns its user.
func (s *Service) spendEmailToken(ctx context.Context, tx pgx.Tx, token, purpose string) (string, bool, error) {
	var userID string
	now := s.now()
	err := tx.QueryRow(ctx, `UPDATE email_tokens SET used_at = $3
		WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
		RETURNING user_id`, hashToken(token), purpose, now).Scan(&userID)
	if postgres.IsNoRows(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("spend %s token: %w", purpose, err)
	}
	return userID, true, nil
}

// confirmEmail marks userID confirmed and reports whether it was not before.
func (s *Service) confirmEmail(ctx context.Context, tx pgx.Tx, userID string) (bool, error) {
	tag, err := tx.Exec(ctx, `UPDATE users SET email_confirmed_at = $2, updated_at = $2
		WHERE id = $1 AND email_confirmed_at IS NULL`, userID, s.now())
	if err != nil {
		return false, fmt.Errorf("confirm email: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Confirm spends a confirmation link.
func (s *Service) Confirm(ctx context.Context, token string) error {
	_, _, err := s.confirm(ctx, token)
	return err
}

// confirm spends a confirmation link and reports whose it was and whether it
// also signs in (a /register-premium link, purpose confirm_signin).
func (s *Service) confirm(ctx context.Context, token string) (userID string, signIn bool, err error) {
	var newly bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		id, ok, err := s.spendEmailToken(ctx, tx, token, "confirm")
		if err != nil {
			return err
		}
		if !ok {
			if id, ok, err = s.spendEmailToken(ctx, tx, token, "confirm_signin"); err != nil {
				return err
			}
			signIn = ok
		}
		if !ok {
			return core.Errorf(core.EINVALID, MsgConfirmInvalid)
		}
		userID = id
		newly, err = s.confirmEmail(ctx, tx, id)
		return err
	})
	if err != nil {
		return "", false, err
	}
	if newly {
		s.RunEmailConfirmedHooks(ctx, userID)
	}
	return userID, signIn, nil
}

// ResendConfirmation emails a new link to an unconfirmed account. It answers
// the same whatever the address, and is limited like sign-up (silently): the
// request only queues the email (see requestMail).
func (s *Service) ResendConfirmation(ctx context.Context, email string) error {
	email = NormaliseEmail(email)
	if err := checkEmail(email); err != nil {
		return err
	}
	if ok, err := s.limiter.Allow(ctx, "resend:email:"+email, s.opts.SignupPerEmail); err != nil || !ok {
		return err
	}
	if err := s.requestMail(ctx, s.pool, mailConfirm, email); err != nil {
		return err
	}
	s.kickMail()
	return nil
}

// LoginResult is a successful sign-in.
type LoginResult struct {
	User   SessionUser
	Tokens Tokens
	// Challenge, when set, means no session yet: the account has two-step
	// verification and the code step (VerifyTwoStep) answers this challenge.
	Challenge string
	// TrustedDevice is a new remembered-device token (the code step with
	// "Lembrar este dispositivo").
	TrustedDevice string
}

// LoginInput is a password sign-in, with what the browser sent beside it.
type LoginInput struct {
	Email, Password     string
	Code                string // optional: the two-step code sent along
	Remember            bool
	TrustedDevice       string // the remembered-device cookie
	ClientIP, UserAgent string
}

// Login signs in with a password, in this order: lockout check,
// rate limit, then the password. Unknown emails are treated like known ones:
// one hash verification, and failures counted and locked the same way (in
// login_lockouts), so neither the time nor the answer tells whether an
// account exists.
func (s *Service) Login(ctx context.Context, email, pass, clientIP, userAgent string) (LoginResult, error) {
	return s.LoginWith(ctx, LoginInput{Email: email, Password: pass, ClientIP: clientIP, UserAgent: userAgent})
}

// LoginWith is Login, followed by the two-step verification when the account has it.
func (s *Service) LoginWith(ctx context.Context, in LoginInput) (LoginResult, error) {
	email, pass, clientIP := NormaliseEmail(in.Email), in.Password, in.ClientIP
	if err := checkEmail(email); err != nil {
		return LoginResult{}, err
	}
	if err := checkPasswordLength(pass); err != nil {
		return LoginResult{}, err
	}
	var userID string
	var hash *string
	var confirmed *time.Time
	var lockedUntil *time.Time
	err := s.pool.QueryRow(ctx, `SELECT id, password_hash, email_confirmed_at, locked_until FROM users WHERE email = $1`, email).
		Scan(&userID, &hash, &confirmed, &lockedUntil)
	found := err == nil
	if err != nil && !postgres.IsNoRows(err) {
		return LoginResult{}, fmt.Errorf("find account: %w", err)
	}
	if err := s.signInGate(ctx, email, clientIP, found, lockedUntil); err != nil {
		return LoginResult{}, err
	}
	stored := s.dummyHash
	if found && hash != nil {
		stored = *hash
	}
	ok, err := password.Verify(pass, stored)
	if err != nil {
		return LoginResult{}, fmt.Errorf("verify password: %w", err)
	}
	if !found || hash == nil || !ok {
		var until time.Time
		var locked bool
		if found {
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
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgBadCredentials)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE users SET failed_login_count = 0, locked_until = NULL
		WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`, userID); err != nil {
		return LoginResult{}, fmt.Errorf("reset failed logins: %w", err)
	}
	if confirmed == nil {
		return LoginResult{}, core.Errorf(core.EFORBIDDEN, MsgNotConfirmed)
	}
	return s.afterFirstStep(ctx, userID, in)
}

// recordFailure counts a wrong password; the MaxFailedLogins-th in a row
// locks the account and starts a new count.
func (s *Service) recordFailure(ctx context.Context, userID string) (time.Time, bool, error) {
	var until *time.Time
	err := s.pool.QueryRow(ctx, `UPDATE users SET
			locked_until = CASE WHEN failed_login_count + 1 >= $2 THEN $3 ELSE locked_until END,
			failed_login_count = CASE WHEN failed_login_count + 1 >= $2 THEN 0 ELSE failed_login_count + 1 END
		WHERE id = $1 RETURNING locked_until`, userID, MaxFailedLogins, s.now().Add(LockoutDuration)).Scan(&until)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("record failed login: %w", err)
	}
	if until != nil && until.After(s.now()) {
		return *until, true, nil
	}
	return time.Time{}, false, nil
}

// recordUnknownFailure is recordFailure for an address without an account,
// so that it locks after as many failures as a real one.
func (s *Service) recordUnknownFailure(ctx context.Context, email string) (time.Time, bool, error) {
	var until *time.Time
	now := s.now()
	err := s.pool.QueryRow(ctx, `INSERT INTO login_lockouts AS l (email, failed_count, updated_at) VALUES ($1, 1, $3)
		ON CONFLICT (email) DO UPDATE SET
			locked_until = CASE WHEN l.failed_count + 1 >= $2 THEN $4 ELSE l.locked_until END,
			failed_count = CASE WHEN l.failed_count + 1 >= $2 THEN 0 ELSE l.failed_count + 1 END,
			updated_at = $3
		RETURNING locked_until`, email, MaxFailedLogins, now, now.Add(LockoutDuration)).Scan(&until)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("record failed login: %w", err)
	}
	if until != nil && until.After(now) {
		return *until, true, nil
	}
	return time.Time{}, false, nil
}

func lockedError(until time.Time) error {
	return core.Errorf(core.ELOCKED, MsgLockedFmt, until.In(saoPaulo).Format("15:04"))
}

// ForgotPassword emails a reset link when the address has an account. The
// caller always answers MsgResetSent; the request only queues the email (see
// requestMail), so it takes the same time for any address.
func (s *Service) ForgotPassword(ctx context.Context, email string) error {
	email = NormaliseEmail(email)
	if err := checkEmail(email); err != nil {
		return err
	}
	if ok, err := s.limiter.Allow(ctx, "forgot:email:"+email, s.opts.SignupPerEmail); err != nil || !ok {
		return err
	}
	if err := s.requestMail(ctx, s.pool, mailReset, email); err != nil {
		return err
	}
	s.kickMail()
	return nil
}

func firstNameOf(meta map[string]string) string {
	if meta["first_name"] != "" {
		return meta["first_name"]
	}
	return meta["given_name"]
}

// ResetPassword sets a new password through a reset link: the link is spent,
// every session is revoked and the lockout cleared. A refused password leaves
// the link usable.
func (s *Service) ResetPassword(ctx context.Context, token, newPassword string) error {
	var userID string
	var newly bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		now := s.now()
		var email string
		err := tx.QueryRow(ctx, `SELECT u.id, u.email FROM email_tokens t JOIN users u ON u.id = t.user_id
			WHERE t.token_hash = $1 AND t.purpose = 'reset' AND t.used_at IS NULL AND t.expires_at > $2
			FOR UPDATE OF t`, hashToken(token), now).Scan(&userID, &email)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.EINVALID, MsgResetInvalid)
		}
		if err != nil {
			return fmt.Errorf("find reset token: %w", err)
		}
		if reasons := password.Validate(newPassword, email); len(reasons) > 0 {
			msg := password.Message(reasons)
			return core.Invalid(msg, map[string]string{"password": msg})
		}
		hash, err := s.opts.Hash.Hash(newPassword)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, failed_login_count = 0, locked_until = NULL,
			updated_at = $3 WHERE id = $1`, userID, hash, now); err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		// Every outstanding reset link dies with this one.
		if _, err := tx.Exec(ctx, `UPDATE email_tokens SET used_at = $2
			WHERE user_id = $1 AND purpose = 'reset' AND used_at IS NULL`, userID, now); err != nil {
			return fmt.Errorf("spend reset tokens: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, userID, now); err != nil {
			return fmt.Errorf("revoke sessions: %w", err)
		}
		// Following the emailed link proves the address, like a confirmation.
		newly, err = s.confirmEmail(ctx, tx, userID)
		return err
	})
	if err != nil {
		return err
	}
	s.InvalidatePrincipalsOf(userID)
	if newly {
		s.RunEmailConfirmedHooks(ctx, userID)
	}
	return nil
}

// NewUser is an account created directly (seed, tests, admin tools).
type NewUser struct {
	Email     string
	Password  string
	FirstName string
	LastName  string
	Roles     []string // user_roles rows: super_admin, editor
}

// CreateConfirmedUser creates a confirmed email account, or returns the
// existing one's id (adding any missing roles) so callers may repeat it. It
// does not run the email-confirmed hooks; callers that want them call
// RunEmailConfirmedHooks.
func (s *Service) CreateConfirmedUser(ctx context.Context, u NewUser) (userID string, created bool, err error) {
	email := NormaliseEmail(u.Email)
	hash, err := s.opts.Hash.Hash(u.Password)
	if err != nil {
		return "", false, err
	}
	meta, _ := json.Marshal(map[string]string{"first_name": u.FirstName, "last_name": u.LastName})
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, provider, metadata, email_confirmed_at)
			VALUES ($1, $2, 'email', $3, now()) ON CONFLICT (email) DO NOTHING RETURNING id`, email, hash, meta).Scan(&userID)
		if postgres.IsNoRows(err) {
			err = tx.QueryRow(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&userID)
		} else if err == nil {
			created = true
		}
		if err != nil {
			return fmt.Errorf("create account %s: %w", email, err)
		}
		return roles.GrantTx(ctx, tx, userID, u.Roles...)
	})
	return userID, created, err
}

// Email is userID's e-mail address (for mail about the account sent by
// other packages, such as the trial reminders). An unknown id is ENOTFOUND.
func (s *Service) Email(ctx context.Context, userID string) (string, error) {
	var email string
	err := s.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1::uuid`, userID).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", core.Errorf(core.ENOTFOUND, "Conta não encontrada.")
	}
	if err != nil {
		return "", fmt.Errorf("account email: %w", err)
	}
	return email, nil
}

// AccountFacts tells when userID's account was made and whether its e-mail
// is confirmed: what moderation weighs a report by. An unknown id is
// ENOTFOUND.
func (s *Service) AccountFacts(ctx context.Context, userID string) (createdAt time.Time, confirmed bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT created_at, email_confirmed_at IS NOT NULL FROM users WHERE id = $1::uuid`, userID).Scan(&createdAt, &confirmed)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, core.Errorf(core.ENOTFOUND, "Conta não encontrada.")
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("account facts: %w", err)
	}
	return createdAt, confirmed, nil
}

// signInGate is what every way of signing in checks first, in the sign-in
// order: the lockout (the account's, or for an unknown address the e-mail's
// own, so both answer alike), then the rate limits per e-mail and per IP.
func (s *Service) signInGate(ctx context.Context, email, clientIP string, found bool, lockedUntil *time.Time) error {
	if !found {
		if err := s.pool.QueryRow(ctx, `SELECT locked_until FROM login_lockouts WHERE email = $1`, email).Scan(&lockedUntil); err != nil && !postgres.IsNoRows(err) {
			return fmt.Errorf("find lockout: %w", err)
		}
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return lockedError(*lockedUntil)
	}
	if err := s.limit(ctx, "login:email:"+email, s.opts.LoginPerEmail, MsgLoginLimited); err != nil {
		return err
	}
	return s.limit(ctx, "login:ip:"+clientIP, s.opts.LoginPerIP, MsgLoginLimited)
}
