package push

import (
	"context"
	"crypto/ecdh"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// Subscription is one device of one member.
type Subscription struct {
	ID        string    `json:"id"`
	Endpoint  string    `json:"endpoint"`
	IsActive  bool      `json:"is_active"`
	UserAgent string    `json:"user_agent"`
	CreatedAt time.Time `json:"created_at"`
}

// BrowserSubscription is PushSubscription.toJSON() as the browser sends it.
type BrowserSubscription struct {
	Endpoint       string   `json:"endpoint"`
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

const maxUserAgent = 512

// validate checks what the browser sent: an https endpoint on a public
// host (http, loopback and private hosts only with AllowLocalServices), a
// P-256 public key and a 16-byte auth secret. A host name is checked again
// by the dialer after resolution; refusing literal addresses here gives the
// member a clear answer instead of a failed delivery.
func (s *Service) validate(b BrowserSubscription) error {
	bad := map[string]string{}
	u, err := url.Parse(b.Endpoint)
	switch {
	case b.Endpoint == "" || err != nil || u.Host == "":
		bad["subscription.endpoint"] = "Endereço de inscrição inválido."
	case len(b.Endpoint) > 2048:
		bad["subscription.endpoint"] = "Endereço de inscrição longo demais."
	case u.User != nil || (!s.opts.AllowLocalServices && !publicHost(u.Hostname())):
		bad["subscription.endpoint"] = "Endereço de inscrição inválido."
	case u.Scheme == "https":
	case u.Scheme == "http" && s.opts.AllowLocalServices && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost" || u.Hostname() == "::1"):
	default:
		bad["subscription.endpoint"] = "O endereço de inscrição deve usar https."
	}
	if p, err := decodeB64URL(b.Keys.P256dh); err != nil || len(p) != 65 {
		bad["subscription.keys.p256dh"] = "Chave p256dh inválida."
	} else if _, err := ecdh.P256().NewPublicKey(p); err != nil {
		bad["subscription.keys.p256dh"] = "Chave p256dh inválida."
	}
	if a, err := decodeB64URL(b.Keys.Auth); err != nil || len(a) != 16 {
		bad["subscription.keys.auth"] = "Chave auth inválida."
	}
	if len(bad) > 0 {
		return core.Invalid("Inscrição de notificações inválida.", bad)
	}
	return nil
}

// publicHost is false for a literal non-public address or a name that is
// local by definition (localhost and its subdomains, single-label names).
func publicHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return PublicAddress(ip)
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	return h != "" && strings.Contains(h, ".") && h != "localhost" && !strings.HasSuffix(h, ".localhost") &&
		!strings.HasSuffix(h, ".local") && !strings.HasSuffix(h, ".internal")
}

func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

const subscriptionColumns = `id::text, endpoint, is_active, user_agent, created_at`

func scanSubscription(row pgx.Row, sub *Subscription) error {
	return row.Scan(&sub.ID, &sub.Endpoint, &sub.IsActive, &sub.UserAgent, &sub.CreatedAt)
}

// MaxDevices is how many active devices a member may have: enough for
// every phone, tablet and browser a person uses, few enough that one
// account cannot make the server fan a push out to a crowd of endpoints.
const MaxDevices = 10

// Messages of the refusals of Subscribe.
const (
	MsgEndpointTaken  = "Este navegador está inscrito nas notificações de outra conta. Ative as notificações novamente para inscrevê-lo nesta."
	MsgTooManyDevices = "Você já tem 10 dispositivos com notificações ativas. Desative um deles para ativar neste."
)

// Subscribe registers (or refreshes) a device for userID, keyed by
// endpoint. An endpoint belongs to the member who registered it and never
// changes owner: registering another member's endpoint is refused (409),
// and the browser then makes a new subscription (a new endpoint) for the
// member now signed in. created is false when the endpoint was known.
func (s *Service) Subscribe(ctx context.Context, userID string, b BrowserSubscription, userAgent string) (sub Subscription, created bool, err error) {
	b.Keys.P256dh = strings.TrimRight(strings.TrimSpace(b.Keys.P256dh), "=")
	b.Keys.Auth = strings.TrimRight(strings.TrimSpace(b.Keys.Auth), "=")
	b.Endpoint = strings.TrimSpace(b.Endpoint)
	if err := s.validate(b); err != nil {
		return Subscription{}, false, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// One member's registrations run one at a time, so the device count
		// cannot be passed by registering many devices at once.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('push_subscriptions:' || $1, 0))`, userID); err != nil {
			return fmt.Errorf("lock member devices: %w", err)
		}
		var owner string
		var active bool
		err := tx.QueryRow(ctx, `SELECT user_id::text, is_active FROM push_subscriptions WHERE endpoint = $1 FOR UPDATE`, b.Endpoint).Scan(&owner, &active)
		known := err == nil
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return fmt.Errorf("find push subscription: %w", err)
		case owner != userID:
			return core.Errorf(core.ECONFLICT, MsgEndpointTaken)
		}
		if !known || !active {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM push_subscriptions WHERE user_id = $1 AND is_active`, userID).Scan(&n); err != nil {
				return fmt.Errorf("count push subscriptions: %w", err)
			}
			if n >= MaxDevices {
				return core.Errorf(core.EINVALID, MsgTooManyDevices)
			}
		}
		err = tx.QueryRow(ctx, `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, user_agent)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
				user_agent = EXCLUDED.user_agent, is_active = true, deactivated_reason = '', updated_at = now()
				WHERE push_subscriptions.user_id = EXCLUDED.user_id
			RETURNING `+subscriptionColumns+`, (xmax = 0)`,
			userID, b.Endpoint, b.Keys.P256dh, b.Keys.Auth, clip(userAgent, maxUserAgent)).
			Scan(&sub.ID, &sub.Endpoint, &sub.IsActive, &sub.UserAgent, &sub.CreatedAt, &created)
		if errors.Is(err, pgx.ErrNoRows) {
			// Another member registered the endpoint in the meantime.
			return core.Errorf(core.ECONFLICT, MsgEndpointTaken)
		}
		if err != nil {
			return fmt.Errorf("save push subscription: %w", err)
		}
		return nil
	})
	if err != nil {
		return Subscription{}, false, err
	}
	return sub, created, nil
}

// Unsubscribe deactivates userID's device with endpoint. Another member's
// endpoint is left alone and reported like an unknown one (no error).
func (s *Service) Unsubscribe(ctx context.Context, userID, endpoint string) error {
	_, err := s.pool.Exec(ctx, `UPDATE push_subscriptions SET is_active = false, deactivated_reason = 'unsubscribed', updated_at = now()
		WHERE user_id = $1 AND endpoint = $2`, userID, strings.TrimSpace(endpoint))
	if err != nil {
		return fmt.Errorf("unsubscribe push: %w", err)
	}
	return nil
}

// Subscriptions lists userID's devices, newest first.
func (s *Service) Subscriptions(ctx context.Context, userID string) ([]Subscription, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+subscriptionColumns+` FROM push_subscriptions
		WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Subscription, error) {
		var sub Subscription
		err := scanSubscription(row, &sub)
		return sub, err
	})
	if err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	return list, nil
}

// Delivery is one push to one device, as the /push-test page shows it.
type Delivery struct {
	ID          int64      `json:"id"`
	Endpoint    string     `json:"endpoint"`
	Status      string     `json:"status"`
	Attempts    int        `json:"attempts"`
	LastError   string     `json:"last_error"`
	CreatedAt   time.Time  `json:"created_at"`
	DeliveredAt *time.Time `json:"delivered_at"`
	Kind        string     `json:"kind"`
	Title       string     `json:"title"`
}

// Deliveries lists userID's latest deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, userID string, limit int) ([]Delivery, error) {
	rows, err := s.pool.Query(ctx, `SELECT d.id, s.endpoint, d.status, d.attempts, d.last_error, d.created_at, d.delivered_at, m.kind, m.title
		FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id JOIN push_messages m ON m.id = d.message_id
		WHERE d.user_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("list push deliveries: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Delivery, error) {
		var d Delivery
		err := row.Scan(&d.ID, &d.Endpoint, &d.Status, &d.Attempts, &d.LastError, &d.CreatedAt, &d.DeliveredAt, &d.Kind, &d.Title)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("list push deliveries: %w", err)
	}
	return list, nil
}
