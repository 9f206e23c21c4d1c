package eventos

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the events API under /api/eventos.
type HTTP struct {
	Service *Service
	// PublicURL is the origin of the PWA (links inside .ics files).
	PublicURL string
	Log       *slog.Logger
}

// ListAnswer is GET /api/eventos.
type ListAnswer struct {
	Events []Event `json:"events"`
	Today  string  `json:"today"`
	// Months that hold events of the asked period and type (YYYY-MM), for
	// the month filter.
	Months []string `json:"months"`
}

// List serves GET /api/eventos?when=upcoming|past&type=&month=YYYY-MM&q=.
func (h HTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		q := r.URL.Query()
		list, err := h.Service.List(r.Context(), Filter{When: When(q.Get("when")), Type: q.Get("type"), Month: q.Get("month"), Search: q.Get("q")})
		if err != nil {
			return err
		}
		if list == nil {
			list = []Event{}
		}
		months, err := h.Service.Months(r.Context(), Filter{When: When(q.Get("when")), Type: q.Get("type")})
		if err != nil {
			return err
		}
		if months == nil {
			months = []string{}
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, ListAnswer{Events: list, Today: h.Service.Today(), Months: months})
	})
}

// Next serves GET /api/eventos/next: {"event": …} or {"event": null}.
func (h HTTP) Next() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		e, err := h.Service.Next(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, map[string]*Event{"event": e})
	})
}

// DetailAnswer is an event page: the event, the reader's place and the
// calendar links.
type DetailAnswer struct {
	Event
	GoogleCalendarURL string `json:"google_calendar_url"`
	ICSURL            string `json:"ics_url"`
}

func (h HTTP) pageURL(e Event) string {
	return strings.TrimRight(h.PublicURL, "/") + Link(e.Slug)
}

func (h HTTP) detail(w http.ResponseWriter, e Event) error {
	w.Header().Set("Cache-Control", "no-store")
	return httpx.Encode(w, http.StatusOK, DetailAnswer{Event: e, GoogleCalendarURL: GoogleCalendarURL(e, h.pageURL(e)),
		ICSURL: "/api/eventos/" + e.ID + "/calendar.ics"})
}

// Get serves GET /api/eventos/{idOrSlug}.
func (h HTTP) Get() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		e, err := h.Service.Get(r.Context(), chi.URLParam(r, "idOrSlug"), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return h.detail(w, e)
	})
}

// Calendar serves GET /api/eventos/{idOrSlug}/calendar.ics.
func (h HTTP) Calendar() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		e, err := h.Service.Get(r.Context(), chi.URLParam(r, "idOrSlug"), "")
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+e.Slug+`.ics"`)
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(ICS(e, h.pageURL(e), h.Service.now()))
		return err
	})
}

type action func(s *Service, r *http.Request, idOrSlug, userID string) (Event, error)

func (h HTTP) act(fn action) http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !p.Authenticated() {
			return core.NotSignedIn()
		}
		e, err := fn(h.Service, r, chi.URLParam(r, "idOrSlug"), p.UserID)
		if err != nil {
			return err
		}
		return h.detail(w, e)
	})
}

// Join serves PUT /api/eventos/{idOrSlug}/participation ('Participar', or
// claiming an offered seat).
func (h HTTP) Join() http.Handler {
	return h.act(func(s *Service, r *http.Request, id, user string) (Event, error) {
		return s.Join(r.Context(), id, user)
	})
}

// Leave serves DELETE /api/eventos/{idOrSlug}/participation ('Cancelar
// participação', declining an offer, or leaving the waiting list).
func (h HTTP) Leave() http.Handler {
	return h.act(func(s *Service, r *http.Request, id, user string) (Event, error) {
		return s.Leave(r.Context(), id, user)
	})
}

// Wait serves PUT /api/eventos/{idOrSlug}/waitlist ('Entrar na lista de espera').
func (h HTTP) Wait() http.Handler {
	return h.act(func(s *Service, r *http.Request, id, user string) (Event, error) {
		return s.Wait(r.Context(), id, user)
	})
}
