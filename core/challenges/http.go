package challenges

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the challenges API under /api/desafios.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

var phases = map[string]string{"": "", "ativos": PhaseActive, "proximos": PhaseUpcoming, "encerrados": PhaseFinished}

// ListAnswer is GET /api/desafios.
type ListAnswer struct {
	Challenges []Challenge `json:"challenges"`
}

func signedIn(r *http.Request) (string, error) {
	id := core.PrincipalFrom(r.Context()).UserID
	if id == "" {
		return "", core.NotSignedIn()
	}
	return id, nil
}

// List serves GET /api/desafios?fase=ativos|proximos|encerrados&especialidade=&dificuldade=.
func (h HTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		q := r.URL.Query()
		phase, ok := phases[q.Get("fase")]
		if !ok {
			return core.Invalid(MsgBadPhase, map[string]string{"fase": MsgBadPhase})
		}
		list, err := h.Service.List(r.Context(), me, Filter{Phase: phase, Specialty: q.Get("especialidade"), Difficulty: q.Get("dificuldade")})
		if err != nil {
			return err
		}
		if list == nil {
			list = []Challenge{}
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, ListAnswer{Challenges: list})
	})
}

// Get serves GET /api/desafios/{idOrSlug}.
func (h HTTP) Get() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		c, err := h.Service.Get(r.Context(), me, chi.URLParam(r, "idOrSlug"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// AnswersBody is the body of PUT …/respostas and POST …/envio.
type AnswersBody struct {
	// Answers maps a question number ("1") to a letter ("A"); "" clears.
	Answers map[string]string `json:"answers"`
}

// Save serves PUT /api/desafios/{idOrSlug}/respostas.
func (h HTTP) Save() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[AnswersBody](r)
		if err != nil {
			return err
		}
		p, err := h.Service.Save(r.Context(), me, chi.URLParam(r, "idOrSlug"), body.Answers)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// Submit serves POST /api/desafios/{idOrSlug}/envio.
func (h HTTP) Submit() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[AnswersBody](r)
		if err != nil {
			return err
		}
		res, err := h.Service.Submit(r.Context(), me, chi.URLParam(r, "idOrSlug"), body.Answers)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, res)
	})
}

// Ranking serves GET /api/desafios/ranking?escopo=geral|conexoes&semana=YYYY-MM-DD.
func (h HTTP) Ranking() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		q := r.URL.Query()
		scope := q.Get("escopo")
		if scope == "" {
			scope = ScopeAll
		}
		var week time.Time
		if v := q.Get("semana"); v != "" {
			if week, err = time.ParseInLocation(time.DateOnly, v, h.Service.zone); err != nil {
				return core.Invalid(MsgBadWeek, map[string]string{"semana": MsgBadWeek})
			}
		}
		rk, err := h.Service.Ranking(r.Context(), me, scope, week)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, rk)
	})
}

// Badges serves GET /api/desafios/medalhas.
func (h HTTP) Badges() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		me, err := signedIn(r)
		if err != nil {
			return err
		}
		b, err := h.Service.BadgesOf(r.Context(), me)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, b)
	})
}
