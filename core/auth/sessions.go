package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// SessionUser is the signed-in user as the web app sees it (API contract).
type SessionUser struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Provider  string    `json:"provider"`
	Roles     []string  `json:"roles"`
	CreatedAt time.Time `json:"created_at"`
	// TwoStepPending: roles that need two-step verification are held back
	// until this session passes it (the app walks the member through it).
	TwoStepPending bool `json:"two_step_pending"`
}

// Tokens are a session's credentials, in plain text only on their way to the client.
type Tokens struct {
	SessionID      string
	Access         string
	AccessExpires  time.Time
	Refresh        string
	RefreshExpires time.Time
	// CSRF is the session's CSRF token (CSRFToken): set as the CSRF cookie.
	CSRF string
}

var errNotAuthenticated = core.NotSignedIn()

// StartSession opens a new session for userID (a new refresh-token family).
func (s *Service) StartSession(ctx context.Context, userID, userAgent string) (Tokens, error) {
	return s.startSession(ctx, userID, userAgent, false)
}

// StartVerifiedSession is StartSession for a session that passed two-step
// verification already (the code step's own path, and test fixtures that sign
// staff in directly).
func (s *Service) StartVerifiedSession(ctx context.Context, userID, userAgent string) (Tokens, error) {
	return s.startSession(ctx, userID, userAgent, true)
}

func (s *Service) startSession(ctx context.Context, userID, userAgent string, twoStep bool) (Tokens, error) {
	var t Tokens
	var newDevice bool
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		now := s.now()
		ends := now.Add(s.opts.MaxSessionAge)
		var mfaAt *time.Time
		if twoStep {
			mfaAt = &now
		}
		// A device (its browser's user agent) none of the account's
		// sessions came from before; the very first sign-in is not news.
		var seen, before bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions WHERE user_id = $1 AND user_agent = $2),
				EXISTS (SELECT 1 FROM sessions WHERE user_id = $1)`, userID, CleanUserAgent(userAgent)).Scan(&seen, &before); err != nil {
			return fmt.Errorf("known devices: %w", err)
		}
		newDevice = before && !seen
		if err := tx.QueryRow(ctx, `INSERT INTO sessions (user_id, user_agent, created_at, last_used_at, expires_at, mfa_at)
			VALUES ($1, $2, $3, $3, $4, $5) RETURNING id`, userID, CleanUserAgent(userAgent), now, s.refreshExpiry(now, ends), mfaAt).Scan(&t.SessionID); err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		var err error
		t, err = s.issueTokens(ctx, tx, t.SessionID, ends)
		return err
	})
	if err == nil && newDevice {
		s.sendNewAccess(ctx, userID, userAgent)
	}
	if err == nil {
		s.runSignInHooks(ctx, userID)
	}
	return t, err
}

// refreshExpiry is when a refresh token issued at now stops working: the
// sliding RefreshTTL, but never past the session's absolute end.
func (s *Service) refreshExpiry(now, sessionEnds time.Time) time.Time {
	if e := now.Add(s.opts.RefreshTTL); e.Before(sessionEnds) {
		return e
	}
	return sessionEnds
}

// issueTokens adds a fresh access and refresh token to sessionID, which ends
// for good at sessionEnds.
func (s *Service) issueTokens(ctx context.Context, tx pgx.Tx, sessionID string, sessionEnds time.Time) (Tokens, error) {
	now := s.now()
	t := Tokens{
		SessionID:      sessionID,
		Access:         randomToken(),
		AccessExpires:  now.Add(s.opts.AccessTTL),
		Refresh:        randomToken(),
		RefreshExpires: s.refreshExpiry(now, sessionEnds),
	}
	if t.AccessExpires.After(t.RefreshExpires) {
		t.AccessExpires = t.RefreshExpires
	}
	var err error
	if t.CSRF, err = s.CSRFToken(ctx, sessionID); err != nil {
		return t, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO session_tokens (token_hash, session_id, kind, created_at, expires_at)
		VALUES ($1, $3, 'access', $5, $6), ($2, $3, 'refresh', $5, $4)`,
		hashToken(t.Access), hashToken(t.Refresh), sessionID, t.RefreshExpires, now, t.AccessExpires)
	if err != nil {
		return t, fmt.Errorf("store session tokens: %w", err)
	}
	return t, nil
}

