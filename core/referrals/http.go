package referrals

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// DeviceHeader carries the PWA's first-party device id.
const DeviceHeader = "X-Device-Id"

// HTTP serves the member's routes and the backoffice's.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// Me serves GET /api/referrals/me: the signed-in member's code, link,
// totals and referrals (never anyone else's).
func (h HTTP) Me() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		// The referrer's devices are what a referee's sign-up is compared with.
		if err := h.Service.SeeDevice(r.Context(), nil, userID, r.Header.Get(DeviceHeader)); err != nil {
			return err
		}
		d, err := h.Service.Dashboard(r.Context(), userID)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, d)
	})
}

// Click serves POST /api/referrals/click {referral_code, session_id,
// device_id?} (track-referral-click): counted once per session and code.
func (h HTTP) Click() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		body, err := httpx.Decode[struct {
			ReferralCode string `json:"referral_code"`
			SessionID    string `json:"session_id"`
			DeviceID     string `json:"device_id"`
		}](r)
		if err != nil {
			return err
		}
		counted, err := h.Service.Click(r.Context(), body.ReferralCode, body.SessionID, body.DeviceID, httpx.ClientIP(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]bool{"counted": counted})
	})
}

// ProcessSignup serves POST /api/referrals/process-signup {referral_code,
// device_id?} (process-referral-signup): binds the signed-in member's new
// account (Google sign-in) to the code → {recorded, message}.
func (h HTTP) ProcessSignup() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[struct {
			ReferralCode string `json:"referral_code"`
			DeviceID     string `json:"device_id"`
		}](r)
		if err != nil {
			return err
		}
		out, err := h.Service.ProcessSignup(r.Context(), userID, body.ReferralCode, body.DeviceID, httpx.ClientIP(r))
		if err != nil {
			return err
		}
		msg := MsgSignupReferralOK
		if !out.Recorded {
			msg = MsgSignupReferralFailed
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"recorded": out.Recorded, "message": msg})
	})
}

var adminListParams = httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: []string{"created_at"}}

// AdminList serves GET /api/admin/referrals (react-admin list; filter
// {"verdict","state"}; verdict=flagged is the review queue).
func (h HTTP) AdminList() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		var f AdminFilter
		lq, err := httpx.ParseList(r, adminListParams, &f)
		if err != nil {
			return err
		}
		list, total, err := h.Service.AdminList(r.Context(), f, lq.Offset, lq.Limit)
		if err != nil {
			return err
		}
		end := lq.Offset + len(list) - 1
		if len(list) == 0 {
			end = lq.Offset
		}
		w.Header().Set("Content-Range", fmt.Sprintf("referrals %d-%d/%d", lq.Offset, end, total))
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminGet serves GET /api/admin/referrals/{id}: evidence and timeline.
func (h HTTP) AdminGet() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		d, err := h.Service.AdminGet(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, d)
	})
}

// AdminReview serves POST /api/admin/referrals/{id}/review {decision:
// "approve"|"reject", note} → the referral.
func (h HTTP) AdminReview() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[struct {
			Decision string `json:"decision"`
			Note     string `json:"note"`
		}](r)
		if err != nil {
			return err
		}
		if body.Decision != "approve" && body.Decision != "reject" {
			return core.Invalid("Decisão inválida.", map[string]string{"decision": "Use approve ou reject."})
		}
		id := chi.URLParam(r, "id")
		if !validUUID(id) {
			return core.Errorf(core.ENOTFOUND, "Indicação não encontrada.")
		}
		if err := h.Service.Review(r.Context(), userID, id, body.Decision == "approve", body.Note); err != nil {
			return err
		}
		d, err := h.Service.AdminGet(r.Context(), id)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, d)
	})
}

// AdminStats serves GET /api/admin/referrals-stats.
func (h HTTP) AdminStats() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		st, err := h.Service.AdminStats(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// AdminSettings serves GET /api/admin/referrals-settings.
func (h HTTP) AdminSettings() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		st, err := h.Service.Settings(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, st)
	})
}

// AdminUpdateSettings serves PUT /api/admin/referrals-settings.
func (h HTTP) AdminUpdateSettings() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		body, err := httpx.Decode[Settings](r)
		if err != nil {
			return err
		}
		st, err := h.Service.UpdateSettings(r.Context(), userID, body)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}
