package billing

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves billing's routes (core/httpapi registers them).
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// maxWebhookBody is the largest event accepted (Stripe's are far smaller).
const maxWebhookBody = 512 << 10

// Webhook serves POST /api/billing/webhook: the signature is checked on the
// raw body (300 s tolerance); a refused one answers 400 and writes nothing.
func (h HTTP) Webhook() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
		if err != nil || len(body) > maxWebhookBody {
			badRequest(w, r, "Corpo do evento ilegível ou grande demais.")
			return
		}
		ev, err := h.Service.VerifyWebhook(body, r.Header.Get("Stripe-Signature"))
		if err != nil {
			badRequest(w, r, "Assinatura do Stripe inválida ou expirada.")
			return
		}
		out, err := h.Service.HandleEvent(r.Context(), &ev, "webhook")
		if err != nil {
			// 500 makes Stripe deliver it again; the inbox keeps the failure.
			httpx.WriteError(w, r, h.Log, err)
			return
		}
		_ = httpx.Encode(w, http.StatusOK, map[string]any{"received": true, "status": out.Status, "duplicate": out.Duplicate})
	})
}

// badRequest is the webhook's 400 (Stripe's convention), in the error shape.
func badRequest(w http.ResponseWriter, r *http.Request, msg string) {
	_ = httpx.Encode(w, http.StatusBadRequest, httpx.ErrorBody{Error: httpx.ErrorDetail{Code: core.EINVALID, Message: msg, RequestID: httpx.RequestID(r.Context())}})
}

// Plans serves GET /api/billing/plans (public).
func (h HTTP) Plans() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p, err := h.Service.Plans(r.Context())
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, p)
	})
}

// Checkout serves POST /api/billing/checkout.
func (h HTTP) Checkout() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		req, err := httpx.Decode[CheckoutRequest](r)
		if err != nil {
			return err
		}
		url, err := h.Service.Checkout(r.Context(), userID, req)
		var conflict *ConflictError
		if errors.As(err, &conflict) {
			return httpx.Encode(w, http.StatusConflict, map[string]any{
				"error":      httpx.ErrorDetail{Code: core.ECONFLICT, Message: MsgAlreadySubscribed, RequestID: httpx.RequestID(r.Context())},
				"portal_url": conflict.PortalURL,
			})
		}
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"url": url})
	})
}

// Portal serves POST /api/billing/portal.
func (h HTTP) Portal() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		url, err := h.Service.Portal(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"url": url})
	})
}

// Check serves POST /api/billing/check (check-subscription).
func (h HTTP) Check() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		v, err := h.Service.Check(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, v)
	})
}

// Sync serves POST /api/billing/sync {session_id?} (sync-subscription).
func (h HTTP) Sync() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		var req struct {
			SessionID string `json:"session_id"`
		}
		if r.ContentLength != 0 {
			var err error
			req, err = httpx.Decode[struct {
				SessionID string `json:"session_id"`
			}](r)
			if err != nil && !errors.Is(err, core.ErrEmptyBody) {
				return err
			}
		}
		v, err := h.Service.SyncSession(r.Context(), userID, req.SessionID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, v)
	})
}

// Subscription serves GET /api/billing/subscription.
func (h HTTP) Subscription() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		v, err := h.Service.Subscription(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, v)
	})
}

// Payments serves GET /api/billing/payments.
func (h HTTP) Payments() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		p, err := h.Service.Payments(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"payments": p})
	})
}

// superAdmin refuses anyone but a super administrator (the route policy
// says so too; the handler does not rely on it alone).
func superAdmin(r *http.Request) error {
	p := core.PrincipalFrom(r.Context())
	if !p.Authenticated() {
		return core.NotSignedIn()
	}
	if !p.HasRole(core.RoleSuperAdmin) {
		return core.Errorf(core.EFORBIDDEN, "Apenas super administradores podem ver isto.")
	}
	return nil
}

// Diagnostics serves GET /api/billing/diagnostics (super admins).
func (h HTTP) Diagnostics() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		d, err := h.Service.Diagnostics(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, d)
	})
}

