package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/postgres"
)

// Two-step verification (TOTP, RFC 6238) and its recovery codes.
const (
	ChallengeTTL         = 5 * time.Minute
	TrustedDeviceTTL     = 30 * 24 * time.Hour
	MaxChallengeFailures = 5
	RecoveryCodeCount    = 10
	totpPeriod           = 30
	totpIssuer           = "VetClube"
)

const (
	MsgTwoStepRequired  = "Digite o código de verificação do seu aplicativo autenticador."
	MsgTwoStepBadCode   = "Código de verificação inválido."
	MsgTwoStepExpired   = "A verificação expirou. Entre novamente."
	MsgTwoStepLimited   = "Muitas tentativas de código. Aguarde um momento."
	MsgTwoStepActive    = "A verificação em duas etapas já está ativa."
	MsgTwoStepNotActive = "A verificação em duas etapas não está ativa."
	MsgTwoStepNoEnrol   = "Comece a ativação novamente: gere um novo QR code."
	MsgTwoStepEnabled   = "Verificação em duas etapas ativada."
	MsgTwoStepDisabled  = "Verificação em duas etapas desativada."
	MsgTwoStepBadPass   = "Senha incorreta."
)

// stepUpRoles may act only from a session that passed two-step verification.
var stepUpRoles = []string{core.RoleSuperAdmin, core.RoleRevisor, core.RoleModerador}

// holdBackStepUpRoles leaves the roles that need two-step verification out
// of an unverified session's roles; pending says some were held back.
func holdBackStepUpRoles(roles []string, verified bool) ([]string, bool) {
	if verified {
		return roles, false
	}
	pending := false
	kept := make([]string, 0, len(roles))
	for _, r := range roles {
		if slices.Contains(stepUpRoles, r) {
			pending = true
			continue
		}
		kept = append(kept, r)
	}
	return kept, pending
}

// normaliseCode drops spaces and dashes and lower-cases what a member typed.
func normaliseCode(code string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "\u00a0", "").Replace(strings.TrimSpace(code)))
}

func isTOTPCode(c string) bool {
	if len(c) != 6 {
		return false
	}
	for _, r := range c {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// totpStep returns the 30-second step, among now's and its two neighbours
// (clock skew), whose code is code; 0 when none.
func totpStep(secret, code string, now time.Time) uint64 {
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	base := uint64(now.Unix()) / totpPeriod
	for _, step := range []uint64{base, base - 1, base + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(int64(step*totpPeriod), 0), opts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step
		}
	}
	return 0
}

// TOTPCode is the code of secret at t (dev seed output and tests).
func TOTPCode(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
}

// useSecondFactor spends code for userID: a TOTP code of a step later than
// the last accepted one (a code is never accepted twice), or an unused
// recovery code. It reports whether the code was good.
func (s *Service) useSecondFactor(ctx context.Context, userID, code string) (bool, error) {
	c := normaliseCode(code)
	if isTOTPCode(c) {
		var secret string
		err := s.pool.QueryRow(ctx, `SELECT secret FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL`, userID).Scan(&secret)
		if postgres.IsNoRows(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("load totp: %w", err)
		}
		step := totpStep(secret, c, s.now())
		if step == 0 {
			return false, nil
		}
		tag, err := s.pool.Exec(ctx, `UPDATE user_totp SET last_step = $2 WHERE user_id = $1 AND last_step < $2`, userID, int64(step))
		if err != nil {
			return false, fmt.Errorf("spend totp step: %w", err)
		}
		return tag.RowsAffected() == 1, nil
	}
	if len(c) != 10 {
		return false, nil
	}
	tag, err := s.pool.Exec(ctx, `UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
		userID, hashToken(c), s.now())
	if err != nil {
		return false, fmt.Errorf("spend recovery code: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// twoStepEnabled reports whether userID confirmed a TOTP enrolment.
func (s *Service) twoStepEnabled(ctx context.Context, userID string) (bool, error) {
	var on bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL)`, userID).Scan(&on)
	if err != nil {
		return false, fmt.Errorf("two-step state: %w", err)
	}
	return on, nil
}

// trustedDevice reports whether token is a remembered device of userID.
func (s *Service) trustedDevice(ctx context.Context, userID, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM trusted_devices WHERE token_hash = $1 AND user_id = $2 AND expires_at > $3)`,
		hashToken(token), userID, s.now()).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("trusted device: %w", err)
	}
	return ok, nil
}

// afterFirstStep finishes a sign-in whose password (or Google) step passed:
// a session at once for an account without two-step verification or on a
// remembered device; otherwise a challenge the code step answers (or the code
// sent along with the password, checked through that same step).
func (s *Service) afterFirstStep(ctx context.Context, userID string, in LoginInput) (LoginResult, error) {
	on, err := s.twoStepEnabled(ctx, userID)
	if err != nil {
		return LoginResult{}, err
	}
	verified := false
	if on {
		if verified, err = s.trustedDevice(ctx, userID, in.TrustedDevice); err != nil {
			return LoginResult{}, err
		}
		if !verified {
			now := s.now()
			challenge := randomToken()
			if _, err := s.pool.Exec(ctx, `INSERT INTO mfa_challenges (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
				hashToken(challenge), userID, now, now.Add(ChallengeTTL)); err != nil {
				return LoginResult{}, fmt.Errorf("create two-step challenge: %w", err)
			}
			if in.Code == "" {
				return LoginResult{Challenge: challenge}, nil
			}
			return s.VerifyTwoStep(ctx, TwoStepInput{Challenge: challenge, Code: in.Code, Remember: in.Remember, ClientIP: in.ClientIP, UserAgent: in.UserAgent})
		}
	}
	tokens, err := s.startSession(ctx, userID, in.UserAgent, verified)
	if err != nil {
		return LoginResult{}, err
	}
	u, err := s.sessionUserOfSession(ctx, userID, tokens.SessionID)
	if err != nil {
		return LoginResult{}, err
	}
	return LoginResult{User: u, Tokens: tokens}, nil
}

