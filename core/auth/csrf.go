package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The CSRF token of a session is HMAC-SHA256(secret, session id), where the
// secret is generated once per database (server_secrets), so every instance
// derives the same token and a token from one session, or a made-up
// cookie+header pair, is useless in another. It stays the same for the
// session's whole life (refreshes included), so tabs never disagree.
const csrfSecretName = "csrf"

// loadCSRFSecret reads the database's CSRF secret, creating it on first
// use. Two instances starting at once both insert; the first wins and both
// read the winner back.
func loadCSRFSecret(ctx context.Context, pool *pgxpool.Pool) ([]byte, error) {
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	if _, err := pool.Exec(ctx, `INSERT INTO server_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
		csrfSecretName, fresh); err != nil {
		return nil, fmt.Errorf("store csrf secret: %w", err)
	}
	var key []byte
	if err := pool.QueryRow(ctx, `SELECT secret FROM server_secrets WHERE name = $1`, csrfSecretName).Scan(&key); err != nil {
		return nil, fmt.Errorf("load csrf secret: %w", err)
	}
	return key, nil
}

// CSRFToken returns the token a client signed in to sessionID echoes in
// X-CSRF-Token on cookie-authenticated writes. The server hands it over in
// the CSRF cookie with every session.
func (s *Service) CSRFToken(ctx context.Context, sessionID string) (string, error) {
	return s.csrfToken(sessionID), nil
}

func (s *Service) csrfToken(sessionID string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte("vc-csrf\x00" + sessionID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// sessionCSRF is sessionID's CSRF token, as cached with the session's
// principal when it is (PrincipalForAccessToken derives it once per fill),
// derived otherwise.
func (s *Service) sessionCSRF(sessionID string) string {
	if info, ok := s.cache.session(sessionID); ok && info.csrf != "" {
		return info.csrf
	}
	return s.csrfToken(sessionID)
}

// checkCSRF verifies that r's X-CSRF-Token is sessionID's token. Only the
// header is compared: a cookie can be planted by a sibling site, and the
// token cannot be computed without the server's secret.
func (s *Service) checkCSRF(r *http.Request, sessionID string) error {
	header := r.Header.Get("X-CSRF-Token")
	if header == "" {
		return errCSRF
	}
	want := s.sessionCSRF(sessionID)
	if subtle.ConstantTimeCompare([]byte(header), []byte(want)) != 1 {
		return errCSRF
	}
	return nil
}

// Cookie name prefixes used when cookies are Secure: browsers accept a
// "__Host-" cookie only from a secure origin, for Path=/ and without Domain,
// so a sibling subdomain or a plain-http page cannot plant or overwrite it.
// The refresh and OAuth-state cookies have narrower paths, which "__Host-"
// forbids, so they take "__Secure-".
const (
	hostPrefix   = "__Host-"
	securePrefix = "__Secure-"
)

// CookieName is the name under which the cookie base (CookieAccess,
// CookieRefresh, CookieCSRF) is set and read: the plain name on plain-http
// local development, the prefixed one otherwise.
func (s *Service) CookieName(base string) string {
	if !s.secureCookies {
		return base
	}
	if base == CookieRefresh || base == cookieOAuth {
		return securePrefix + base
	}
	return hostPrefix + base
}

// cookie returns the value of r's cookie base under its current name.
func (s *Service) cookie(r *http.Request, base string) string {
	c, err := r.Cookie(s.CookieName(base))
	if err != nil {
		return ""
	}
	return c.Value
}
