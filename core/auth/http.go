package auth

import (
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// Cookie names (API contract). On a secure origin they carry the "__Host-"
// or "__Secure-" prefix: see CookieName.
const (
	CookieAccess  = "vc_access"
	CookieRefresh = "vc_refresh"
	CookieCSRF    = "vc_csrf"
	cookieOAuth   = "vc_oauth_state"
	refreshPath   = "/api/auth"
	googlePath    = "/api/auth/google"
)

// setSessionCookies hands a session to the browser, under the names
// CookieName gives.
func (s *Service) setSessionCookies(w http.ResponseWriter, t Tokens) {
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(CookieAccess), Value: t.Access, Path: "/", Expires: t.AccessExpires,
		MaxAge: int(time.Until(t.AccessExpires).Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(CookieRefresh), Value: t.Refresh, Path: refreshPath, Expires: t.RefreshExpires,
		MaxAge: int(time.Until(t.RefreshExpires).Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	// Readable by the web app, which echoes it as X-CSRF-Token: the session's
	// own token (CSRFToken), not a random value any pair of which would pass.
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(CookieCSRF), Value: t.CSRF, Path: "/", Expires: t.RefreshExpires,
		MaxAge: int(time.Until(t.RefreshExpires).Seconds()), Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
}

func (s *Service) clearSessionCookies(w http.ResponseWriter) {
	type named struct{ name, path string }
	var all []named
	for _, c := range []named{{CookieAccess, "/"}, {CookieRefresh, refreshPath}, {CookieCSRF, "/"}} {
		all = append(all, named{s.CookieName(c.name), c.path})
		if s.secureCookies {
			// Cookies set under the plain names before the prefixed ones
			// were introduced go too, so clients stop seeing a session.
			all = append(all, c)
		}
	}
	for _, c := range all {
		http.SetCookie(w, &http.Cookie{Name: c.name, Value: "", Path: c.path, MaxAge: -1,
			HttpOnly: !strings.HasSuffix(c.name, CookieCSRF), Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	}
}

// refreshSession returns the session the request's refresh cookie names,
// after checking the request's CSRF token against it: the refresh cookie
// authenticates the write. ok is false without a cookie or for an unknown
// token.
func (s *Service) refreshSession(r *http.Request) (id string, ok bool, err error) {
	token := s.cookie(r, CookieRefresh)
	if token == "" {
		return "", false, nil
	}
	id, ok, err = s.sessionOfRefresh(r.Context(), token)
	if err != nil || !ok {
		return "", false, err
	}
	if err := s.checkCSRF(r, id); err != nil {
		return "", false, err
	}
	return id, true, nil
}

// ClientIP is the address rate limits count per IP: the TCP peer. Behind a
// proxy this is the proxy; trusting X-Forwarded-For needs a known proxy list.
func ClientIP(r *http.Request) string { return httpx.ClientIP(r) }

// decodeJSON insists on a JSON content type before decoding: a cross-site
// HTML form can post text/plain without a CORS preflight, and must not be
// able to sign a browser in to someone else's account (login CSRF).
func decodeJSON[T any](r *http.Request) (T, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		var zero T
		return zero, core.Errorf(core.EINVALID, "Envie os dados em JSON (Content-Type: application/json).")
	}
	return httpx.Decode[T](r)
}

type messageBody struct {
	Message string `json:"message"`
}

// HandleSignup serves POST /api/auth/signup.
func HandleSignup(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[SignupInput](r)
		if err != nil {
			return err
		}
		msg, err := s.SignupWithMessage(r.Context(), in, ClientIP(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, messageBody{msg})
	})
}

// HandleConfirm serves POST /api/auth/confirm.
func HandleConfirm(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Token string `json:"token"`
		}](r)
		if err != nil {
			return err
		}
		userID, signIn, err := s.confirm(r.Context(), in.Token)
		if err != nil {
			return err
		}
		if !signIn {
			return httpx.Encode(w, http.StatusOK, messageBody{MsgConfirmOK})
		}
		// A /register-premium link: the one who opened it is signed in, so
		// the page can continue to the checkout.
		tokens, err := s.StartSession(r.Context(), userID, r.UserAgent())
		if err != nil {
			return err
		}
		s.endCookieSession(r)
		s.setSessionCookies(w, tokens)
		return httpx.Encode(w, http.StatusOK, struct {
			Message  string `json:"message"`
			SignedIn bool   `json:"signed_in"`
		}{MsgConfirmOK, true})
	})
}

