package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Passkeys (WebAuthn discoverable credentials). A passkey signs in without a
// password and, because the authenticator verifies the member (PIN or
// biometrics) on top of holding the key, it counts as the second step for the
// roles that need one.
const (
	// CeremonyTTL is how long a WebAuthn challenge may be answered.
	CeremonyTTL = 5 * time.Minute
	// MaxPasskeys bounds the passkeys of one member.
	MaxPasskeys = 20
	// maxPasskeyResponse bounds the browser's JSON answer to a ceremony.
	maxPasskeyResponse = 64 << 10
	maxPasskeyName     = 60
)

const (
	MsgPasskeyExpired   = "A solicitação da passkey expirou. Tente novamente."
	MsgPasskeyInvalid   = "Não foi possível verificar a passkey. Tente novamente."
	MsgPasskeyUnknown   = "Esta passkey não está cadastrada no VetClube."
	MsgPasskeyCloned    = "Esta passkey foi recusada por segurança: o contador do autenticador voltou atrás, sinal de uma cópia. Use outra forma de entrar e remova esta passkey em Segurança."
	MsgPasskeyDuplicate = "Esta passkey já está cadastrada."
	MsgPasskeyTooMany   = "Você já tem 20 passkeys. Remova uma antes de adicionar outra."
	MsgPasskeyBadName   = "Dê um nome de 1 a 60 caracteres à passkey."
	MsgPasskeyNotFound  = "Passkey não encontrada."
	MsgPasskeyLimited   = "Muitas tentativas com passkey. Aguarde um momento."
	MsgPasskeyAdded     = "Passkey adicionada."
	MsgPasskeyRemoved   = "Passkey removida."
	MsgPasskeyRenamed   = "Passkey renomeada."
)

// Passkey is what Segurança lists.
type Passkey struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
}

// PasskeyCeremony is a started registration or sign-in: the options the
// browser passes to navigator.credentials and the token that names the
// challenge kept on the server.
type PasskeyCeremony struct {
	Ceremony string `json:"ceremony"`
	Options  any    `json:"options"`
}

// webAuthn is the relying party for PublicURL. An IP address cannot be a
// relying party id, so a development server on 127.0.0.1 serves passkeys as
// "localhost" (the browser is then pointed at http://localhost:port).
func (s *Service) webAuthn() (*webauthn.WebAuthn, error) {
	u, err := url.Parse(s.opts.PublicURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("webauthn: public url %q", s.opts.PublicURL)
	}
	rpID := u.Hostname()
	origins := []string{u.Scheme + "://" + u.Host}
	if rpID == "127.0.0.1" || rpID == "::1" {
		rpID = "localhost"
		host := "localhost"
		if p := u.Port(); p != "" {
			host += ":" + p
		}
		origins = append(origins, u.Scheme+"://"+host)
	}
	return webauthn.New(&webauthn.Config{RPID: rpID, RPDisplayName: "VetClube", RPOrigins: origins})
}

// passkeyUser is a member as the WebAuthn library sees them: the user handle
// is the account id's 16 bytes.
type passkeyUser struct {
	id          string
	email, name string
	creds       []webauthn.Credential
}