// TwoStepInput is the code step of a sign-in.
type TwoStepInput struct {
	Challenge string
	Code      string
	Remember  bool // remember this device for TrustedDeviceTTL
	ClientIP  string
	UserAgent string
}

// VerifyTwoStep answers a sign-in's challenge with a TOTP or recovery code.
// Wrong codes count toward the account's lockout like wrong passwords; the
// challenge dies after MaxChallengeFailures of them or ChallengeTTL.
func (s *Service) VerifyTwoStep(ctx context.Context, in TwoStepInput) (LoginResult, error) {
	if in.Challenge == "" {
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgTwoStepExpired)
	}
	if strings.TrimSpace(in.Code) == "" || len(in.Code) > 64 {
		return LoginResult{}, core.Errorf(core.EINVALID, MsgTwoStepRequired)
	}
	now := s.now()
	hash := hashToken(in.Challenge)
	var userID string
	var lockedUntil *time.Time
	err := s.pool.QueryRow(ctx, `SELECT c.user_id, u.locked_until FROM mfa_challenges c JOIN users u ON u.id = c.user_id
		WHERE c.token_hash = $1 AND c.spent_at IS NULL AND c.expires_at > $2`, hash, now).Scan(&userID, &lockedUntil)
	if postgres.IsNoRows(err) {
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgTwoStepExpired)
	}
	if err != nil {
		return LoginResult{}, fmt.Errorf("find two-step challenge: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(now) {
		return LoginResult{}, lockedError(*lockedUntil)
	}
	if err := s.limit(ctx, "twostep:user:"+userID, s.opts.LoginPerEmail, MsgTwoStepLimited); err != nil {
		return LoginResult{}, err
	}
	if err := s.limit(ctx, "login:ip:"+in.ClientIP, s.opts.LoginPerIP, MsgLoginLimited); err != nil {
		return LoginResult{}, err
	}
	ok, err := s.useSecondFactor(ctx, userID, in.Code)
	if err != nil {
		return LoginResult{}, err
	}
	if !ok {
		if _, err := s.pool.Exec(ctx, `UPDATE mfa_challenges SET failures = failures + 1,
				spent_at = CASE WHEN failures + 1 >= $2 THEN $3 ELSE spent_at END
			WHERE token_hash = $1`, hash, MaxChallengeFailures, now); err != nil {
			return LoginResult{}, fmt.Errorf("count two-step failure: %w", err)
		}
		until, locked, err := s.recordFailure(ctx, userID)
		if err != nil {
			return LoginResult{}, err
		}
		if locked {
			return LoginResult{}, lockedError(until)
		}
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgTwoStepBadCode)
	}
	// One session per challenge, even for two good codes at once.
	tag, err := s.pool.Exec(ctx, `UPDATE mfa_challenges SET spent_at = $2 WHERE token_hash = $1 AND spent_at IS NULL`, hash, now)
	if err != nil {
		return LoginResult{}, fmt.Errorf("spend two-step challenge: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgTwoStepExpired)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE users SET failed_login_count = 0, locked_until = NULL
		WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`, userID); err != nil {
		return LoginResult{}, fmt.Errorf("reset failed logins: %w", err)
	}
	tokens, err := s.startSession(ctx, userID, in.UserAgent, true)
	if err != nil {
		return LoginResult{}, err
	}
	u, err := s.sessionUserOfSession(ctx, userID, tokens.SessionID)
	if err != nil {
		return LoginResult{}, err
	}
	res := LoginResult{User: u, Tokens: tokens}
	if in.Remember {
		res.TrustedDevice = randomToken()
		if _, err := s.pool.Exec(ctx, `INSERT INTO trusted_devices (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			hashToken(res.TrustedDevice), userID, now, now.Add(TrustedDeviceTTL)); err != nil {
			return LoginResult{}, fmt.Errorf("remember device: %w", err)
		}
	}
	return res, nil
}

