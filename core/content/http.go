package content

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// MsgBadNumber refuses a paging parameter that is not a small whole number.
const MsgBadNumber = "Use um número inteiro não negativo."

// maxQueryOffset bounds how deep a public list may be paged by offset; the
// cursor serves deeper reading.
const maxQueryOffset = 100_000

func queryInt(r *http.Request, name string, max int) (int, error) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > max {
		return 0, badQuery(name, MsgBadNumber)
	}
	return n, nil
}

// ParseListQuery reads a public list's query string: q (search), sort,
// limit, offset, cursor, favorites=1, and per filterable field f.<name>
// (repeatable: any of the values), f.<name>.min and f.<name>.max.
func ParseListQuery(r *http.Request, typeID, readerID string) (ListQuery, error) {
	v := r.URL.Query()
	q := ListQuery{Type: typeID, Search: strings.TrimSpace(v.Get("q")), Sort: v.Get("sort"), Cursor: v.Get("cursor"), ReaderID: readerID}
	var err error
	if q.Limit, err = queryInt(r, "limit", MaxPageSize); err != nil {
		return q, err
	}
	if q.Offset, err = queryInt(r, "offset", maxQueryOffset); err != nil {
		return q, err
	}
	switch v.Get("favorites") {
	case "", "0", "false":
	case "1", "true":
		if readerID == "" {
			return q, core.NotSignedIn()
		}
		q.OnlyFavorites = true
	default:
		return q, badQuery("favorites", "Use 1 ou 0.")
	}
	byField := map[string]*Filter{}
	var order []string
	for key, values := range v {
		name, ok := strings.CutPrefix(key, "f.")
		if !ok {
			continue
		}
		bound := ""
		if base, b, found := strings.Cut(name, "."); found {
			name, bound = base, b
		}
		f := byField[name]
		if f == nil {
			f = &Filter{Field: name}
			byField[name] = f
			order = append(order, name)
		}
		switch bound {
		case "":
			f.Values = append(f.Values, values...)
		case "min":
			f.Min = values[0]
		case "max":
			f.Max = values[0]
		default:
			return q, badQuery(key, "Filtro desconhecido.")
		}
	}
	for _, name := range order {
		q.Filters = append(q.Filters, *byField[name])
	}
	return q, nil
}

// typeParam returns the registered type named by the route's {type}.
func (s *Store) typeParam(r *http.Request) (*Type, error) {
	return s.typeOf(chi.URLParam(r, "type"))
}

// publicTypeParam is typeParam for the public reads: a type its feature
// serves through its own API only (Registry.ServeOwnAPI: members' posts,
// read with blocks and moderation applied) does not exist here.
func (s *Store) publicTypeParam(r *http.Request) (*Type, error) {
	t, err := s.typeParam(r)
	if err == nil && s.types.OwnAPI(t.ID) {
		return nil, core.Errorf(core.ENOTFOUND, MsgTypeNotFound)
	}
	return t, err
}

// readerCache lets shared caches keep a visitor's answer briefly; a signed-in
// reader's answer carries their own flags and stays no-store (the API default).
func readerCache(w http.ResponseWriter, p core.Principal) {
	w.Header().Set("Vary", "Authorization, Cookie")
	if !p.Authenticated() {
		w.Header().Set("Cache-Control", "public, max-age=30")
	}
}

// HandleList serves GET /api/content/{type}: one page of published items
// with the signed-in reader's favorite and reaction flags.
func HandleList(log *slog.Logger, s *Store) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		t, err := s.publicTypeParam(r)
		if err != nil {
			return err
		}
		p := core.PrincipalFrom(r.Context())
		q, err := ParseListQuery(r, t.ID, p.UserID)
		if err != nil {
			return err
		}
		page, err := s.List(r.Context(), q)
		if err != nil {
			return err
		}
		readerCache(w, p)
		return httpx.Encode(w, http.StatusOK, page)
	})
}

// HandleTypes serves GET /api/content/types: every registered type's
// declaration (labels, route, fields, list behaviour), for the reader's app
// to find the pages of types it was never built with.
func HandleTypes(log *slog.Logger, s *Store) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		readerCache(w, core.PrincipalFrom(r.Context()))
		return httpx.Encode(w, http.StatusOK, s.Types().Types())
	})
}

// HandleGet serves GET /api/content/{type}/{idOrSlug}: the published
// snapshot, never the working copy.
func HandleGet(log *slog.Logger, s *Store) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		t, err := s.publicTypeParam(r)
		if err != nil {
			return err
		}
		p := core.PrincipalFrom(r.Context())
		it, err := s.GetPublished(r.Context(), t.ID, chi.URLParam(r, "idOrSlug"), p.UserID)
		if err != nil {
			return err
		}
		readerCache(w, p)
		return httpx.Encode(w, http.StatusOK, it)
	})
}

// HandlePreview serves GET /api/preview/{token}: the working copy a valid,
// unexpired preview link names (403 otherwise), never cached or indexed.
func HandlePreview(log *slog.Logger, s *Store, p *Previews) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		it, err := s.Preview(r.Context(), p, chi.URLParam(r, "token"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		return httpx.Encode(w, http.StatusOK, struct {
			Item
			Preview bool `json:"preview"`
		}{it, true})
	})
}
