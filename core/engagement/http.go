package engagement

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// Resolve returns the id of the published item of type typeID named by
// idOrSlug, or a 404 (core/content answers it; this package does not know
// content types).
type Resolve func(ctx context.Context, typeID, idOrSlug string) (string, error)

// HTTP serves a reader's engagement on /api/content/{type}/{id}/…. Every
// route acts on the signed-in reader only and is idempotent: repeating a
// request leaves the same state and answers the same summary.
type HTTP struct {
	Service *Service
	Resolve Resolve
	Log     *slog.Logger
}

func (h HTTP) handle(fn func(r *http.Request, userID, itemID string) error) http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !p.Authenticated() {
			return core.NotSignedIn()
		}
		itemID, err := h.Resolve(r.Context(), chi.URLParam(r, "type"), chi.URLParam(r, "idOrSlug"))
		if err != nil {
			return err
		}
		if err := fn(r, p.UserID, itemID); err != nil {
			return err
		}
		sum, err := h.Service.Summary(r.Context(), p.UserID, itemID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, sum)
	})
}

// Favorite serves PUT (on) and DELETE (off) …/favorite.
func (h HTTP) Favorite(on bool) http.Handler {
	return h.handle(func(r *http.Request, userID, itemID string) error {
		_, err := h.Service.SetFavorite(r.Context(), userID, itemID, on)
		return err
	})
}

// MsgBadReaction refuses a reaction other than like, dislike or null.
const MsgBadReaction = "Use \"like\", \"dislike\" ou null."

// Reaction serves PUT …/reaction {"value":"like"|"dislike"|null}; null
// removes the reader's reaction.
func (h HTTP) Reaction() http.Handler {
	return h.handle(func(r *http.Request, userID, itemID string) error {
		body, err := httpx.Decode[struct {
			Value *string `json:"value"`
		}](r)
		if err != nil {
			return err
		}
		value := ReactionNone
		if body.Value != nil {
			value = Reaction(*body.Value)
			if value != ReactionLike && value != ReactionDislike {
				return core.Invalid(MsgBadReaction, map[string]string{"value": MsgBadReaction})
			}
		}
		_, err = h.Service.SetReaction(r.Context(), userID, itemID, value)
		return err
	})
}

// View serves POST …/view: counted once per reader and item per ViewWindow.
func (h HTTP) View() http.Handler {
	return h.handle(func(r *http.Request, userID, itemID string) error {
		_, err := h.Service.RecordView(r.Context(), userID, itemID)
		return err
	})
}

// Progress serves PUT …/progress with a ProgressUpdate.
func (h HTTP) Progress() http.Handler {
	return h.handle(func(r *http.Request, userID, itemID string) error {
		u, err := httpx.Decode[ProgressUpdate](r)
		if err != nil {
			return err
		}
		_, err = h.Service.RecordProgress(r.Context(), userID, itemID, u)
		return err
	})
}

// Enrolment serves PUT (enrol) and DELETE (leave) …/enrolment.
func (h HTTP) Enrolment(on bool) http.Handler {
	return h.handle(func(r *http.Request, userID, itemID string) error {
		_, err := h.Service.SetEnrolled(r.Context(), userID, itemID, on)
		return err
	})
}
