package auth

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core/httpx"
)

// passkeyAnswer is the browser's answer to a ceremony: the token the begin
// route gave and the PublicKeyCredential as JSON (toJSON()).
type passkeyAnswer struct {
	Ceremony   string          `json:"ceremony"`
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// HandleListPasskeys serves GET /api/auth/passkeys.
func HandleListPasskeys(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		list, err := s.Passkeys(r.Context(), p.UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Passkey{"passkeys": list})
	})
}

// HandlePasskeyRegisterBegin serves POST /api/auth/passkey/register.
func HandlePasskeyRegisterBegin(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		c, err := s.BeginPasskeyRegistration(r.Context(), p.UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// HandlePasskeyRegisterFinish serves POST /api/auth/passkeys.
func HandlePasskeyRegisterFinish(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[passkeyAnswer](r)
		if err != nil {
			return err
		}
		pk, err := s.FinishPasskeyRegistration(r.Context(), p.UserID, in.Ceremony, in.Name, in.Credential)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, struct {
			Message string  `json:"message"`
			Passkey Passkey `json:"passkey"`
		}{MsgPasskeyAdded, pk})
	})
}

// HandleRenamePasskey serves PATCH /api/auth/passkeys/{id}.
func HandleRenamePasskey(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[struct {
			Name string `json:"name"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.RenamePasskey(r.Context(), p.UserID, chi.URLParam(r, "id"), in.Name); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgPasskeyRenamed})
	})
}

// HandleRemovePasskey serves DELETE /api/auth/passkeys/{id}.
func HandleRemovePasskey(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		if err := s.RemovePasskey(r.Context(), p.UserID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, messageBody{MsgPasskeyRemoved})
	})
}

// HandlePasskeyLoginBegin serves POST /api/auth/passkey/login.
func HandlePasskeyLoginBegin(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		c, err := s.BeginPasskeyLogin(r.Context(), ClientIP(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// HandlePasskeyLogin serves POST /api/auth/passkey/login/verify: a session
// that counts as two-step verified.
func HandlePasskeyLogin(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[passkeyAnswer](r)
		if err != nil {
			return err
		}
		res, err := s.LoginWithPasskey(r.Context(), PasskeyLoginInput{Ceremony: in.Ceremony, Response: in.Credential,
			ClientIP: ClientIP(r), UserAgent: r.UserAgent()})
		if err != nil {
			return err
		}
		s.endCookieSession(r)
		s.setSessionCookies(w, res.Tokens)
		return httpx.Encode(w, http.StatusOK, struct {
			Message string      `json:"message"`
			User    SessionUser `json:"user"`
		}{MsgLoginOK, res.User})
	})
}