// HandleResendConfirmation serves POST /api/auth/confirm/resend.
func HandleResendConfirmation(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Email string `json:"email"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.ResendConfirmation(r.Context(), in.Email); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgResendOK})
	})
}

// HandleLogin serves POST /api/auth/login.
func HandleLogin(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Email    string `json:"email"`
			Password string `json:"password"`
			Code     string `json:"code"`
			Remember bool   `json:"remember_device"`
		}](r)
		if err != nil {
			return err
		}
		res, err := s.LoginWith(r.Context(), LoginInput{Email: in.Email, Password: in.Password, Code: in.Code, Remember: in.Remember,
			TrustedDevice: s.cookie(r, cookieTrusted), ClientIP: ClientIP(r), UserAgent: r.UserAgent()})
		if err != nil {
			return err
		}
		if res.Challenge != "" {
			s.setChallengeCookie(w, res.Challenge)
			return httpx.Encode(w, http.StatusOK, twoStepBody{true, MsgTwoStepRequired})
		}
		// A new sign-in first signs out any local session.
		s.endCookieSession(r)
		s.setSessionCookies(w, res.Tokens)
		s.setTrustedCookie(w, res.TrustedDevice)
		return httpx.Encode(w, http.StatusOK, struct {
			Message string      `json:"message"`
			User    SessionUser `json:"user"`
		}{MsgLoginOK, res.User})
	})
}

// endCookieSession revokes the session the request's refresh cookie names.
func (s *Service) endCookieSession(r *http.Request) {
	token := s.cookie(r, CookieRefresh)
	if token == "" {
		return
	}
	if id, ok, err := s.sessionOfRefresh(r.Context(), token); err == nil && ok {
		if err := s.EndSession(r.Context(), id); err != nil {
			s.log.WarnContext(r.Context(), "end previous session", "err", err)
		}
	}
}

// HandleSession serves GET /api/auth/session.
func HandleSession(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !p.Authenticated() {
			return errNotAuthenticated
		}
		// Everything shown comes with the principal: no second read of the
		// user, its roles or its subscription.
		u, err := s.sessionUserOf(r.Context(), p)
		if err != nil {
			return err
		}
		s.repairCSRFCookie(w, r, p.SessionID)
		return httpx.Encode(w, http.StatusOK, userBody{u})
	})
}

// userBody is the {"user": …} answer of the session and refresh endpoints.
type userBody struct {
	User SessionUser `json:"user"`
}

// repairCSRFCookie sets the CSRF cookie again when a cookie session's
// browser holds another value, as sessions opened before tokens were bound
// to them do: the web app reads the session on every load, so such a browser
// gets a working token instead of being refused every write (refresh and
// logout included) until the session expires.
func (s *Service) repairCSRFCookie(w http.ResponseWriter, r *http.Request, sessionID string) {
	if sessionID == "" || s.cookie(r, CookieAccess) == "" {
		return
	}
	want := s.sessionCSRF(sessionID)
	if s.cookie(r, CookieCSRF) == want {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(CookieCSRF), Value: want, Path: "/", MaxAge: int(s.opts.RefreshTTL.Seconds()),
		Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
}

// HandleRefresh serves POST /api/auth/refresh.
func HandleRefresh(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		token := s.cookie(r, CookieRefresh)
		if token == "" {
			return errNotAuthenticated
		}
		// The refresh cookie authenticates this write, so it needs the
		// session's CSRF token.
		if _, ok, err := s.refreshSession(r); err != nil {
			return err
		} else if !ok {
			s.clearSessionCookies(w)
			return errNotAuthenticated
		}
		u, t, err := s.Refresh(r.Context(), token)
		if errors.Is(err, errRefreshGrace) {
			return httpx.Encode(w, http.StatusOK, userBody{u})
		}
		if err != nil {
			if core.ErrorCode(err) == core.EUNAUTHORIZED {
				s.clearSessionCookies(w)
			}
			return err
		}
		s.setSessionCookies(w, t)
		return httpx.Encode(w, http.StatusOK, userBody{u})
	})
}

// HandleLogout serves POST /api/auth/logout: this session only.
func HandleLogout(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if p.Authenticated() {
			if err := s.EndSession(r.Context(), p.SessionID); err != nil {
				return err
			}
		} else if s.cookie(r, CookieRefresh) != "" {
			// An expired access token still signs out through the refresh cookie.
			id, ok, err := s.refreshSession(r)
			if err != nil {
				return err
			}
			if ok {
				if err := s.EndSession(r.Context(), id); err != nil {
					return err
				}
			}
		}
		s.clearSessionCookies(w)
		return httpx.Encode(w, http.StatusOK, messageBody{MsgLogoutOK})
	})
}

// HandleListSessions serves GET /api/auth/sessions.
func HandleListSessions(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		list, err := s.Sessions(r.Context(), p.UserID, p.SessionID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]SessionInfo{"sessions": list})
	})
}

// HandleRevokeSession serves DELETE /api/auth/sessions/{id}.
func HandleRevokeSession(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if err := s.RevokeSession(r.Context(), p.UserID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// HandleForgotPassword serves POST /api/auth/password/forgot.
func HandleForgotPassword(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Email string `json:"email"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.ForgotPassword(r.Context(), in.Email); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgResetSent})
	})
}

