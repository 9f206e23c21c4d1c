package courses

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the courses API: /api/cursos/…, the certificates and the
// backoffice statistics.
type HTTP struct {
	Service *Service
	// PublicURL is the PWA's origin (printed verification addresses).
	PublicURL string
	Log       *slog.Logger
	// Frame is the certificate frame the member unlocked (core/rewards);
	// nil or "": the standard border.
	Frame func(ctx context.Context, userID string) (string, error)
}

// withFrame sets the owner's unlocked frame on c; a failure to read it
// prints the standard border.
func (h HTTP) withFrame(ctx context.Context, c *Certificate, userID string) {
	if h.Frame == nil {
		return
	}
	f, err := h.Frame(ctx, userID)
	if err != nil && h.Log != nil {
		h.Log.WarnContext(ctx, "certificate frame", "err", err)
	}
	c.Frame = f
}

type userHandler func(w http.ResponseWriter, r *http.Request, userID string) error

// signedIn refuses visitors with 'Usuário não autenticado'.
func (h HTTP) signedIn(fn userHandler) http.Handler { return httpx.SignedIn(h.Log, fn) }

func ok(w http.ResponseWriter, v any) error { return httpx.Encode(w, http.StatusOK, v) }

// List serves GET /api/cursos.
func (h HTTP) List() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		f, err := ParseFilter(r.URL.Query())
		if err != nil {
			return err
		}
		page, err := h.Service.List(r.Context(), user, f)
		if err != nil {
			return err
		}
		return ok(w, page)
	})
}

// Filters serves GET /api/cursos/filtros.
func (h HTTP) Filters() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, _ string) error {
		f, err := h.Service.FilterOptions(r.Context())
		if err != nil {
			return err
		}
		return ok(w, f)
	})
}

// Statistics serves GET /api/cursos/estatisticas.
func (h HTTP) Statistics() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		st, err := h.Service.Statistics(r.Context(), user)
		if err != nil {
			return err
		}
		return ok(w, st)
	})
}

// Last serves GET /api/cursos/ultimo: {"course": …} or {"course": null}.
func (h HTTP) Last() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		lc, err := h.Service.Last(r.Context(), user)
		if err != nil {
			return err
		}
		return ok(w, map[string]*LastCourse{"course": lc})
	})
}

// Detail serves GET /api/cursos/{idOrSlug}.
func (h HTTP) Detail() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		d, err := h.Service.Detail(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, d)
	})
}

// Enrol serves POST /api/cursos/{idOrSlug}/matricula.
func (h HTTP) Enrol() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		res, err := h.Service.Enrol(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, res)
	})
}

// Favorite serves POST /api/cursos/{idOrSlug}/favorito (toggle).
func (h HTTP) Favorite() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		res, err := h.Service.ToggleFavorite(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, res)
	})
}

// Lesson serves GET /api/cursos/{idOrSlug}/aulas/{lessonId}.
func (h HTTP) Lesson() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		d, err := h.Service.Lesson(r.Context(), chi.URLParam(r, "idOrSlug"), chi.URLParam(r, "lessonId"), user)
		if err != nil {
			return err
		}
		return ok(w, d)
	})
}

// Progress serves PUT /api/cursos/{idOrSlug}/aulas/{lessonId}/progresso.
func (h HTTP) Progress() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		u, err := httpx.Decode[engagement.ProgressUpdate](r)
		if err != nil {
			return err
		}
		a, err := h.Service.RecordProgress(r.Context(), chi.URLParam(r, "idOrSlug"), chi.URLParam(r, "lessonId"), user, u)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

// Complete serves POST /api/cursos/{idOrSlug}/aulas/{lessonId}/concluir.
func (h HTTP) Complete() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		a, err := h.Service.MarkComplete(r.Context(), chi.URLParam(r, "idOrSlug"), chi.URLParam(r, "lessonId"), user)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

// MyCertificates serves GET /api/me/certificados.
func (h HTTP) MyCertificates() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		m, err := h.Service.Mine(r.Context(), user)
		if err != nil {
			return err
		}
		return ok(w, m)
	})
}

// Verify serves GET /api/certificados/{code}, open to visitors.
func (h HTTP) Verify() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		v, err := h.Service.Verify(r.Context(), chi.URLParam(r, "code"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Robots-Tag", "noindex")
		return ok(w, v)
	})
}

// Printable serves GET /api/certificados/{code}/imprimir to the owner.
func (h HTTP) Printable() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		c, err := h.Service.Own(r.Context(), chi.URLParam(r, "code"), user)
		if err != nil {
			return err
		}
		h.withFrame(r.Context(), &c, user)
		var b bytes.Buffer
		if err := WriteHTML(&b, c, h.PublicURL); err != nil {
			return err
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(b.Bytes())
		return err
	})
}

// PDF serves GET /api/certificados/{code}/pdf to the owner.
func (h HTTP) PDF() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		c, err := h.Service.Own(r.Context(), chi.URLParam(r, "code"), user)
		if err != nil {
			return err
		}
		h.withFrame(r.Context(), &c, user)
		var b bytes.Buffer
		if err := WritePDF(&b, c, h.PublicURL); err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", `inline; filename="certificado-vetclube-`+c.Code+`.pdf"`)
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(b.Bytes())
		return err
	})
}

// revokeBody is POST /api/admin/certificados/{code}/revogar's body.
type revokeBody struct {
	Reason string `json:"reason"`
}

// Revoke serves POST /api/admin/certificados/{code}/revogar.
func (h HTTP) Revoke() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		var b revokeBody
		if r.ContentLength != 0 {
			var err error
			if b, err = httpx.Decode[revokeBody](r); err != nil {
				return err
			}
		}
		c, err := h.Service.Revoke(r.Context(), chi.URLParam(r, "code"), user, b.Reason)
		if err != nil {
			return err
		}
		return ok(w, c)
	})
}

// Stats serves GET /api/admin/courses/{id}/stats.
func (h HTTP) Stats() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, _ string) error {
		st, err := h.Service.CourseStats(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return ok(w, st)
	})
}