// PrincipalForAccessToken resolves a valid access token; ok is false for an
// unknown, expired or revoked one.
func (s *Service) PrincipalForAccessToken(ctx context.Context, token string) (core.Principal, bool, error) {
	now := s.now()
	hash := hashToken(token)
	if p, ok := s.cache.get(hash, now); ok {
		return p, true, nil
	}
	// Taken before the read: an invalidation after it voids the fill (put).
	gen := s.cache.begin()
	var p core.Principal
	var info sessionInfo
	var stored []string
	var lastUsed, tokenExpires, sessionExpires, started time.Time
	err := s.pool.QueryRow(ctx, `
		SELECT s.id, u.id, u.email, u.provider, u.created_at, s.last_used_at, t.expires_at, s.expires_at, s.created_at, s.mfa_at IS NOT NULL,
		       coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM user_roles r WHERE r.user_id = u.id), '{}')
		FROM session_tokens t
		JOIN sessions s ON s.id = t.session_id
		JOIN users u ON u.id = s.user_id
		WHERE t.token_hash = $1 AND t.kind = 'access' AND t.expires_at > $2
		  AND s.revoked_at IS NULL AND s.expires_at > $2 AND s.created_at > $3`, hash, now, now.Add(-s.opts.MaxSessionAge)).
		Scan(&p.SessionID, &p.UserID, &p.Email, &info.provider, &info.createdAt, &lastUsed, &tokenExpires, &sessionExpires, &started, &p.TwoStep, &stored)
	if postgres.IsNoRows(err) {
		return core.Visitor, false, nil
	}
	if err != nil {
		return core.Visitor, false, fmt.Errorf("resolve access token: %w", err)
	}
	var rolesUntil time.Time
	if p.Roles, rolesUntil, err = s.rolesOf(ctx, p.UserID, stored); err != nil {
		return core.Visitor, false, err
	}
	p.Roles, p.TwoStepPending = holdBackStepUpRoles(p.Roles, p.TwoStep)
	// last_used_at feeds the session list; a minute's precision saves a write per request.
	if now.Sub(lastUsed) > time.Minute {
		if _, err := s.pool.Exec(ctx, `UPDATE sessions SET last_used_at = $2 WHERE id = $1`, p.SessionID, now); err != nil {
			s.log.WarnContext(ctx, "session last_used_at", "err", err)
		}
	}
	if s.cache.beforePut != nil {
		s.cache.beforePut(p)
	}
	info.csrf = s.csrfToken(p.SessionID)
	until := minTime(now.Add(PrincipalTTL), tokenExpires, sessionExpires, started.Add(s.opts.MaxSessionAge))
	if !rolesUntil.IsZero() {
		until = minTime(until, rolesUntil)
	}
	s.cache.put(hash, p, info, until, gen)
	return p, true, nil
}

func minTime(first time.Time, rest ...time.Time) time.Time {
	for _, t := range rest {
		if t.Before(first) {
			first = t
		}
	}
	return first
}

// Authenticate implements httpapi.Authenticator: a bearer token or the
// access cookie; cookie-authenticated writes must carry the session's CSRF
// token in X-CSRF-Token.
func (s *Service) Authenticate(r *http.Request) (core.Principal, error) {
	token, fromCookie := "", false
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, value, _ := strings.Cut(h, " ")
		if strings.EqualFold(scheme, "Bearer") {
			token = strings.TrimSpace(value)
		}
	}
	if token == "" {
		token = s.cookie(r, CookieAccess)
		fromCookie = token != ""
	}
	if token == "" {
		return core.Visitor, nil
	}
	p, ok, err := s.PrincipalForAccessToken(r.Context(), token)
	if err != nil || !ok {
		return core.Visitor, err
	}
	if fromCookie && unsafeMethod(r.Method) {
		if err := s.checkCSRF(r, p.SessionID); err != nil {
			return core.Visitor, err
		}
	}
	return p, nil
}

var errCSRF = core.Errorf(core.EFORBIDDEN, "Token CSRF inválido. Recarregue a página e tente novamente.")

func unsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