func contentRange(w http.ResponseWriter, name string, offset, n int, total int64) {
	end := offset + n - 1
	if n == 0 {
		end = offset
	}
	w.Header().Set("Content-Range", fmt.Sprintf("%s %d-%d/%d", name, offset, end, total))
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	w.Header().Set("Access-Control-Expose-Headers", "Content-Range, X-Total-Count")
	w.Header().Set("Cache-Control", "no-store")
}

func badQuery(field, msg string) error {
	return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{field: msg})
}

var subscriptionStatuses = []string{"", "active", "trialing", "past_due", "unpaid", "canceled", "incomplete", "incomplete_expired", "paused"}

// AdminSubscriptions serves GET /api/admin/billing/subscriptions
// (react-admin list: filter {status, plan, q}).
func (h HTTP) AdminSubscriptions() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		var f struct {
			Status string `json:"status"`
			Plan   string `json:"plan"`
			Q      string `json:"q"`
		}
		lq, err := httpx.ParseList(r, httpx.ListParams{SortFields: AdminSubscriptionSorts}, &f)
		if err != nil {
			return err
		}
		if !slices.Contains(subscriptionStatuses, f.Status) {
			return badQuery("status", "Status desconhecido.")
		}
		if f.Plan != "" && f.Plan != "monthly" && f.Plan != "yearly" {
			return badQuery("plan", "Use monthly ou yearly.")
		}
		if len(f.Q) > 200 {
			return badQuery("q", "Busca longa demais.")
		}
		list, total, err := h.Service.ListSubscriptions(r.Context(), AdminQuery{Status: f.Status, Plan: f.Plan, Q: f.Q,
			Sort: lq.SortField, Descending: lq.Descending, Offset: lq.Offset, Limit: lq.Limit})
		if err != nil {
			return err
		}
		contentRange(w, "subscriptions", lq.Offset, len(list), total)
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminMetrics serves GET /api/admin/billing/metrics.
func (h HTTP) AdminMetrics() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		m, err := h.Service.Metrics(r.Context())
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, map[string]any{"mrr_cents_by_month": m})
	})
}

// AdminTimeline serves GET /api/admin/billing/subscriptions/{user_id}/timeline.
func (h HTTP) AdminTimeline() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		id := chi.URLParam(r, "user_id")
		if !isUUID(id) {
			return errNotFound("Este membro não tem assinatura.")
		}
		t, err := h.Service.Timeline(r.Context(), id)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, t)
	})
}

var eventStatuses = []string{"", EventReceived, EventApplied, EventIgnored, EventFailed}

// AdminEvents serves GET /api/admin/billing/events (filter {status, type}).
func (h HTTP) AdminEvents() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		var f struct {
			Status string `json:"status"`
			Type   string `json:"type"`
		}
		lq, err := httpx.ParseList(r, httpx.ListParams{SortFields: AdminEventSorts}, &f)
		if err != nil {
			return err
		}
		if !slices.Contains(eventStatuses, f.Status) {
			return badQuery("status", "Use received, applied, ignored ou failed.")
		}
		if len(f.Type) > 100 {
			return badQuery("type", "Tipo desconhecido.")
		}
		list, total, err := h.Service.ListEvents(r.Context(), AdminQuery{Status: f.Status, Sort: lq.SortField, Descending: lq.Descending,
			Offset: lq.Offset, Limit: lq.Limit}, f.Type)
		if err != nil {
			return err
		}
		contentRange(w, "events", lq.Offset, len(list), total)
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminReprocess serves POST /api/admin/billing/events/{id}/reprocess (super admins).
func (h HTTP) AdminReprocess() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		if err := superAdmin(r); err != nil {
			return err
		}
		id := chi.URLParam(r, "id")
		if len(id) > 255 || httpx.TextProblem(id) != "" {
			return errNotFound("Evento não encontrado.")
		}
		out, err := h.Service.Reprocess(r.Context(), id)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"id": id, "status": out.Status})
	})
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
