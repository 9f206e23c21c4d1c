package media

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP is the library's admin API (staff who edit content; the route
// policy decides who).
type HTTP struct {
	Service *Service
	// Upload is the tus endpoint (Service.UploadHandler).
	Upload http.Handler
	Log    *slog.Logger
}

// Stream serves GET StreamPath<token>/<file>: protected files (streams,
// documents) by their signed address (Streams.Handler on the private store).
// The token is the permission: the route is open and checks no session, so a
// player keeps streaming after the member's short access token expires.
func (h HTTP) Stream() http.Handler {
	if h.Service == nil || h.Service.streams == nil {
		return http.NotFoundHandler()
	}
	return h.Service.streams.Handler(h.Service.private, h.Log)
}

var listParams = httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: SortFields}

func badQuery(field, msg string) error {
	return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{field: msg})
}

// List serves GET /api/admin/media: ra-data-simple-rest's range, sort and
// filter {"q","kind","state","upload_id"}; q, kind, state, upload_id, page
// and per_page are accepted as plain parameters too. Answers Asset[] with
// Content-Range and X-Total-Count.
func (h HTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		var f struct {
			Q        string `json:"q"`
			Kind     string `json:"kind"`
			State    string `json:"state"`
			UploadID string `json:"upload_id"`
		}
		lq, err := httpx.ParseList(r, listParams, &f)
		if err != nil {
			return err
		}
		v := r.URL.Query()
		for name, dst := range map[string]*string{"q": &f.Q, "kind": &f.Kind, "state": &f.State, "upload_id": &f.UploadID} {
			if s := v.Get(name); s != "" {
				*dst = s
			}
		}
		if p, pp := v.Get("page"), v.Get("per_page"); p != "" || pp != "" {
			page, per := 1, listParams.DefaultLimit
			if p != "" {
				if page, err = strconv.Atoi(p); err != nil || page < 1 || page > 1_000_000 {
					return badQuery("page", "Use uma página a partir de 1.")
				}
			}
			if pp != "" {
				if per, err = strconv.Atoi(pp); err != nil || per < 1 || per > listParams.MaxLimit {
					return badQuery("per_page", fmt.Sprintf("Use de 1 a %d itens por página.", listParams.MaxLimit))
				}
			}
			lq.Offset, lq.Limit = (page-1)*per, per
		}
		if f.Kind != "" && !slices.Contains([]Kind{KindVideo, KindImage, KindDocument}, Kind(f.Kind)) {
			return badQuery("kind", "Use video, image ou document.")
		}
		if f.State != "" && !slices.Contains(States, State(f.State)) {
			return badQuery("state", "Use enviando, processando, pronto ou erro.")
		}
		if httpx.TextProblem(f.Q) != "" || len(f.Q) > 200 {
			return badQuery("q", "Busca inválida.")
		}
		list, total, err := h.Service.List(r.Context(), Query{Search: f.Q, Kind: Kind(f.Kind), State: State(f.State), UploadID: f.UploadID,
			Sort: lq.SortField, Ascending: lq.SortField != "" && !lq.Descending, Offset: lq.Offset, Limit: lq.Limit})
		if err != nil {
			return err
		}
		end := lq.Offset + len(list) - 1
		if len(list) == 0 {
			end = lq.Offset
		}
		w.Header().Set("Content-Range", fmt.Sprintf("media %d-%d/%d", lq.Offset, end, total))
		w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range, X-Total-Count")
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// Get serves GET /api/admin/media/{id}; the admin polls it while an asset
// is enviando or processando.
func (h HTTP) Get() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		a, err := h.Service.Get(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, a)
	})
}

// Retry serves POST /api/admin/media/{id}/retry: 202 with the asset, 409
// unless it is a video in erro.
func (h HTTP) Retry() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		a, err := h.Service.Retry(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusAccepted, a)
	})
}

// Delete serves DELETE /api/admin/media/{id}: 204, or 409 naming the
// content items that use it.
func (h HTTP) Delete() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := h.Service.Delete(r.Context(), chi.URLParam(r, "id")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// Cancel serves POST /api/admin/media/{id}/cancel: 200 with the asset in
// erro, 409 unless it is a video in processando, 403 for another person's
// video unless the caller reviews.
func (h HTTP) Cancel() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		a, err := h.Service.Cancel(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, a)
	})
}
