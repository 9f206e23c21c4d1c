package auth

import (
	"log/slog"
	"net/http"

	"github.com/vetclube/vetclube/core/httpx"
)

// HandleEmailSettings serves GET /api/auth/email: the e-mail, the sign-in
// methods that explain the form, and any pending change.
func HandleEmailSettings(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		st, err := s.EmailSettingsOf(r.Context(), p.UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// HandleEmailChange serves POST /api/auth/email/change.
func HandleEmailChange(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		in, err := decodeJSON[struct {
			Email    string `json:"email"`
			Password string `json:"password"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.RequestEmailChange(r.Context(), p.UserID, in.Email, in.Password); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusAccepted, messageBody{MsgEmailChangeSent})
	})
}

// HandleEmailChangeCancel serves DELETE /api/auth/email/change.
func HandleEmailChangeCancel(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		if err := s.CancelEmailChange(r.Context(), p.UserID); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// HandleEmailConfirm serves POST /api/auth/email/confirm: the link sent to
// the new address (any browser may open it).
func HandleEmailConfirm(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Token string `json:"token"`
		}](r)
		if err != nil {
			return err
		}
		email, err := s.ConfirmEmailChange(r.Context(), in.Token)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, struct {
			Message string `json:"message"`
			Email   string `json:"email"`
		}{MsgEmailChanged, email})
	})
}

// HandleEmailUndo serves POST /api/auth/email/undo: the link sent to the
// old address; every session ends, this browser's too.
func HandleEmailUndo(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		in, err := decodeJSON[struct {
			Token string `json:"token"`
		}](r)
		if err != nil {
			return err
		}
		if err := s.UndoEmailChange(r.Context(), in.Token); err != nil {
			return err
		}
		s.clearSessionCookies(w)
		return httpx.Encode(w, http.StatusOK, messageBody{MsgEmailUndone})
	})
}

// HandleRecoveryRegenerate serves POST /api/auth/two-step/recovery-codes.
func HandleRecoveryRegenerate(log *slog.Logger, s *Service) http.Handler {
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
		codes, err := s.RegenerateRecoveryCodes(r.Context(), p.UserID, in.Password, in.Code)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, struct {
			Message       string   `json:"message"`
			RecoveryCodes []string `json:"recovery_codes"`
		}{MsgRecoveryRegenerated, codes})
	})
}
