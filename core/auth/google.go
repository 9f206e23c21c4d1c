package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"

	"github.com/vetclube/vetclube/core/postgres"
)

// GoogleConfig enables Google sign-in (OpenID Connect). Issuer is Google's in
// production and a local provider (cmd/devoidc, mockoidc) in development and tests.
type GoogleConfig struct {
	ClientID     string
	ClientSecret string
	Issuer       string
	// HTTPClient talks to the provider; nil uses http.DefaultClient.
	HTTPClient *http.Client
}

const oauthStateTTL = 10 * time.Minute

// google holds the provider, discovered on first use so the server starts
// even while the provider is unreachable.
type google struct {
	cfg         GoogleConfig
	redirectURL string

	mu       sync.Mutex
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
}

func newGoogle(cfg GoogleConfig, publicURL string) *google {
	return &google{cfg: cfg, redirectURL: publicURL + "/api/auth/google/callback"}
}

func (g *google) ctx(ctx context.Context) context.Context {
	if g.cfg.HTTPClient != nil {
		return oidc.ClientContext(ctx, g.cfg.HTTPClient)
	}
	return ctx
}

func (g *google) discover(ctx context.Context) (*oauth2.Config, *oidc.IDTokenVerifier, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.oauth != nil {
		return g.oauth, g.verifier, nil
	}
	p, err := oidc.NewProvider(g.ctx(ctx), g.cfg.Issuer)
	if err != nil {
		return nil, nil, fmt.Errorf("discover OpenID provider %s: %w", g.cfg.Issuer, err)
	}
	g.oauth = &oauth2.Config{
		ClientID:     g.cfg.ClientID,
		ClientSecret: g.cfg.ClientSecret,
		Endpoint:     endpointInParams(p.Endpoint()),
		RedirectURL:  g.redirectURL,
		Scopes:       []string{oidc.ScopeOpenID, "email", "profile"},
	}
	g.verifier = p.Verifier(&oidc.Config{ClientID: g.cfg.ClientID})
	return g.oauth, g.verifier, nil
}

// endpointInParams sends the client credentials in the token request body
// (client_secret_post, which Google supports) instead of probing both styles,
// so one failed exchange is one provider error.
func endpointInParams(e oauth2.Endpoint) oauth2.Endpoint {
	e.AuthStyle = oauth2.AuthStyleInParams
	return e
}

// GoogleEnabled reports whether Google sign-in is configured.
func (s *Service) GoogleEnabled() bool { return s.google != nil }

// GoogleError is a failed Google sign-in: Code goes to /login?google_error=,
// Message is the pt-BR text the sign-in page shows.
type GoogleError struct {
	Code    string
	Message string
	Err     error
}

func (e *GoogleError) Error() string { return e.Code + ": " + e.Message }
func (e *GoogleError) Unwrap() error { return e.Err }

// Messages the sign-in page shows for the provider's errors.
const (
	MsgGoogleUnauthorizedClient = "Configuração OAuth incorreta..."
	MsgGoogleRedirectMismatch   = "URL de redirecionamento não autorizada..."
	MsgGoogleAccessDenied       = "Acesso negado pelo usuário."
	MsgGoogleOtherFmt           = "Erro ao fazer login com Google: %s"
	MsgGoogleUnexpected         = "Erro inesperado ao fazer login com Google"
)

// providerError maps an OAuth error code from the provider (in the callback
// query or the token response) to the members' pt-BR messages.
func providerError(code, description string) *GoogleError {
	switch code {
	case "unauthorized_client":
		return &GoogleError{Code: code, Message: MsgGoogleUnauthorizedClient}
	case "redirect_uri_mismatch":
		return &GoogleError{Code: code, Message: MsgGoogleRedirectMismatch}
	case "access_denied":
		return &GoogleError{Code: code, Message: MsgGoogleAccessDenied}
	}
	detail := description
	if detail == "" {
		detail = code
	}
	return &GoogleError{Code: code, Message: fmt.Sprintf(MsgGoogleOtherFmt, detail)}
}

func unexpectedGoogle(err error) *GoogleError {
	return &GoogleError{Code: "unexpected", Message: MsgGoogleUnexpected, Err: err}
}

// maxRedirectLen bounds the stored post-sign-in path.
const maxRedirectLen = 2048