// HandleResetPassword serves POST /api/auth/password/reset.
func HandleResetPassword(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Token    string `json:"token"`
			Password string `json:"password"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.ResetPassword(r.Context(), in.Token, in.Password); err != nil {
			return err
		}
		s.clearSessionCookies(w)
		return httpx.Encode(w, http.StatusOK, messageBody{MsgResetOK})
	})
}

// HandleProviders serves GET /api/auth/providers.
func HandleProviders(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		return httpx.Encode(w, http.StatusOK, map[string]bool{"google": s.GoogleEnabled()})
	})
}

// HandleGoogleStart serves GET /api/auth/google/start?redirect=/path.
func HandleGoogleStart(log *slog.Logger, s *Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.GoogleEnabled() {
			redirectGoogleError(w, r, &GoogleError{Code: "unavailable", Message: "Login com Google não está disponível."})
			return
		}
		authURL, state, err := s.GoogleStart(r.Context(), r.URL.Query().Get("redirect"))
		if err != nil {
			log.ErrorContext(r.Context(), "google sign-in start", "err", err, "request_id", httpx.RequestID(r.Context()))
			redirectGoogleError(w, r, unexpectedGoogle(err))
			return
		}
		// Binds the flow to this browser: a callback carrying a state this
		// browser did not start (login CSRF) is refused.
		http.SetCookie(w, &http.Cookie{Name: s.CookieName(cookieOAuth), Value: state, Path: googlePath, MaxAge: int(oauthStateTTL.Seconds()),
			HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, authURL, http.StatusFound)
	})
}

// HandleGoogleCallback serves GET /api/auth/google/callback.
func HandleGoogleCallback(log *slog.Logger, s *Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cookieState := s.cookie(r, cookieOAuth)
		http.SetCookie(w, &http.Cookie{Name: s.CookieName(cookieOAuth), Value: "", Path: googlePath, MaxAge: -1,
			HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
		redirect, res, gerr := s.googleCallback(r.Context(), r.URL.Query(), cookieState, r.UserAgent(), s.cookie(r, cookieTrusted))
		if gerr != nil {
			level := slog.LevelWarn
			if gerr.Code == "unexpected" {
				level = slog.LevelError
			}
			log.Log(r.Context(), level, "google sign-in failed", "code", gerr.Code, "err", gerr.Err, "request_id", httpx.RequestID(r.Context()))
			redirectGoogleError(w, r, gerr)
			return
		}
		if res.Challenge != "" {
			// The code step comes before any session.
			s.setChallengeCookie(w, res.Challenge)
			http.Redirect(w, r, "/login?"+url.Values{"verificacao": {"1"}, "redirect": {redirect}}.Encode(), http.StatusFound)
			return
		}
		s.endCookieSession(r)
		s.setSessionCookies(w, res.Tokens)
		// Not http.Redirect: it cleans relative paths again, which would undo
		// safeRedirect's check.
		w.Header().Set("Location", redirect)
		w.WriteHeader(http.StatusFound)
	})
}

func redirectGoogleError(w http.ResponseWriter, r *http.Request, e *GoogleError) {
	q := url.Values{"google_error": {e.Code}, "message": {e.Message}}
	http.Redirect(w, r, "/login?"+q.Encode(), http.StatusFound)
}
