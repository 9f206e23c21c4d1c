package push

import (
	"log/slog"
	"net/http"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HandleVAPIDKey serves GET /api/push/vapid-key: the public key browsers
// subscribe with, or 503 with a pt-BR message when none is configured.
func HandleVAPIDKey(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		if !s.Configured() {
			return errUnavailable()
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"public_key": s.PublicKey()})
	})
}

// HandleListSubscriptions serves GET /api/push/subscriptions.
func HandleListSubscriptions(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		list, err := s.Subscriptions(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		if list == nil {
			list = []Subscription{}
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"subscriptions": list})
	})
}

// subscribeRequest is the PWA's sync payload (a push subscription);
// fcmToken is accepted and ignored: delivery is native Web Push only.
type subscribeRequest struct {
	Subscription BrowserSubscription `json:"subscription"`
	UserAgent    string              `json:"userAgent"`
	FCMToken     *string             `json:"fcmToken,omitempty"`
}

// HandleSubscribe serves POST /api/push/subscriptions: 201 for a new device,
// 200 when the endpoint was known (refreshed and reactivated).
func HandleSubscribe(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		req, err := httpx.Decode[subscribeRequest](r)
		if err != nil {
			return err
		}
		ua := req.UserAgent
		if ua == "" {
			ua = r.UserAgent()
		}
		sub, created, err := s.Subscribe(r.Context(), core.PrincipalFrom(r.Context()).UserID, req.Subscription, ua)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, sub)
	})
}

// HandleUnsubscribe serves POST /api/push/subscriptions/unsubscribe.
func HandleUnsubscribe(log *slog.Logger, s *Service) http.Handler {
	type request struct {
		Subscription struct {
			Endpoint       string   `json:"endpoint"`
			ExpirationTime *float64 `json:"expirationTime,omitempty"`
			Keys           *struct {
				P256dh string `json:"p256dh"`
				Auth   string `json:"auth"`
			} `json:"keys,omitempty"`
		} `json:"subscription"`
	}
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		req, err := httpx.Decode[request](r)
		if err != nil {
			return err
		}
		if req.Subscription.Endpoint == "" {
			return core.Invalid("Inscrição de notificações inválida.", map[string]string{"subscription.endpoint": "Informe o endereço da inscrição."})
		}
		if err := s.Unsubscribe(r.Context(), core.PrincipalFrom(r.Context()).UserID, req.Subscription.Endpoint); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// HandleTest serves POST /api/push/test: 202 {"sent": devices}, 409 when
// the member has no active device.
func HandleTest(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		n, err := s.SendTest(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusAccepted, map[string]int{"sent": n})
	})
}

// HandleDeliveries serves GET /api/push/deliveries: the member's 20 latest.
func HandleDeliveries(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		list, err := s.Deliveries(r.Context(), core.PrincipalFrom(r.Context()).UserID, 20)
		if err != nil {
			return err
		}
		if list == nil {
			list = []Delivery{}
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"deliveries": list})
	})
}
