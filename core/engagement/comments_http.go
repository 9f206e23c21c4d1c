package engagement

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// IdempotencyHeader names the header a retried create repeats.
const IdempotencyHeader = "Idempotency-Key"

// CommentsHTTP serves comments: on one item (of one type, e.g. the
// community's posts at /api/community/posts/{id}/comments, with Type set; any type at
// /api/content/{type}/{idOrSlug}/comments with Type "") and on one comment
// (/api/comments/{id}…).
type CommentsHTTP struct {
	Service *Service
	Resolve Resolve
	// Type fixes the content type of the item routes ("" reads {type} and
	// {idOrSlug} from the path; otherwise the item is {id}).
	Type string
	// IsModerator says whether the caller may delete anyone's comment.
	IsModerator func(p core.Principal) bool
	Log         *slog.Logger
}

func (h CommentsHTTP) item(r *http.Request) (string, error) {
	if h.Type != "" {
		return h.Resolve(r.Context(), h.Type, chi.URLParam(r, "id"))
	}
	return h.Resolve(r.Context(), chi.URLParam(r, "type"), chi.URLParam(r, "idOrSlug"))
}

// signedIn returns the caller, or the 401 the comment writes answer.
func signedIn(r *http.Request) (core.Principal, error) {
	p := core.PrincipalFrom(r.Context())
	if !p.Authenticated() {
		return p, core.NotSignedInToWrite()
	}
	return p, nil
}

// CommentList is GET …/comments.
type CommentList struct {
	Items []Comment `json:"items"`
}

// List serves GET …/comments → {items: Comment[]}.
func (h CommentsHTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		// A members-only type's comments stay so through the generic
		// route, which visitors may call for public types.
		if h.Type == "" && h.Service.rules.membersOnly(chi.URLParam(r, "type")) && !core.PrincipalFrom(r.Context()).Authenticated() {
			return core.NotSignedIn()
		}
		itemID, err := h.item(r)
		if err != nil {
			return err
		}
		list, err := h.Service.Comments(r.Context(), core.PrincipalFrom(r.Context()).UserID, itemID)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, CommentList{Items: list})
	})
}

// Create serves POST …/comments {content, parent_id?} with an optional
// Idempotency-Key → 201 Comment (200 with the first comment on a retry).
func (h CommentsHTTP) Create() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			Content  string  `json:"content"`
			ParentID *string `json:"parent_id"`
		}](r)
		if err != nil {
			return err
		}
		itemID, err := h.item(r)
		if err != nil {
			return err
		}
		in := NewComment{Content: body.Content, IdempotencyKey: r.Header.Get(IdempotencyHeader)}
		if body.ParentID != nil {
			in.ParentID = *body.ParentID
		}
		c, created, err := h.Service.CreateComment(r.Context(), p.UserID, itemID, in)
		if d, ok := RetryAfter(err); ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
		}
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, c)
	})
}

// Edit serves PUT /api/comments/{id} {content} → Comment.
func (h CommentsHTTP) Edit() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			Content string `json:"content"`
		}](r)
		if err != nil {
			return err
		}
		c, err := h.Service.EditComment(r.Context(), p.UserID, chi.URLParam(r, "id"), body.Content)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// Delete serves DELETE /api/comments/{id} → 204 (the author or a moderator).
func (h CommentsHTTP) Delete() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		moderator := h.IsModerator != nil && h.IsModerator(p)
		if err := h.Service.DeleteComment(r.Context(), p.UserID, chi.URLParam(r, "id"), moderator); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// Reaction serves PUT /api/comments/{id}/reaction {reaction:
// "like"|"dislike"|"none"} → {likes, dislikes, is_liked, is_disliked}.
func (h CommentsHTTP) Reaction() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := signedIn(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			Reaction string `json:"reaction"`
		}](r)
		if err != nil {
			return err
		}
		var value Reaction
		switch body.Reaction {
		case "like":
			value = ReactionLike
		case "dislike":
			value = ReactionDislike
		case "none":
			value = ReactionNone
		default:
			return core.Invalid(MsgBadCommentReaction, map[string]string{"reaction": MsgBadCommentReaction})
		}
		out, err := h.Service.SetCommentReaction(r.Context(), p.UserID, chi.URLParam(r, "id"), value)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}