// errRefreshGrace means a just-rotated refresh token came back within the
// grace period (a second tab refreshing at the same moment): Refresh returns
// the user but no new tokens, and the session is not revoked; the browser
// already holds the cookies the first refresh set.
var errRefreshGrace = errors.New("refresh token rotated moments ago")

// Refresh rotates a refresh token: it is spent, and a new access and refresh
// token are issued in the same session. A spent token presented again (after
// the grace period) revokes the whole session: someone holds a copy.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (SessionUser, Tokens, error) {
	var t Tokens
	var userID, rotated string
	hash := hashToken(refreshToken)
	revoked := false
	// This instance drops the session's cached principal at once; the others
	// hear it from the database (principalcache.go).
	defer func() {
		if rotated != "" {
			s.cache.drop("s:" + rotated)
		}
	}()
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		now := s.now()
		var sessionID string
		var usedAt *time.Time
		var sessionRevoked *time.Time
		var started time.Time
		// A session ends for good MaxSessionAge after its sign-in, however
		// often it is refreshed: a stolen refresh token cannot live forever.
		err := tx.QueryRow(ctx, `
			SELECT t.session_id, t.used_at, s.revoked_at, s.user_id, s.created_at
			FROM session_tokens t JOIN sessions s ON s.id = t.session_id
			WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.expires_at > $2 AND s.expires_at > $2
			  AND s.created_at > $3
			FOR UPDATE OF t, s`, hash, now, now.Add(-s.opts.MaxSessionAge)).Scan(&sessionID, &usedAt, &sessionRevoked, &userID, &started)
		if postgres.IsNoRows(err) {
			return errNotAuthenticated
		}
		if err != nil {
			return fmt.Errorf("find refresh token: %w", err)
		}
		if sessionRevoked != nil {
			return errNotAuthenticated
		}
		rotated = sessionID
		if usedAt != nil {
			if now.Sub(*usedAt) < refreshReuseGrace {
				return errRefreshGrace
			}
			if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE id = $1`, sessionID, now); err != nil {
				return fmt.Errorf("revoke reused session: %w", err)
			}
			revoked = true
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE session_tokens SET used_at = $2 WHERE token_hash = $1`, hash, now); err != nil {
			return fmt.Errorf("spend refresh token: %w", err)
		}
		// The old access token dies with the rotation.
		if _, err := tx.Exec(ctx, `DELETE FROM session_tokens WHERE session_id = $1 AND kind = 'access'`, sessionID); err != nil {
			return fmt.Errorf("drop old access token: %w", err)
		}
		ends := started.Add(s.opts.MaxSessionAge)
		if _, err := tx.Exec(ctx, `UPDATE sessions SET last_used_at = $2, expires_at = $3 WHERE id = $1`,
			sessionID, now, s.refreshExpiry(now, ends)); err != nil {
			return fmt.Errorf("extend session: %w", err)
		}
		t, err = s.issueTokens(ctx, tx, sessionID, ends)
		return err
	})
	if revoked {
		s.log.WarnContext(ctx, "refresh token reused: session revoked", "user_id", userID)
		return SessionUser{}, Tokens{}, errNotAuthenticated
	}
	if errors.Is(err, errRefreshGrace) {
		u, uerr := s.sessionUserOfSession(ctx, userID, rotated)
		if uerr != nil {
			return SessionUser{}, Tokens{}, uerr
		}
		return u, Tokens{}, err
	}
	if err != nil {
		return SessionUser{}, Tokens{}, err
	}
	u, err := s.sessionUserOfSession(ctx, userID, t.SessionID)
	return u, t, err
}

// sessionUserOfSession is SessionUser with the session's two-step state
// applied to the roles.
func (s *Service) sessionUserOfSession(ctx context.Context, userID, sessionID string) (SessionUser, error) {
	u, err := s.SessionUser(ctx, userID)
	if err != nil {
		return u, err
	}
	var verified bool
	if err := s.pool.QueryRow(ctx, `SELECT mfa_at IS NOT NULL FROM sessions WHERE id = $1`, sessionID).Scan(&verified); err != nil && !postgres.IsNoRows(err) {
		return u, fmt.Errorf("session two-step state: %w", err)
	}
	u.Roles, u.TwoStepPending = holdBackStepUpRoles(u.Roles, verified)
	return u, nil
}

