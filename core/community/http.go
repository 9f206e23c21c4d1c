package community

import (
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/httpx"
)

// IdempotencyHeader lets a post be retried without posting twice.
const IdempotencyHeader = "Idempotency-Key"

// Moderation is the casbin capability (core/authz/policy.csv) that lets a
// member delete anyone's post: moderators and super admins.
const (
	ModerationObject = "community:posts"
	ModerationAction = "moderate"
)

// HTTP serves the community API under /api/community. Every route is for
// signed-in members (the policy keeps visitors out) and acts as the
// principal.
type HTTP struct {
	Service *Service
	Authz   *authz.Authorizer
	Log     *slog.Logger
}

func principal(r *http.Request) (core.Principal, error) {
	p := core.PrincipalFrom(r.Context())
	if !p.Authenticated() {
		return p, core.NotSignedInToWrite()
	}
	return p, nil
}

// handle adds the Retry-After of a rate-limit refusal to the standard
// error answer.
func (h HTTP) handle(fn httpx.HandlerFunc) http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		err := fn(w, r)
		var rl *RateLimited
		if errors.As(err, &rl) {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(rl.After.Seconds()))))
		}
		return err
	})
}

// Feed serves GET /api/community/feed?tab=todos|conexoes&author=&cursor=&limit=.
func (h HTTP) Feed() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		v := r.URL.Query()
		q := FeedQuery{Reader: p.UserID, Tab: v.Get("tab"), Author: v.Get("author"), Cursor: v.Get("cursor")}
		if raw := v.Get("limit"); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 1 {
				return invalid("limit", MsgBadLimit)
			}
			q.Limit = n
		}
		page, err := h.Service.Feed(r.Context(), q)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, page)
	})
}

// Get serves GET /api/community/posts/{id}.
func (h HTTP) Get() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		post, err := h.Service.Get(r.Context(), p.UserID, chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, post)
	})
}

// Create serves POST /api/community/posts {content, media_ids} with an
// optional Idempotency-Key: 201 with the post, 200 with the same post on a
// retry with the same key.
func (h HTTP) Create() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		in, err := httpx.Decode[Input](r)
		if err != nil {
			return err
		}
		post, created, err := h.Service.Create(r.Context(), p.UserID, in, r.Header.Get(IdempotencyHeader))
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, post)
	})
}

// Update serves PUT /api/community/posts/{id} {content, media_ids}: the
// author only.
func (h HTTP) Update() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		in, err := httpx.Decode[Input](r)
		if err != nil {
			return err
		}
		post, err := h.Service.Update(r.Context(), p.UserID, chi.URLParam(r, "id"), in)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, post)
	})
}

// Delete serves DELETE /api/community/posts/{id}: the author, a moderator
// or a super admin; 204.
func (h HTTP) Delete() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		moderator := h.Authz != nil && h.Authz.Allowed(p.Roles, ModerationObject, ModerationAction)
		if err := h.Service.Delete(r.Context(), p.UserID, chi.URLParam(r, "id"), moderator); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// Like serves PUT (on) and DELETE (off) /api/community/posts/{id}/like:
// {likes, liked}, idempotent.
func (h HTTP) Like(on bool) http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		st, err := h.Service.SetLike(r.Context(), p.UserID, chi.URLParam(r, "id"), on)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// AcceptBody names the comment a post's author accepts as the answer.
type AcceptBody struct {
	CommentID string `json:"comment_id"`
}

// AcceptAnswer serves PUT /api/community/posts/{id}/resposta-aceita
// ({comment_id}: the post's author accepts a colleague's comment) and
// DELETE (no accepted answer): {post_id, accepted_comment_id}.
func (h HTTP) AcceptAnswer(on bool) http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		var out AcceptedAnswer
		if on {
			body, err := httpx.Decode[AcceptBody](r)
			if err != nil {
				return err
			}
			out, err = h.Service.AcceptAnswer(r.Context(), p.UserID, chi.URLParam(r, "id"), body.CommentID)
			if err != nil {
				return err
			}
		} else if out, err = h.Service.ClearAnswer(r.Context(), p.UserID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}

// Upload serves POST /api/community/uploads: multipart/form-data with one
// picture in the field "file"; 201 with the picture, not yet attached.
func (h HTTP) Upload() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, err := principal(r)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			return uploadError(MsgImageType)
		}
		mr, err := r.MultipartReader()
		if err != nil {
			return uploadError(MsgImageType)
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return uploadError(MsgImageType)
			}
			if err != nil {
				var maxErr *http.MaxBytesError
				if errors.As(err, &maxErr) {
					return uploadError(MsgImageTooLarge)
				}
				return uploadError(MsgUploadRead)
			}
			if part.FormName() != "file" {
				part.Close()
				continue
			}
			m, err := h.Service.Upload(r.Context(), p.UserID, part.FileName(), part)
			part.Close()
			if err != nil {
				return err
			}
			return httpx.Encode(w, http.StatusCreated, m)
		}
	})
}
