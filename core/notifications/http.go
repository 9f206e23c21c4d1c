package notifications

import (
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HandleList serves GET /api/notifications?limit=50: the caller's newest
// notifications (at most 100) and the unread count.
func HandleList(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		limit := 50
		if v := r.URL.Query().Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100 {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"limit": "Informe um número de 1 a 100."})
			}
			limit = n
		}
		user := core.PrincipalFrom(r.Context()).UserID
		list, err := s.List(r.Context(), user, limit)
		if err != nil {
			return err
		}
		unread, err := s.UnreadCount(r.Context(), user)
		if err != nil {
			return err
		}
		if list == nil {
			list = []Notification{}
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"notifications": list, "unread_count": unread})
	})
}

func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// HandleMarkRead serves POST /api/notifications/{id}/read.
func HandleMarkRead(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if err := s.MarkRead(r.Context(), core.PrincipalFrom(r.Context()).UserID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		return noContent(w)
	})
}

// HandleMarkAllRead serves POST /api/notifications/read-all.
func HandleMarkAllRead(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if err := s.MarkAllRead(r.Context(), core.PrincipalFrom(r.Context()).UserID); err != nil {
			return err
		}
		return noContent(w)
	})
}

// HandleDelete serves DELETE /api/notifications/{id}.
func HandleDelete(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if err := s.Delete(r.Context(), core.PrincipalFrom(r.Context()).UserID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		return noContent(w)
	})
}

// HandleDeleteAll serves DELETE /api/notifications ('Limpar todas').
func HandleDeleteAll(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if err := s.DeleteAll(r.Context(), core.PrincipalFrom(r.Context()).UserID); err != nil {
			return err
		}
		return noContent(w)
	})
}

// HandleGetPreferences serves GET /api/notifications/preferences.
func HandleGetPreferences(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := s.Preferences(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// HandlePutPreferences serves PUT /api/notifications/preferences: a partial
// object in, the whole preferences out.
func HandlePutPreferences(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		patch, err := httpx.Decode[PreferencesPatch](r)
		if err != nil {
			return err
		}
		p, err := s.UpdatePreferences(r.Context(), core.PrincipalFrom(r.Context()).UserID, patch)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}