func (u *passkeyUser) WebAuthnID() []byte {
	id := uuid.MustParse(u.id)
	return id[:]
}
func (u *passkeyUser) WebAuthnName() string                       { return u.email }
func (u *passkeyUser) WebAuthnDisplayName() string                { return u.name }
func (u *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// loadPasskeyUser reads userID's account and passkeys; the stored counter is
// the authority on each credential's sign count.
func (s *Service) loadPasskeyUser(ctx context.Context, userID string) (*passkeyUser, error) {
	u := &passkeyUser{id: userID}
	var meta map[string]string
	if err := s.pool.QueryRow(ctx, `SELECT email, metadata FROM users WHERE id = $1`, userID).Scan(&u.email, &meta); err != nil {
		return nil, err
	}
	u.name = strings.TrimSpace(meta["first_name"] + " " + meta["last_name"])
	if u.name == "" {
		u.name = u.email
	}
	rows, err := s.pool.Query(ctx, `SELECT credential, sign_count FROM passkeys WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("load passkeys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var raw []byte
		var count int64
		if err := rows.Scan(&raw, &count); err != nil {
			return nil, fmt.Errorf("load passkeys: %w", err)
		}
		var c webauthn.Credential
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("decode passkey: %w", err)
		}
		c.Authenticator.SignCount = uint32(count)
		u.creds = append(u.creds, c)
	}
	return u, rows.Err()
}

// storeCeremony keeps session (the challenge and what the answer must match)
// for CeremonyTTL and returns the token naming it.
func (s *Service) storeCeremony(ctx context.Context, userID *string, purpose string, session *webauthn.SessionData) (string, error) {
	raw, err := json.Marshal(session)
	if err != nil {
		return "", fmt.Errorf("encode ceremony: %w", err)
	}
	token := randomToken()
	now := s.now()
	if _, err := s.pool.Exec(ctx, `INSERT INTO webauthn_ceremonies (token_hash, user_id, purpose, session, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, hashToken(token), userID, purpose, raw, now, now.Add(CeremonyTTL)); err != nil {
		return "", fmt.Errorf("store ceremony: %w", err)
	}
	return token, nil
}

// spendCeremony takes the ceremony token names out of the table (so it
// answers once, whatever the outcome) and returns its session if it is of
// purpose, of userID (nil: a sign-in) and not expired.
func (s *Service) spendCeremony(ctx context.Context, token, purpose string, userID *string) (webauthn.SessionData, error) {
	var session webauthn.SessionData
	if token == "" || len(token) > 128 {
		return session, core.Errorf(core.ECONFLICT, MsgPasskeyExpired)
	}
	var raw []byte
	var owner *string
	var expires time.Time
	err := s.pool.QueryRow(ctx, `DELETE FROM webauthn_ceremonies WHERE token_hash = $1 AND purpose = $2
		RETURNING session, user_id::text, expires_at`, hashToken(token), purpose).Scan(&raw, &owner, &expires)
	if postgres.IsNoRows(err) {
		return session, core.Errorf(core.ECONFLICT, MsgPasskeyExpired)
	}
	if err != nil {
		return session, fmt.Errorf("spend ceremony: %w", err)
	}
	if !expires.After(s.now()) || (userID == nil) != (owner == nil) || (userID != nil && *owner != *userID) {
		return session, core.Errorf(core.ECONFLICT, MsgPasskeyExpired)
	}
	if err := json.Unmarshal(raw, &session); err != nil {
		return session, fmt.Errorf("decode ceremony: %w", err)
	}
	// Expiry is this service's clock's to decide (checked above).
	session.Expires = time.Time{}
	return session, nil
}

// BeginPasskeyRegistration starts adding a passkey to userID's account: a
// discoverable credential with user verification, none of the member's
// passkeys again.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, userID string) (PasskeyCeremony, error) {
	if err := s.limit(ctx, "passkey:user:"+userID, s.opts.LoginPerEmail, MsgPasskeyLimited); err != nil {
		return PasskeyCeremony{}, err
	}
	wa, err := s.webAuthn()
	if err != nil {
		return PasskeyCeremony{}, err
	}
	u, err := s.loadPasskeyUser(ctx, userID)
	if postgres.IsNoRows(err) {
		return PasskeyCeremony{}, errNotAuthenticated
	}
	if err != nil {
		return PasskeyCeremony{}, err
	}
	if len(u.creds) >= MaxPasskeys {
		return PasskeyCeremony{}, core.Errorf(core.ECONFLICT, MsgPasskeyTooMany)
	}
	exclude := make([]protocol.CredentialDescriptor, 0, len(u.creds))
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	creation, session, err := wa.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey:        protocol.ResidentKeyRequirementRequired,
			RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification:   protocol.VerificationRequired,
		}),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation),
		webauthn.WithExclusions(exclude))
	if err != nil {
		return PasskeyCeremony{}, fmt.Errorf("begin registration: %w", err)
	}
	token, err := s.storeCeremony(ctx, &userID, "register", session)
	if err != nil {
		return PasskeyCeremony{}, err
	}
	return PasskeyCeremony{Ceremony: token, Options: creation}, nil
}

// cleanPasskeyName trims name and checks it is 1–60 printable characters.
func cleanPasskeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxPasskeyName {
		return "", core.Invalid(MsgPasskeyBadName, map[string]string{"name": MsgPasskeyBadName})
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "", core.Invalid(MsgPasskeyBadName, map[string]string{"name": MsgPasskeyBadName})
		}
	}
	return name, nil
}