// SessionUser loads the user as the session endpoint shows it.
func (s *Service) SessionUser(ctx context.Context, userID string) (SessionUser, error) {
	var u SessionUser
	var stored []string
	err := s.pool.QueryRow(ctx, `SELECT id, email, provider, created_at,
		coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM user_roles r WHERE r.user_id = users.id), '{}')
		FROM users WHERE id = $1`, userID).Scan(&u.ID, &u.Email, &u.Provider, &u.CreatedAt, &stored)
	if postgres.IsNoRows(err) {
		return u, errNotAuthenticated
	}
	if err != nil {
		return u, fmt.Errorf("load session user: %w", err)
	}
	u.Roles, _, err = s.rolesOf(ctx, userID, stored)
	return u, err
}

// sessionUserOf is the session endpoint's user for p, a principal
// Authenticate resolved: its id, email and roles, with the provider and
// creation time cached beside it (an account's never change), so a cached
// principal costs no query. Without one, only those two are read.
func (s *Service) sessionUserOf(ctx context.Context, p core.Principal) (SessionUser, error) {
	u := SessionUser{ID: p.UserID, Email: p.Email, Roles: p.Roles, TwoStepPending: p.TwoStepPending}
	if info, ok := s.cache.session(p.SessionID); ok {
		u.Provider, u.CreatedAt = info.provider, info.createdAt
		return u, nil
	}
	err := s.pool.QueryRow(ctx, `SELECT provider, created_at FROM users WHERE id = $1`, p.UserID).Scan(&u.Provider, &u.CreatedAt)
	if postgres.IsNoRows(err) {
		return SessionUser{}, errNotAuthenticated
	}
	if err != nil {
		return SessionUser{}, fmt.Errorf("load session user: %w", err)
	}
	return u, nil
}

// sessionOfRefresh returns the session a refresh token belongs to, if any.
func (s *Service) sessionOfRefresh(ctx context.Context, refreshToken string) (string, bool, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT session_id FROM session_tokens WHERE token_hash = $1 AND kind = 'refresh'`,
		hashToken(refreshToken)).Scan(&id)
	if postgres.IsNoRows(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("find session: %w", err)
	}
	return id, true, nil
}

// EndSession revokes one session (sign-out of this device).
func (s *Service) EndSession(ctx context.Context, sessionID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, sessionID, s.now())
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	s.cache.drop("s:" + sessionID)
	return nil
}

// SessionInfo is one entry of a user's session list.
type SessionInfo struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	UserAgent  string    `json:"user_agent"`
	Current    bool      `json:"current"`
}

// Sessions lists userID's live sessions, most recently used first.
func (s *Service) Sessions(ctx context.Context, userID, currentSessionID string) ([]SessionInfo, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, created_at, last_used_at, user_agent FROM sessions
		WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
		ORDER BY last_used_at DESC, created_at DESC`, userID, s.now())
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []SessionInfo{}
	for rows.Next() {
		var si SessionInfo
		if err := rows.Scan(&si.ID, &si.CreatedAt, &si.LastUsedAt, &si.UserAgent); err != nil {
			return nil, fmt.Errorf("scan session: %w", err)
		}
		si.Current = si.ID == currentSessionID
		out = append(out, si)
	}
	return out, rows.Err()
}

var errSessionNotFound = core.Errorf(core.ENOTFOUND, "Sessão não encontrada")

// RevokeSession ends one of userID's own sessions.
func (s *Service) RevokeSession(ctx context.Context, userID, sessionID string) error {
	if _, err := uuid.Parse(sessionID); err != nil {
		return errSessionNotFound
	}
	tag, err := s.pool.Exec(ctx, `UPDATE sessions SET revoked_at = $3
		WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`, sessionID, userID, s.now())
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errSessionNotFound
	}
	s.cache.drop("s:" + sessionID)
	return nil
}

// MaxUserAgentBytes bounds the stored User-Agent.
const MaxUserAgentBytes = 512

// CleanUserAgent is the User-Agent as stored with a session and shown in the
// session list: invalid UTF-8 and control characters (which PostgreSQL text
// cannot hold, or which would garble the list) removed, and cut to
// MaxUserAgentBytes on a character boundary. The header is the client's to
// choose, so it must never be able to fail a sign-in.
func CleanUserAgent(ua string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(ua, "") {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > MaxUserAgentBytes {
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}