// safeRedirect returns p when it is a path on this site that every browser
// reads the same way, and "/" otherwise. The checked string is returned as is
// and must be sent as is (never cleaned or resolved again): cleaning
// "/../\evil.example" after the check produced "/\evil.example", which
// browsers follow to another host. Refused: anything not starting with exactly
// one "/", a backslash, a control character or invalid UTF-8 anywhere (raw or
// percent-encoded), "." or ".." path segments, and a decoded path that starts
// with "//".
func safeRedirect(p string) string {
	if p == "" || len(p) > maxRedirectLen || p[0] != '/' || strings.HasPrefix(p, "//") || !cleanURLText(p) {
		return "/"
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	decoded := []string{u.Path, u.Fragment}
	if q, err := url.QueryUnescape(u.RawQuery); err == nil {
		decoded = append(decoded, q)
	} else {
		return "/"
	}
	for _, d := range decoded {
		if !cleanURLText(d) {
			return "/"
		}
	}
	if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return "/"
		}
	}
	return p
}

// cleanURLText reports whether s is valid UTF-8 without backslashes or
// control characters, which browsers strip or treat as "/" when reading a URL.
func cleanURLText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\\' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return false
		}
	}
	return true
}

// GoogleStart begins a sign-in: it records state, nonce and PKCE verifier
// and returns the provider URL and the state for the browser-binding cookie.
func (s *Service) GoogleStart(ctx context.Context, redirect string) (authURL, state string, err error) {
	if s.google == nil {
		return "", "", errors.New("google sign-in is not configured")
	}
	oc, _, err := s.google.discover(ctx)
	if err != nil {
		return "", "", err
	}
	state, nonce, verifier := randomToken(), randomToken(), oauth2.GenerateVerifier()
	now := s.now()
	if _, err := s.pool.Exec(ctx, `INSERT INTO oauth_states (state_hash, nonce, verifier, redirect, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, hashToken(state), nonce, verifier, safeRedirect(redirect), now.Add(oauthStateTTL)); err != nil {
		return "", "", fmt.Errorf("store oauth state: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM oauth_states WHERE expires_at < $1`, now); err != nil {
		s.log.WarnContext(ctx, "prune oauth states", "err", err)
	}
	authURL = oc.AuthCodeURL(state,
		oidc.Nonce(nonce),
		oauth2.S256ChallengeOption(verifier),
		oauth2.AccessTypeOffline,
		oauth2.SetAuthURLParam("prompt", "select_account"))
	return authURL, state, nil
}

