package connections

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the connections API. Every handler acts as the signed-in
// principal; the routes' policy keeps visitors out.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

type userBody struct {
	UserID string `json:"user_id"`
}

func decodeUser(r *http.Request) (string, error) {
	b, err := httpx.Decode[userBody](r)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(b.UserID) == "" {
		return "", core.Invalid("Informe o usuário.", map[string]string{"user_id": "Informe o usuário."})
	}
	return b.UserID, nil
}

func me(r *http.Request) string { return core.PrincipalFrom(r.Context()).UserID }

// List serves GET /api/connections?q=.
func (h HTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		l, err := h.Service.List(r.Context(), me(r), r.URL.Query().Get("q"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, l)
	})
}

// Request serves POST /api/connections {"user_id"}.
func (h HTTP) Request() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		to, err := decodeUser(r)
		if err != nil {
			return err
		}
		res, err := h.Service.Request(r.Context(), me(r), to)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, res)
	})
}

// Accept serves POST /api/connections/{id}/accept.
func (h HTTP) Accept() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		res, err := h.Service.Accept(r.Context(), me(r), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, res)
	})
}

// Reject serves POST /api/connections/{id}/reject.
func (h HTTP) Reject() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		res, err := h.Service.Reject(r.Context(), me(r), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, res)
	})
}

// Delete serves DELETE /api/connections/{id}.
func (h HTTP) Delete() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		res, err := h.Service.Delete(r.Context(), me(r), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, res)
	})
}

// Status serves GET /api/connections/status/{userId}.
func (h HTTP) Status() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		st, err := h.Service.Status(r.Context(), me(r), chi.URLParam(r, "userId"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// Suggestions serves GET /api/connections/suggestions.
func (h HTTP) Suggestions() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		list, err := h.Service.Suggestions(r.Context(), me(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"suggestions": list})
	})
}

// Mutual serves GET /api/connections/mutual/{userId}.
func (h HTTP) Mutual() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		m, err := h.Service.MutualWith(r.Context(), me(r), chi.URLParam(r, "userId"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, m)
	})
}

// Block serves POST /api/blocks {"user_id"}.
func (h HTTP) Block() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		other, err := decodeUser(r)
		if err != nil {
			return err
		}
		if err := h.Service.Block(r.Context(), me(r), other); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"status": StatusBlocked})
	})
}

// Blocked serves GET /api/blocks: the people the caller blocked.
func (h HTTP) Blocked() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		list, err := h.Service.BlockedByMe(r.Context(), me(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"blocked": list})
	})
}

// Unblock serves DELETE /api/blocks/{userId}.
func (h HTTP) Unblock() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := h.Service.Unblock(r.Context(), me(r), chi.URLParam(r, "userId")); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"status": StatusNone})
	})
}
