package ai

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves /api/ai/*.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// Suggestions are the first questions offered to a veterinarian.
var Suggestions = []string{
	"Quais são os sinais clínicos da doença renal crônica em gatos?",
	"Como interpretar o VHS em radiografias de tórax de cães?",
	"Quais vacinas compõem o protocolo básico de filhotes de cães?",
	"Quais doenças são de notificação obrigatória ao serviço veterinário oficial?",
}

// PremiumInvitation is added to a non-premium member's 429.
const PremiumInvitation = "Com o Premium, você consulta a VetClube IA sem o limite do teste."

// Status serves GET /api/ai/status: the mode (demo without a language
// model, or live), the disclaimer, the quota and suggested questions.
func (h *HTTP) Status() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		q, err := h.Service.Quota(r.Context(), userID)
		if err != nil {
			return err
		}
		accepted, err := h.Service.disclaimerAccepted(r.Context(), h.Service.pool, userID)
		if err != nil {
			return err
		}
		mode := "live"
		if h.Service.Demo() {
			mode = "demo"
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{
			"mode": mode, "model": h.Service.Model(), "disclaimer": Disclaimer, "disclaimer_accepted": accepted,
			"quota": q, "suggestions": Suggestions,
		})
	})
}

// AcceptDisclaimer serves POST /api/ai/disclaimer.
func (h *HTTP) AcceptDisclaimer() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		if err := h.Service.AcceptDisclaimer(r.Context(), userID); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"disclaimer_accepted": true})
	})
}

// List serves GET /api/ai/conversations[?q=].
func (h *HTTP) List() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		q := r.URL.Query().Get("q")
		if len([]rune(q)) > 200 {
			return core.Invalid("A busca deve ter no máximo 200 caracteres.", map[string]string{"q": "Até 200 caracteres."})
		}
		list, err := h.Service.List(r.Context(), userID, q)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"conversations": list})
	})
}

// Create serves POST /api/ai/conversations {title?, client_id?}.
func (h *HTTP) Create() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[struct {
			Title    string `json:"title"`
			ClientID string `json:"client_id"`
		}](r)
		if err != nil {
			return err
		}
		c, err := h.Service.Create(r.Context(), userID, in.Title, in.ClientID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, c)
	})
}

// Get serves GET /api/ai/conversations/{id}: the conversation and its messages.
func (h *HTTP) Get() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		c, msgs, err := h.Service.Get(r.Context(), userID, chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"conversation": c, "messages": msgs})
	})
}

// Rename serves PATCH /api/ai/conversations/{id} {title}.
func (h *HTTP) Rename() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[struct {
			Title string `json:"title"`
		}](r)
		if err != nil {
			return err
		}
		c, err := h.Service.Rename(r.Context(), userID, chi.URLParam(r, "id"), in.Title)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, c)
	})
}

// Delete serves DELETE /api/ai/conversations/{id}.
func (h *HTTP) Delete() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		if err := h.Service.Delete(r.Context(), userID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// Report serves POST /api/ai/messages/{id}/report {reason?}.
func (h *HTTP) Report() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[struct {
			Reason string `json:"reason"`
		}](r)
		if err != nil {
			return err
		}
		if err := h.Service.Report(r.Context(), userID, chi.URLParam(r, "id"), in.Reason); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"reported": true})
	})
}

// Ask serves POST /api/ai/conversations/{id}/messages: the question is
// checked and counted first (errors and the 429 of a limit are plain JSON);
// then the answer streams as server-sent events (alert, sources, delta,
// done). Closing the stream is 'Parar': the request upstream is aborted and
// the partial answer saved as stopped.
func (h *HTTP) Ask() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[AskInput](r)
		if err != nil {
			return err
		}
		turn, err := h.Service.Begin(r.Context(), userID, chi.URLParam(r, "id"), in)
		var lim *LimitError
		if errors.As(err, &lim) {
			body := map[string]any{"error": httpx.ErrorDetail{Code: core.ERATELIMITED, Message: lim.Err.Message, RequestID: httpx.RequestID(r.Context())},
				"quota": lim.Quota}
			if !lim.Quota.Premium {
				body["premium_invitation"] = map[string]string{"text": PremiumInvitation, "url": "/pricing"}
			}
			w.Header().Set("Retry-After", fmt.Sprint(max(1, int(time.Until(lim.Quota.ResetsAt).Seconds()))))
			return httpx.Encode(w, http.StatusTooManyRequests, body)
		}
		if err != nil {
			return err
		}
		rc := http.NewResponseController(w)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store, no-transform")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		emit := func(ev Event) error {
			b, err := json.Marshal(ev.Data)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Name, b); err != nil {
				return err
			}
			return rc.Flush()
		}
		h.Service.Stream(r.Context(), turn, emit)
		return nil
	})
}
