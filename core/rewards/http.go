package rewards

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the member's shop routes and the backoffice's.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// Shop serves GET /api/rewards: the active catalogue for the caller, each
// reward with whether they may redeem it now and why not.
func (h HTTP) Shop() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Shop(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// Redeem serves POST /api/rewards/{id}/redeem {idempotency_key}: 201 with
// the redemption, or 200 with the same one for a repeated key.
func (h HTTP) Redeem() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[struct {
			IdempotencyKey string `json:"idempotency_key"`
		}](r)
		if err != nil {
			return err
		}
		d, created, err := h.Service.Redeem(r.Context(), userID, chi.URLParam(r, "id"), body.IdempotencyKey)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, d)
	})
}

// Mine serves GET /api/rewards/redemptions: the caller's redemptions with
// codes and instructions, and the certificate frames they unlocked.
func (h HTTP) Mine() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Mine(r.Context(), userID)
		if err != nil {
			return err
		}
		frames, err := h.Service.MyFrames(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"redemptions": list, "frames": frames})
	})
}

var adminListParams = httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: []string{"position", "created_at"}}

func contentRange(w http.ResponseWriter, name string, offset, n, total int) {
	end := offset + n - 1
	if n == 0 {
		end = offset
	}
	w.Header().Set("Content-Range", fmt.Sprintf("%s %d-%d/%d", name, offset, end, total))
	w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
	w.Header().Set("Cache-Control", "no-store")
}

// AdminList serves GET /api/admin/rewards (react-admin list).
func (h HTTP) AdminList() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		// react-admin always sends a filter ({}); the catalogue has none.
		var f struct{}
		lq, err := httpx.ParseList(r, adminListParams, &f)
		if err != nil {
			return err
		}
		list, total, err := h.Service.AdminList(r.Context(), lq.Offset, lq.Limit)
		if err != nil {
			return err
		}
		contentRange(w, "rewards", lq.Offset, len(list), total)
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminGet serves GET /api/admin/rewards/{id}.
func (h HTTP) AdminGet() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		a, err := h.Service.AdminGet(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, a)
	})
}

// AdminCreate serves POST /api/admin/rewards.
func (h HTTP) AdminCreate() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[Input](r)
		if err != nil {
			return err
		}
		a, err := h.Service.Create(r.Context(), userID, in)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, a)
	})
}

// AdminUpdate serves PUT /api/admin/rewards/{id}.
func (h HTTP) AdminUpdate() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[Input](r)
		if err != nil {
			return err
		}
		a, err := h.Service.Update(r.Context(), userID, chi.URLParam(r, "id"), in)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, a)
	})
}

// AdminUploadVouchers serves POST /api/admin/rewards/{id}/vouchers {csv}.
func (h HTTP) AdminUploadVouchers() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[struct {
			CSV string `json:"csv"`
		}](r)
		if err != nil {
			return err
		}
		out, err := h.Service.UploadVouchers(r.Context(), userID, chi.URLParam(r, "id"), body.CSV)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}

// AdminRedemptions serves GET /api/admin/reward-redemptions (filter
// {reward_id, status, q}).
func (h HTTP) AdminRedemptions() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		var f RedemptionFilter
		lq, err := httpx.ParseList(r, httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: []string{"created_at"}}, &f)
		if err != nil {
			return err
		}
		list, total, err := h.Service.AdminRedemptions(r.Context(), f, lq.Offset, lq.Limit)
		if err != nil {
			return err
		}
		contentRange(w, "reward-redemptions", lq.Offset, len(list), total)
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminRefund serves POST /api/admin/reward-redemptions/{id}/refund {reason}.
func (h HTTP) AdminRefund() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[struct {
			Reason string `json:"reason"`
		}](r)
		if err != nil {
			return err
		}
		d, err := h.Service.Refund(r.Context(), userID, chi.URLParam(r, "id"), body.Reason)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, d)
	})
}