// TwoStepStatus is what Segurança shows.
type TwoStepStatus struct {
	Enabled           bool `json:"enabled"`
	RecoveryCodesLeft int  `json:"recovery_codes_left"`
	// Required: the account holds a role that needs two-step verification.
	Required bool `json:"required"`
}

// TwoStepStatusOf reads userID's two-step state.
func (s *Service) TwoStepStatusOf(ctx context.Context, userID string) (TwoStepStatus, error) {
	var st TwoStepStatus
	err := s.pool.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL),
			(SELECT count(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL),
			EXISTS (SELECT 1 FROM user_roles WHERE user_id = $1 AND role = ANY($2))`, userID, stepUpRoles).
		Scan(&st.Enabled, &st.RecoveryCodesLeft, &st.Required)
	if err != nil {
		return st, fmt.Errorf("two-step status: %w", err)
	}
	return st, nil
}

// TOTPEnrolment is a new, unconfirmed secret shown to the member.
type TOTPEnrolment struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
	QRCode     string `json:"qr_code"` // data:image/png;base64,…
}

// BeginTOTP creates (or replaces) userID's unconfirmed TOTP secret.
func (s *Service) BeginTOTP(ctx context.Context, userID string) (TOTPEnrolment, error) {
	var email string
	if err := s.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, userID).Scan(&email); err != nil {
		return TOTPEnrolment{}, fmt.Errorf("load user: %w", err)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: email, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("generate totp: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO user_totp AS t (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = 0
		WHERE t.confirmed_at IS NULL`, userID, key.Secret(), s.now())
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("store totp: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return TOTPEnrolment{}, core.Errorf(core.ECONFLICT, MsgTwoStepActive)
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("qr code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return TOTPEnrolment{}, fmt.Errorf("qr code: %w", err)
	}
	return TOTPEnrolment{Secret: key.Secret(), OTPAuthURL: key.URL(), QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// ConfirmTOTP turns the enrolment on with a code of the new secret, marks
// sessionID as verified and returns the recovery codes (shown once).
func (s *Service) ConfirmTOTP(ctx context.Context, userID, sessionID, code string) ([]string, error) {
	if err := s.limit(ctx, "twostep:user:"+userID, s.opts.LoginPerEmail, MsgTwoStepLimited); err != nil {
		return nil, err
	}
	var secret string
	var confirmed *time.Time
	err := s.pool.QueryRow(ctx, `SELECT secret, confirmed_at FROM user_totp WHERE user_id = $1`, userID).Scan(&secret, &confirmed)
	if postgres.IsNoRows(err) {
		return nil, core.Errorf(core.ECONFLICT, MsgTwoStepNoEnrol)
	}
	if err != nil {
		return nil, fmt.Errorf("load totp: %w", err)
	}
	if confirmed != nil {
		return nil, core.Errorf(core.ECONFLICT, MsgTwoStepActive)
	}
	c := normaliseCode(code)
	step := uint64(0)
	if isTOTPCode(c) {
		step = totpStep(secret, c, s.now())
	}
	if step == 0 {
		return nil, core.Errorf(core.EINVALID, MsgTwoStepBadCode)
	}
	codes := make([]string, RecoveryCodeCount)
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE user_totp SET confirmed_at = $3, last_step = $2 WHERE user_id = $1 AND confirmed_at IS NULL AND secret = $4`,
			userID, int64(step), s.now(), secret)
		if err != nil {
			return fmt.Errorf("confirm totp: %w", err)
		}
		if tag.RowsAffected() != 1 {
			return core.Errorf(core.ECONFLICT, MsgTwoStepActive)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("drop old recovery codes: %w", err)
		}
		for i := range codes {
			codes[i] = newRecoveryCode()
			if _, err := tx.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, hashToken(normaliseCode(codes[i]))); err != nil {
				return fmt.Errorf("store recovery code: %w", err)
			}
		}
		if sessionID != "" {
			if _, err := tx.Exec(ctx, `UPDATE sessions SET mfa_at = $3 WHERE id = $1 AND user_id = $2`, sessionID, userID, s.now()); err != nil {
				return fmt.Errorf("verify session: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.InvalidatePrincipalsOf(userID)
	s.sendSecurityNotice(ctx, userID, "Verificação em duas etapas ativada",
		"A verificação em duas etapas foi ativada na sua conta do VetClube em %s (horário de Brasília).")
	return codes, nil
}

// newRecoveryCode is 10 characters of an unambiguous alphabet, shown xxxxx-xxxxx.
func newRecoveryCode() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:5]) + "-" + string(b[5:])
}

// DisableTOTP turns two-step verification off, with the account's password
// (when it has one) and a current code; every session loses its verified
// state and remembered devices are forgotten.
func (s *Service) DisableTOTP(ctx context.Context, userID, pass, code string) error {
	if err := s.limit(ctx, "twostep:user:"+userID, s.opts.LoginPerEmail, MsgTwoStepLimited); err != nil {
		return err
	}
	var hash *string
	var lockedUntil *time.Time
	if err := s.pool.QueryRow(ctx, `SELECT password_hash, locked_until FROM users WHERE id = $1`, userID).Scan(&hash, &lockedUntil); err != nil {
		return fmt.Errorf("load user: %w", err)
	}
	if lockedUntil != nil && lockedUntil.After(s.now()) {
		return lockedError(*lockedUntil)
	}
	on, err := s.twoStepEnabled(ctx, userID)
	if err != nil {
		return err
	}
	if !on {
		return core.Errorf(core.ECONFLICT, MsgTwoStepNotActive)
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
		if len(pass) > 1024 {
			return fail(MsgTwoStepBadPass)
		}
		ok, err := password.Verify(pass, *hash)
		if err != nil {
			return fmt.Errorf("verify password: %w", err)
		}
		if !ok {
			return fail(MsgTwoStepBadPass)
		}
	}
	ok, err := s.useSecondFactor(ctx, userID, code)
	if err != nil {
		return err
	}
	if !ok {
		return fail(MsgTwoStepBadCode)
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		for _, q := range []string{
			`DELETE FROM user_totp WHERE user_id = $1`,
			`DELETE FROM recovery_codes WHERE user_id = $1`,
			`DELETE FROM trusted_devices WHERE user_id = $1`,
			`DELETE FROM mfa_challenges WHERE user_id = $1`,
			`UPDATE sessions SET mfa_at = NULL WHERE user_id = $1 AND mfa_at IS NOT NULL`,
		} {
			if _, err := tx.Exec(ctx, q, userID); err != nil {
				return fmt.Errorf("disable two-step: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.InvalidatePrincipalsOf(userID)
	s.sendSecurityNotice(ctx, userID, "Verificação em duas etapas desativada",
		"A verificação em duas etapas foi desativada na sua conta do VetClube em %s (horário de Brasília).")
	return nil
}

// EnrolFixedTOTP enrols userID with a known secret, confirmed (the
// development seed only, so the backoffice stays reachable in a demo).
func (s *Service) EnrolFixedTOTP(ctx context.Context, userID, secret string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO user_totp (user_id, secret, confirmed_at, created_at) VALUES ($1, $2, $3, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, confirmed_at = coalesce(user_totp.confirmed_at, excluded.confirmed_at)`,
		userID, secret, s.now())
	if err != nil {
		return fmt.Errorf("enrol fixed totp: %w", err)
	}
	return nil
}