// FinishPasskeyRegistration checks the authenticator's answer to ceremony
// (its signature over the challenge, the origin, user verification) and
// stores the new passkey under name.
func (s *Service) FinishPasskeyRegistration(ctx context.Context, userID, ceremony, name string, response []byte) (Passkey, error) {
	name, err := cleanPasskeyName(name)
	if err != nil {
		return Passkey{}, err
	}
	session, err := s.spendCeremony(ctx, ceremony, "register", &userID)
	if err != nil {
		return Passkey{}, err
	}
	if len(response) == 0 || len(response) > maxPasskeyResponse {
		return Passkey{}, core.Errorf(core.EINVALID, MsgPasskeyInvalid)
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		s.log.InfoContext(ctx, "passkey registration refused", "user_id", userID, "err", err)
		return Passkey{}, core.Errorf(core.EINVALID, MsgPasskeyInvalid)
	}
	wa, err := s.webAuthn()
	if err != nil {
		return Passkey{}, err
	}
	u, err := s.loadPasskeyUser(ctx, userID)
	if err != nil {
		return Passkey{}, err
	}
	cred, err := wa.CreateCredential(u, session, parsed)
	if err != nil {
		s.log.InfoContext(ctx, "passkey registration refused", "user_id", userID, "err", err, "info", devInfo(err))
		return Passkey{}, core.Errorf(core.EINVALID, MsgPasskeyInvalid)
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return Passkey{}, fmt.Errorf("encode passkey: %w", err)
	}
	p := Passkey{Name: name, CreatedAt: s.now()}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		// Serialises one member's additions so the cap holds.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
			return fmt.Errorf("lock user: %w", err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM passkeys WHERE user_id = $1`, userID).Scan(&n); err != nil {
			return fmt.Errorf("count passkeys: %w", err)
		}
		if n >= MaxPasskeys {
			return core.Errorf(core.ECONFLICT, MsgPasskeyTooMany)
		}
		err := tx.QueryRow(ctx, `INSERT INTO passkeys (user_id, credential_id, name, credential, sign_count, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING RETURNING id::text`,
			userID, cred.ID, name, raw, int64(cred.Authenticator.SignCount), p.CreatedAt).Scan(&p.ID)
		if postgres.IsNoRows(err) {
			return core.Errorf(core.ECONFLICT, MsgPasskeyDuplicate)
		}
		if err != nil {
			return fmt.Errorf("store passkey: %w", err)
		}
		return nil
	})
	if err != nil {
		return Passkey{}, err
	}
	s.sendSecurityNotice(ctx, userID, "Passkey adicionada à sua conta",
		"Em %s (horário de Brasília), uma passkey foi adicionada à sua conta do VetClube: \""+name+"\". Com ela é possível entrar sem senha.")
	return p, nil
}

// devInfo is the library's developer detail of a refused ceremony, for the log.
func devInfo(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe.Details + " " + pe.DevInfo
	}
	return ""
}

// BeginPasskeyLogin starts a sign-in with any passkey of this site (the
// browser offers the member's discoverable credentials).
func (s *Service) BeginPasskeyLogin(ctx context.Context, clientIP string) (PasskeyCeremony, error) {
	if err := s.limit(ctx, "login:ip:"+clientIP, s.opts.LoginPerIP, MsgLoginLimited); err != nil {
		return PasskeyCeremony{}, err
	}
	wa, err := s.webAuthn()
	if err != nil {
		return PasskeyCeremony{}, err
	}
	assertion, session, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return PasskeyCeremony{}, fmt.Errorf("begin passkey login: %w", err)
	}
	token, err := s.storeCeremony(ctx, nil, "login", session)
	if err != nil {
		return PasskeyCeremony{}, err
	}
	return PasskeyCeremony{Ceremony: token, Options: assertion}, nil
}

// PasskeyLoginInput is the answer to a passkey sign-in.
type PasskeyLoginInput struct {
	Ceremony  string
	Response  []byte
	ClientIP  string
	UserAgent string
}

// LoginWithPasskey checks a passkey's signature over the ceremony's challenge
// and opens a session that counts as two-step verified. The authenticator's
// counter must grow (or stay 0 for authenticators that keep none): a counter
// that does not is a cloned key, and is refused.
func (s *Service) LoginWithPasskey(ctx context.Context, in PasskeyLoginInput) (LoginResult, error) {
	if err := s.limit(ctx, "login:ip:"+in.ClientIP, s.opts.LoginPerIP, MsgLoginLimited); err != nil {
		return LoginResult{}, err
	}
	session, err := s.spendCeremony(ctx, in.Ceremony, "login", nil)
	if err != nil {
		return LoginResult{}, err
	}
	if len(in.Response) == 0 || len(in.Response) > maxPasskeyResponse {
		return LoginResult{}, core.Errorf(core.EINVALID, MsgPasskeyInvalid)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(in.Response)
	if err != nil {
		s.log.InfoContext(ctx, "passkey sign-in refused", "err", err)
		return LoginResult{}, core.Errorf(core.EINVALID, MsgPasskeyInvalid)
	}
	wa, err := s.webAuthn()
	if err != nil {
		return LoginResult{}, err
	}
	var confirmed *time.Time
	var unknown bool
	user, cred, err := wa.ValidatePasskeyLogin(func(rawID, userHandle []byte) (webauthn.User, error) {
		id, err := uuid.FromBytes(userHandle)
		if err != nil {
			unknown = true
			return nil, err
		}
		if err := s.pool.QueryRow(ctx, `SELECT email_confirmed_at FROM users WHERE id = $1`, id.String()).Scan(&confirmed); err != nil {
			unknown = unknown || postgres.IsNoRows(err)
			return nil, err
		}
		u, err := s.loadPasskeyUser(ctx, id.String())
		if err != nil {
			return nil, err
		}
		found := false
		for _, c := range u.creds {
			found = found || string(c.ID) == string(rawID)
		}
		if !found {
			unknown = true
			return nil, errors.New("credential not of this user")
		}
		return u, nil
	}, session, parsed)
	if err != nil {
		s.log.InfoContext(ctx, "passkey sign-in refused", "err", err, "info", devInfo(err))
		if unknown {
			return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgPasskeyUnknown)
		}
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgPasskeyInvalid)
	}
	userID := user.(*passkeyUser).id
	if cred.Authenticator.CloneWarning {
		s.log.WarnContext(ctx, "passkey counter went back: refused as a possible clone", "user_id", userID)
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgPasskeyCloned)
	}
	if confirmed == nil {
		return LoginResult{}, core.Errorf(core.EFORBIDDEN, MsgNotConfirmed)
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return LoginResult{}, fmt.Errorf("encode passkey: %w", err)
	}
	// Compare-and-set on the counter: of two answers carrying the same
	// counter (a replay, or a clone used at once), only one passes.
	newCount := int64(cred.Authenticator.SignCount)
	tag, err := s.pool.Exec(ctx, `UPDATE passkeys SET sign_count = $3, credential = $4, last_used_at = $5
		WHERE user_id = $1 AND credential_id = $2 AND (sign_count < $3 OR (sign_count = 0 AND $3 = 0))`,
		userID, cred.ID, newCount, raw, s.now())
	if err != nil {
		return LoginResult{}, fmt.Errorf("update passkey: %w", err)
	}
	if tag.RowsAffected() != 1 {
		s.log.WarnContext(ctx, "passkey counter not above the stored one: refused as a possible clone", "user_id", userID)
		return LoginResult{}, core.Errorf(core.EUNAUTHORIZED, MsgPasskeyCloned)
	}
	tokens, err := s.startSession(ctx, userID, in.UserAgent, true)
	if err != nil {
		return LoginResult{}, err
	}
	u, err := s.sessionUserOfSession(ctx, userID, tokens.SessionID)
	if err != nil {
		return LoginResult{}, err
	}
	return LoginResult{User: u, Tokens: tokens}, nil
}

// Passkeys lists userID's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, userID string) ([]Passkey, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text, name, created_at, last_used_at FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	defer rows.Close()
	list := []Passkey{}
	for rows.Next() {
		var p Passkey
		if err := rows.Scan(&p.ID, &p.Name, &p.CreatedAt, &p.LastUsedAt); err != nil {
			return nil, fmt.Errorf("list passkeys: %w", err)
		}
		list = append(list, p)
	}
	return list, rows.Err()
}

// RenamePasskey renames one of userID's passkeys (another member's is not found).
func (s *Service) RenamePasskey(ctx context.Context, userID, id, name string) error {
	name, err := cleanPasskeyName(name)
	if err != nil {
		return err
	}
	if uuid.Validate(id) != nil || len(id) != 36 {
		return core.Errorf(core.ENOTFOUND, MsgPasskeyNotFound)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2`, id, userID, name)
	if err != nil {
		return fmt.Errorf("rename passkey: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return core.Errorf(core.ENOTFOUND, MsgPasskeyNotFound)
	}
	return nil
}

// RemovePasskey deletes one of userID's passkeys and tells the member.
func (s *Service) RemovePasskey(ctx context.Context, userID, id string) error {
	if uuid.Validate(id) != nil || len(id) != 36 {
		return core.Errorf(core.ENOTFOUND, MsgPasskeyNotFound)
	}
	var name string
	err := s.pool.QueryRow(ctx, `DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING name`, id, userID).Scan(&name)
	if postgres.IsNoRows(err) {
		return core.Errorf(core.ENOTFOUND, MsgPasskeyNotFound)
	}
	if err != nil {
		return fmt.Errorf("remove passkey: %w", err)
	}
	s.sendSecurityNotice(ctx, userID, "Passkey removida da sua conta",
		"Em %s (horário de Brasília), uma passkey foi removida da sua conta do VetClube: \""+name+"\".")
	return nil
}