// googleClaims are the ID-token claims VetClube uses.
type googleClaims struct {
	Subject       string `json:"sub"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
	GivenName     string `json:"given_name"`
	FamilyName    string `json:"family_name"`
	Picture       string `json:"picture"`
	Nonce         string `json:"nonce"`
}

// GoogleCallback finishes a sign-in from the provider's redirect. cookieState
// is the state the browser-binding cookie carried. It returns where to send
// the browser next and the new session.
func (s *Service) GoogleCallback(ctx context.Context, q url.Values, cookieState, userAgent string) (string, LoginResult, *GoogleError) {
	return s.googleCallback(ctx, q, cookieState, userAgent, "")
}

func (s *Service) googleCallback(ctx context.Context, q url.Values, cookieState, userAgent, trustedDevice string) (string, LoginResult, *GoogleError) {
	if s.google == nil {
		return "", LoginResult{}, unexpectedGoogle(errors.New("google sign-in is not configured"))
	}
	state := q.Get("state")
	var nonce, verifier, redirect string
	if state != "" {
		err := s.pool.QueryRow(ctx, `DELETE FROM oauth_states WHERE state_hash = $1 AND expires_at > $2
			RETURNING nonce, verifier, redirect`, hashToken(state), s.now()).Scan(&nonce, &verifier, &redirect)
		if err != nil && !postgres.IsNoRows(err) {
			return "", LoginResult{}, unexpectedGoogle(fmt.Errorf("load oauth state: %w", err))
		}
	}
	if code := q.Get("error"); code != "" {
		return "", LoginResult{}, providerError(code, q.Get("error_description"))
	}
	if verifier == "" || cookieState == "" || cookieState != state {
		return "", LoginResult{}, unexpectedGoogle(errors.New("unknown, expired or foreign oauth state"))
	}
	oc, idVerifier, err := s.google.discover(ctx)
	if err != nil {
		return "", LoginResult{}, unexpectedGoogle(err)
	}
	tok, err := oc.Exchange(s.google.ctx(ctx), q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			ge := providerError(re.ErrorCode, re.ErrorDescription)
			ge.Err = err
			return "", LoginResult{}, ge
		}
		return "", LoginResult{}, unexpectedGoogle(fmt.Errorf("exchange code: %w", err))
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return "", LoginResult{}, unexpectedGoogle(errors.New("token response without id_token"))
	}
	idTok, err := idVerifier.Verify(s.google.ctx(ctx), raw)
	if err != nil {
		return "", LoginResult{}, unexpectedGoogle(fmt.Errorf("verify id token: %w", err))
	}
	var c googleClaims
	if err := idTok.Claims(&c); err != nil {
		return "", LoginResult{}, unexpectedGoogle(fmt.Errorf("id token claims: %w", err))
	}
	if c.Nonce != nonce {
		return "", LoginResult{}, unexpectedGoogle(errors.New("id token nonce mismatch"))
	}
	c.Email = NormaliseEmail(c.Email)
	if !c.EmailVerified || !validEmail(c.Email) {
		return "", LoginResult{}, &GoogleError{Code: "email_not_verified",
			Message: fmt.Sprintf(MsgGoogleOtherFmt, "o email da conta Google não está verificado")}
	}
	userID, newlyConfirmed, err := s.googleAccount(ctx, c)
	if err != nil {
		return "", LoginResult{}, unexpectedGoogle(err)
	}
	if newlyConfirmed {
		s.RunEmailConfirmedHooks(ctx, userID)
	}
	// Two-step verification applies after Google as after a password.
	res, err := s.afterFirstStep(ctx, userID, LoginInput{UserAgent: userAgent, TrustedDevice: trustedDevice})
	if err != nil {
		return "", LoginResult{}, unexpectedGoogle(err)
	}
	// Checked again on the way out: a row stored by an older version may not
	// have passed today's rule.
	return safeRedirect(redirect), res, nil
}

// googleAccount finds the account for a Google identity: by its subject, else
// by the (verified) email, linking it, else a new confirmed account carrying
// the profile metadata. newlyConfirmed is true when this confirmed the email.
func (s *Service) googleAccount(ctx context.Context, c googleClaims) (userID string, newlyConfirmed bool, err error) {
	meta, _ := json.Marshal(map[string]string{"given_name": c.GivenName, "family_name": c.FamilyName, "picture": c.Picture})
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT user_id FROM user_identities WHERE provider = 'google' AND subject = $1`, c.Subject).Scan(&userID)
		if err == nil {
			return nil
		}
		if !postgres.IsNoRows(err) {
			return fmt.Errorf("find google identity: %w", err)
		}
		// A new account, or the existing one with this email (concurrent
		// callbacks for one address meet on the unique email).
		var created bool
		err = tx.QueryRow(ctx, `INSERT INTO users (email, provider, metadata, email_confirmed_at)
			VALUES ($1, 'google', $2, $3)
			ON CONFLICT (email) DO UPDATE SET updated_at = users.updated_at
			RETURNING id, (xmax = 0)`, c.Email, meta, s.now()).Scan(&userID, &created)
		if err != nil {
			return fmt.Errorf("create google account: %w", err)
		}
		if !created {
			if newlyConfirmed, err = s.confirmEmail(ctx, tx, userID); err != nil {
				return err
			}
			if newlyConfirmed {
				// Nobody proved owning the address when this unconfirmed
				// account's password was set; Google just did, so that
				// password must not keep working.
				if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = NULL WHERE id = $1`, userID); err != nil {
					return fmt.Errorf("drop unproven password: %w", err)
				}
			}
			// Keep Google's names and picture for the profile's fallbacks without
			// overwriting what the sign-up form stored.
			if _, err := tx.Exec(ctx, `UPDATE users SET metadata = $2::jsonb || metadata WHERE id = $1`, userID, meta); err != nil {
				return fmt.Errorf("merge google metadata: %w", err)
			}
		} else {
			newlyConfirmed = true
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_identities (provider, subject, user_id, email)
			VALUES ('google', $1, $2, $3)`, c.Subject, userID, c.Email); err != nil {
			return fmt.Errorf("link google identity: %w", err)
		}
		return nil
	})
	return userID, newlyConfirmed, err
}
