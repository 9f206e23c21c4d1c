package auth

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

const (
	cookieChallenge = "vc_two_step"
	cookieTrusted   = "vc_trusted_device"
)

type twoStepBody struct {
	TwoStepRequired bool   `json:"two_step_required"`
	Message         string `json:"message"`
}

func (s *Service) setChallengeCookie(w http.ResponseWriter, challenge string) {
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(cookieChallenge), Value: challenge, Path: refreshPath,
		MaxAge: int(ChallengeTTL.Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
}

func (s *Service) setTrustedCookie(w http.ResponseWriter, token string) {
	if token == "" {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.CookieName(cookieTrusted), Value: token, Path: refreshPath,
		Expires: time.Now().Add(TrustedDeviceTTL), MaxAge: int(TrustedDeviceTTL.Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
}

// HandleTwoStepVerify serves POST /api/auth/two-step/verify: the code step of
// a sign-in whose password (or Google) step left a challenge cookie.
func HandleTwoStepVerify(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Code     string `json:"code"`
			Remember bool   `json:"remember_device"`
		}](r)
		if err != nil {
			return err
		}
		res, err := s.VerifyTwoStep(r.Context(), TwoStepInput{Challenge: s.cookie(r, cookieChallenge), Code: in.Code, Remember: in.Remember,
			ClientIP: ClientIP(r), UserAgent: r.UserAgent()})
		if err != nil {
			return err
		}
		http.SetCookie(w, &http.Cookie{Name: s.CookieName(cookieChallenge), Value: "", Path: refreshPath, MaxAge: -1,
			HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
		s.endCookieSession(r)
		s.setSessionCookies(w, res.Tokens)
		s.setTrustedCookie(w, res.TrustedDevice)
		return httpx.Encode(w, http.StatusOK, struct {
			Message string      `json:"message"`
			User    SessionUser `json:"user"`
		}{MsgLoginOK, res.User})
	})
}

func signedIn(r *http.Request) (core.Principal, error) {
	p := core.PrincipalFrom(r.Context())
	if !p.Authenticated() {
		return p, errNotAuthenticated
	}
	return p, nil
}

// HandleTwoStepStatus serves GET /api/auth/two-step.
func HandleTwoStepStatus(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		st, err := s.TwoStepStatusOf(r.Context(), p.UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// HandleTOTPBegin serves POST /api/auth/two-step/totp: a new secret and its QR code.
func HandleTOTPBegin(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		e, err := s.BeginTOTP(r.Context(), p.UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, e)
	})
}

// HandleTOTPConfirm serves POST /api/auth/two-step/totp/confirm.
func HandleTOTPConfirm(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[struct {
			Code string `json:"code"`
		}](r)
		if err != nil {
			return err
		}
		if len(in.Code) > 64 {
			return core.Errorf(core.EINVALID, MsgTwoStepBadCode)
		}
		codes, err := s.ConfirmTOTP(r.Context(), p.UserID, p.SessionID, in.Code)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, struct {
			Message       string   `json:"message"`
			RecoveryCodes []string `json:"recovery_codes"`
		}{MsgTwoStepEnabled, codes})
	})
}

// HandleTOTPDisable serves POST /api/auth/two-step/totp/disable.
func HandleTOTPDisable(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[struct {
			Password string `json:"password"`
			Code     string `json:"code"`
		}](r)
		if err != nil {
			return err
		}
		if len(in.Code) > 64 {
			return core.Errorf(core.EINVALID, MsgTwoStepBadCode)
		}
		if err := s.DisableTOTP(r.Context(), p.UserID, in.Password, in.Code); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgTwoStepDisabled})
	})
}

// HandleLoginCodeRequest serves POST /api/auth/code: e-mails a sign-in code
// (the same answer whether or not the address has an account).
func HandleLoginCodeRequest(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Email string `json:"email"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.RequestLoginCode(r.Context(), in.Email, ClientIP(r)); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgLoginCodeSent})
	})
}

// HandleLoginCode serves POST /api/auth/code/verify: {email, code} or the
// e-mail link's {token}; answers as the password sign-in does.
func HandleLoginCode(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Email string `json:"email"`
			Code  string `json:"code"`
			Token string `json:"token"`
		}](r)
		if err != nil {
			return err
		}
		if in.Token == "" && len(in.Code) > 32 {
			return core.Errorf(core.EUNAUTHORIZED, MsgLoginCodeInvalid)
		}
		res, err := s.LoginWithCode(r.Context(), LoginCodeInput{Email: in.Email, Code: in.Code, Token: in.Token,
			TrustedDevice: s.cookie(r, cookieTrusted), ClientIP: ClientIP(r), UserAgent: r.UserAgent()})
		if err != nil {
			return err
		}
		if res.Challenge != "" {
			s.setChallengeCookie(w, res.Challenge)
			return httpx.Encode(w, http.StatusOK, twoStepBody{true, MsgTwoStepRequired})
		}
		s.endCookieSession(r)
		s.setSessionCookies(w, res.Tokens)
		return httpx.Encode(w, http.StatusOK, struct {
			Message string      `json:"message"`
			User    SessionUser `json:"user"`
		}{MsgLoginOK, res.User})
	})
}

// HandleChangePassword serves POST /api/auth/password/change.
func HandleChangePassword(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[struct {
			Current string `json:"current_password"`
			New     string `json:"password"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.ChangePassword(r.Context(), p.UserID, p.SessionID, in.Current, in.New); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgPasswordChanged})
	})
}
