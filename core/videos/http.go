package videos

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the videos API (/api/videos/…).
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

type userHandler func(w http.ResponseWriter, r *http.Request, userID string) error

// signedIn refuses visitors with 'Usuário não autenticado'.
func (h HTTP) signedIn(fn userHandler) http.Handler { return httpx.SignedIn(h.Log, fn) }

func ok(w http.ResponseWriter, v any) error { return httpx.Encode(w, http.StatusOK, v) }

// List serves GET /api/videos.
func (h HTTP) List() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		f, err := ParseFilter(r.URL.Query())
		if err != nil {
			return err
		}
		p, err := h.Service.List(r.Context(), user, f)
		if err != nil {
			return err
		}
		return ok(w, p)
	})
}

// Categories serves GET /api/videos/categorias.
func (h HTTP) Categories() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, _ string) error {
		cs, err := h.Service.Categories(r.Context())
		if err != nil {
			return err
		}
		return ok(w, map[string][]Category{"categories": cs})
	})
}

// Statistics serves GET /api/videos/estatisticas.
func (h HTTP) Statistics() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		st, err := h.Service.Statistics(r.Context(), user)
		if err != nil {
			return err
		}
		return ok(w, st)
	})
}

// Latest serves GET /api/videos/ultimo: {"video": …} or {"video": null}.
func (h HTTP) Latest() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		c, err := h.Service.Latest(r.Context(), user)
		if err != nil {
			return err
		}
		return ok(w, map[string]*Card{"video": c})
	})
}

// Detail serves GET /api/videos/{idOrSlug}.
func (h HTTP) Detail() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		d, err := h.Service.Detail(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, d)
	})
}

// Progress serves PUT /api/videos/{idOrSlug}/progresso.
func (h HTTP) Progress() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		u, err := httpx.Decode[engagement.ProgressUpdate](r)
		if err != nil {
			return err
		}
		a, err := h.Service.RecordProgress(r.Context(), chi.URLParam(r, "idOrSlug"), user, u)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

// View serves POST /api/videos/{idOrSlug}/visualizacao.
func (h HTTP) View() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		a, err := h.Service.RecordView(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

// Like serves POST /api/videos/{idOrSlug}/curtida (toggle).
func (h HTTP) Like() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		a, err := h.Service.ToggleLike(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

// Favorite serves POST /api/videos/{idOrSlug}/favorito (toggle).
func (h HTTP) Favorite() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		a, err := h.Service.ToggleFavorite(r.Context(), chi.URLParam(r, "idOrSlug"), user)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}

type completeBody struct {
	Completed *bool `json:"completed"`
}

// Complete serves PUT /api/videos/{idOrSlug}/concluido {"completed": bool}.
func (h HTTP) Complete() http.Handler {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request, user string) error {
		b, err := httpx.Decode[completeBody](r)
		if err != nil {
			return err
		}
		if b.Completed == nil {
			return core.Invalid(MsgCompletedField, map[string]string{"completed": MsgCompletedField})
		}
		a, err := h.Service.SetCompleted(r.Context(), chi.URLParam(r, "idOrSlug"), user, *b.Completed)
		if err != nil {
			return err
		}
		return ok(w, a)
	})
}
