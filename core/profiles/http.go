package profiles

import (
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// The own-profile handlers act on core.PrincipalFrom(ctx).UserID only: no id
// in the request can point them at someone else's private data.

// HandleGetOwn serves GET /api/profile.
func HandleGetOwn(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := svc.Get(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// HandleUpdateOwn serves PUT /api/profile.
func HandleUpdateOwn(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		u, err := httpx.Decode[Update](r)
		if err != nil {
			return err
		}
		p, err := svc.Update(r.Context(), core.PrincipalFrom(r.Context()).UserID, u)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// HandleCompleteness serves GET /api/profile/completeness.
func HandleCompleteness(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		c, err := svc.Completeness(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// HandleAvatar serves POST /api/profile/avatar: multipart/form-data with the
// image in the field "avatar". The body is streamed, never buffered whole.
func HandleAvatar(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		mr, err := r.MultipartReader()
		if err != nil {
			return avatarError("Envie a imagem como multipart/form-data, no campo avatar.")
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return avatarError(errAvatarMissing)
			}
			if err != nil {
				var maxErr *http.MaxBytesError
				if errors.As(err, &maxErr) {
					return avatarError(errAvatarTooLarge)
				}
				return avatarError(errAvatarRead)
			}
			if part.FormName() != "avatar" {
				part.Close()
				continue
			}
			url, err := svc.SetAvatar(r.Context(), core.PrincipalFrom(r.Context()).UserID, part)
			part.Close()
			if err != nil {
				return err
			}
			return httpx.Encode(w, http.StatusOK, map[string]string{"avatar_url": url})
		}
	})
}

// HandlePublic serves GET /api/profiles/{id}, open to visitors.
func HandlePublic(log *slog.Logger, svc *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if err := svc.AllowPublicRead(r.Context(), core.PrincipalFrom(r.Context()).UserID, httpx.ClientIP(r)); err != nil {
			return err
		}
		p, err := svc.Public(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// HandleSpecialties serves GET /api/specialties.
func HandleSpecialties(log *slog.Logger) http.Handler {
	body := map[string][]Specialty{"specialties": Specialties}
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		return httpx.Encode(w, http.StatusOK, body)
	})
}
