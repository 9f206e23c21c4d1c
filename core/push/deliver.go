package push

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/jackc/pgx/v5"
)

// Message is what a push shows. Kind picks its TTL and urgency (Policy).
type Message struct {
	Kind  string // the notification type, or "test"
	Title string
	Body  string
	URL   string // in-app path opened on click ("/" when empty)
	Tag   string // devices replace an earlier push with the same tag
}

// Target is one member to push a message to, on every active device, not
// before NotBefore (the end of their quiet hours).
type Target struct {
	UserID         string
	NotificationID string // "" for none (a test push)
	NotBefore      time.Time
}

// Policy is how long a push service keeps an undelivered push and how
// eagerly it wakes the device (RFC 8030 TTL and Urgency).
type Policy struct {
	TTL     time.Duration
	Urgency webpush.Urgency
}

// PolicyFor returns the TTL and urgency of a kind: a connection request or a
// streak reminder is worth waking a phone for and stale within the day; a
// like can wait and is worthless a few hours later; marketing is lowest.
func PolicyFor(kind string) Policy {
	switch kind {
	case "test":
		return Policy{TTL: 5 * time.Minute, Urgency: webpush.UrgencyHigh}
	case "connection":
		return Policy{TTL: 24 * time.Hour, Urgency: webpush.UrgencyHigh}
	case "checkin":
		return Policy{TTL: 4 * time.Hour, Urgency: webpush.UrgencyHigh}
	case "comment":
		return Policy{TTL: 12 * time.Hour, Urgency: webpush.UrgencyNormal}
	case "like":
		return Policy{TTL: 6 * time.Hour, Urgency: webpush.UrgencyLow}
	case "marketing":
		return Policy{TTL: 72 * time.Hour, Urgency: webpush.UrgencyVeryLow}
	default: // challenge, course, event, community, other
		return Policy{TTL: 24 * time.Hour, Urgency: webpush.UrgencyNormal}
	}
}

// CreateMessage stores a message inside tx and returns its id. It sends
// nothing until AddDeliveries gives it devices and Dispatch starts it.
func (s *Service) CreateMessage(ctx context.Context, tx pgx.Tx, m Message) (string, error) {
	p := PolicyFor(m.Kind)
	if m.URL == "" {
		m.URL = "/"
	}
	var id string
	err := tx.QueryRow(ctx, `INSERT INTO push_messages (kind, title, body, url, tag, urgency, ttl_seconds)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
		m.Kind, m.Title, m.Body, m.URL, m.Tag, string(p.Urgency), int(p.TTL/time.Second)).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("create push message: %w", err)
	}
	return id, nil
}

// AddDeliveries adds one delivery per active device of each target, once
// (the unique message × device key), and returns how many it added. When
// supersede is set, earlier pushes of the same notifications that have not
// gone out yet (held by quiet hours) are dropped: the newest text replaces
// them, as the tag would on the device.
func (s *Service) AddDeliveries(ctx context.Context, tx pgx.Tx, messageID string, targets []Target, supersede bool) (int, error) {
	if len(targets) == 0 {
		return 0, nil
	}
	users := make([]string, len(targets))
	notes := make([]string, len(targets))
	at := make([]time.Time, len(targets))
	for i, t := range targets {
		users[i], notes[i], at[i] = t.UserID, t.NotificationID, t.NotBefore
	}
	if supersede {
		if _, err := tx.Exec(ctx, `UPDATE push_deliveries SET status = 'superseded', claimed_until = NULL
			WHERE notification_id = ANY(SELECT nullif(n, '')::uuid FROM unnest($1::text[]) n)
			  AND status = 'pending' AND attempts = 0 AND message_id <> $2`, notes, messageID); err != nil {
			return 0, fmt.Errorf("supersede pushes: %w", err)
		}
	}
	tag, err := tx.Exec(ctx, `INSERT INTO push_deliveries (message_id, subscription_id, user_id, notification_id, next_attempt_at)
		SELECT $1, s.id, s.user_id, nullif(t.nid, '')::uuid, greatest(coalesce(t.at, now()), now())
		FROM unnest($2::uuid[], $3::text[], $4::timestamptz[]) AS t(uid, nid, at)
		JOIN push_subscriptions s ON s.user_id = t.uid AND s.is_active
		ON CONFLICT (message_id, subscription_id) DO NOTHING`, messageID, users, notes, at)
	if err != nil {
		return 0, fmt.Errorf("add push deliveries: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Withdraw stops, inside tx, the pushes of userID's notifications that have
// not gone out yet: every one when notificationIDs is nil, else those of the
// listed notifications. A delivery a worker holds right now is left to it.
func (s *Service) Withdraw(ctx context.Context, tx pgx.Tx, userID string, notificationIDs []string) (int, error) {
	tag, err := tx.Exec(ctx, `UPDATE push_deliveries SET status = 'withdrawn', claimed_until = NULL
		WHERE user_id = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
		  AND notification_id IS NOT NULL AND ($2::uuid[] IS NULL OR notification_id = ANY($2::uuid[]))`,
		userID, notificationIDs)
	if err != nil {
		return 0, fmt.Errorf("withdraw pushes: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Enqueue creates a message with deliveries to targets inside tx and returns
// its id ("" when nobody has an active device or push is not configured:
// then nothing is stored). Call Dispatch after commit.
func (s *Service) Enqueue(ctx context.Context, tx pgx.Tx, m Message, targets []Target, supersede bool) (string, error) {
	if !s.Configured() || len(targets) == 0 {
		return "", nil
	}
	id, err := s.CreateMessage(ctx, tx, m)
	if err != nil {
		return "", err
	}
	n, err := s.AddDeliveries(ctx, tx, id, targets, supersede)
	if err != nil {
		return "", err
	}
	if n == 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM push_messages WHERE id = $1`, id); err != nil {
			return "", fmt.Errorf("drop empty push message: %w", err)
		}
		return "", nil
	}
	return id, nil
}

// Payload is the JSON the service worker receives.
type Payload struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	Icon  string `json:"icon"`
	Badge string `json:"badge"`
	URL   string `json:"url"`
	Tag   string `json:"tag"`
	ID    string `json:"id"`
}

const (
	pushIcon  = "/icons/icon-192.png"
	pushBadge = "/icons/icon-192.png"
)

// Progress is the outcome of one DeliverDue call.
type Progress struct {
	Sent, Gone, Failed, Retrying int
	// More is true when deliveries were due but the limit stopped the call.
	More bool
	// Wait is how long until the next pending delivery is due (a retry or
	// the end of someone's quiet hours); zero with More false: all done.
	Wait time.Duration
}

// Done reports whether the message has nothing left to send.
func (p Progress) Done() bool { return !p.More && p.Wait == 0 }

type claimed struct {
	id             int64
	attempts       int
	notificationID *string
	subscriptionID string
	endpoint       string
	p256dh, auth   string
	active         bool
	m              Message
	ttl            int
	urgency        string
	messageID      string
}

// DeliverDue sends the message's due deliveries, at most limit of them,
// with at most Options.Concurrency in flight, and says what is left.
// beat is called after each chunk (the activity heartbeats). Each row is
// claimed before its send and marked right after it, so a worker that dies
// mid-fan-out leaves at most its in-flight sends to be repeated (and with a
// graceful stop, none: a started send always completes and is recorded).
func (s *Service) DeliverDue(ctx context.Context, messageID string, limit int, beat func(sent int)) (Progress, error) {
	var p Progress
	done := 0
	for done < limit && ctx.Err() == nil {
		chunk := min(s.opts.Concurrency*2, limit-done)
		rows, err := s.claim(ctx, messageID, chunk)
		if err != nil {
			return p, err
		}
		if len(rows) == 0 {
			break
		}
		s.sendAll(ctx, rows, &p)
		done += len(rows)
		if beat != nil {
			beat(done)
		}
	}
	if err := ctx.Err(); err != nil {
		return p, err
	}
	var due bool
	var wait *float64
	err := s.pool.QueryRow(ctx, `SELECT
			coalesce(bool_or(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at)) <= now()), false),
			extract(epoch FROM min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) - now())
		FROM push_deliveries WHERE message_id = $1 AND status = 'pending'`, messageID).Scan(&due, &wait)
	if err != nil {
		return p, fmt.Errorf("push deliveries left: %w", err)
	}
	switch {
	case due:
		p.More = true
	case wait != nil:
		p.Wait = max(time.Duration(*wait*float64(time.Second)), 10*time.Millisecond)
	}
	return p, nil
}

func (s *Service) claim(ctx context.Context, messageID string, n int) ([]claimed, error) {
	rows, err := s.pool.Query(ctx, `WITH c AS (
			UPDATE push_deliveries d SET attempts = d.attempts + 1, claimed_until = now() + $3::interval
			WHERE d.id IN (SELECT id FROM push_deliveries
				WHERE message_id = $1 AND status = 'pending' AND next_attempt_at <= now()
				  AND (claimed_until IS NULL OR claimed_until < now())
				ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
			RETURNING d.id, d.attempts, d.notification_id, d.subscription_id, d.message_id
		)
		SELECT c.id, c.attempts, c.notification_id::text, s.id::text, s.endpoint, s.p256dh, s.auth, s.is_active,
		       m.kind, m.title, m.body, m.url, m.tag, m.ttl_seconds, m.urgency, m.id::text
		FROM c JOIN push_subscriptions s ON s.id = c.subscription_id JOIN push_messages m ON m.id = c.message_id
		ORDER BY c.id`, messageID, n, s.opts.ClaimTTL.String())
	if err != nil {
		return nil, fmt.Errorf("claim push deliveries: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (claimed, error) {
		var c claimed
		err := row.Scan(&c.id, &c.attempts, &c.notificationID, &c.subscriptionID, &c.endpoint, &c.p256dh, &c.auth, &c.active,
			&c.m.Kind, &c.m.Title, &c.m.Body, &c.m.URL, &c.m.Tag, &c.ttl, &c.urgency, &c.messageID)
		return c, err
	})
}

func (s *Service) sendAll(ctx context.Context, rows []claimed, p *Progress) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, s.opts.Concurrency)
	for _, c := range rows {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			// A started send is finished and recorded even when the worker
			// is stopping: abandoning it after the push service accepted it
			// is what would make the next worker send it twice.
			sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 45*time.Second)
			defer cancel()
			outcome := s.deliverOne(sendCtx, c)
			mu.Lock()
			defer mu.Unlock()
			switch outcome {
			case statusSent:
				p.Sent++
			case statusGone:
				p.Gone++
			case statusFailed:
				p.Failed++
			default:
				p.Retrying++
			}
		}()
	}
	wg.Wait()
}

// Fixed reasons recorded for sends that got no answer from a push service.
const (
	ReasonNetwork        = "Falha de conexão com o serviço de notificações."
	ReasonBlockedAddress = "Endereço do serviço de notificações não permitido."
)

const (
	statusPending = "pending"
	statusSent    = "sent"
	statusFailed  = "failed"
	statusGone    = "gone"
)

// deliverOne sends one claimed delivery and records the outcome.
func (s *Service) deliverOne(ctx context.Context, c claimed) string {
	if !c.active {
		s.record(ctx, c, statusGone, "inscrição inativa", 0)
		return statusGone
	}
	if s.opts.Keys == nil {
		s.record(ctx, c, statusFailed, "VAPID não configurado", 0)
		return statusFailed
	}
	id := c.messageID
	if c.notificationID != nil {
		id = *c.notificationID
	}
	tag := c.m.Tag
	if tag == "" {
		tag = id
	}
	body, _ := json.Marshal(Payload{Title: c.m.Title, Body: c.m.Body, Icon: pushIcon, Badge: pushBadge, URL: c.m.URL, Tag: tag, ID: id})
	res, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{
		Endpoint: c.endpoint,
		Keys:     webpush.Keys{P256dh: c.p256dh, Auth: c.auth},
	}, &webpush.Options{
		HTTPClient:      s.opts.HTTPClient,
		Subscriber:      s.opts.Subject,
		Topic:           topic(tag),
		TTL:             c.ttl,
		Urgency:         webpush.Urgency(c.urgency),
		VAPIDPublicKey:  s.opts.Keys.Public,
		VAPIDPrivateKey: s.opts.Keys.Private,
	})
	if err != nil {
		// The member reads last_error in /api/push/deliveries: a raw network
		// error (refused, reset, TLS timeout) would tell ports and hosts
		// apart, so they get fixed texts and the cause goes to the log.
		if errors.Is(err, errBlockedAddress) {
			s.log.Warn("push endpoint resolves to a non-public address", "subscription_id", c.subscriptionID, "err", err)
			s.record(ctx, c, statusFailed, ReasonBlockedAddress, 0)
			return statusFailed
		}
		s.log.Info("push send failed", "subscription_id", c.subscriptionID, "attempt", c.attempts, "err", err)
		return s.retryOrFail(ctx, c, ReasonNetwork, 0)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		s.record(ctx, c, statusSent, "", 0)
		return statusSent
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		s.markGone(ctx, c, res.StatusCode)
		return statusGone
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
		return s.retryOrFail(ctx, c, fmt.Sprintf("HTTP %d", res.StatusCode), retryAfter(res.Header.Get("Retry-After"), time.Now()))
	default:
		// 400 (bad payload), 401/403 (VAPID refused), 413: sending the
		// same request again cannot succeed.
		s.record(ctx, c, statusFailed, fmt.Sprintf("HTTP %d", res.StatusCode), 0)
		return statusFailed
	}
}

// topic collapses pending pushes with the same tag at the push service
// (RFC 8030 §5.4: at most 32 base64url characters).
func topic(tag string) string {
	sum := sha256.Sum256([]byte(tag))
	return base64.RawURLEncoding.EncodeToString(sum[:24])
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Backoff is the wait after the attempt-th failed send: BaseBackoff
// doubled per earlier failure, capped at MaxBackoff, never shorter than
// the push service's Retry-After.
func (s *Service) Backoff(attempt int, after time.Duration) time.Duration {
	d := s.opts.BaseBackoff
	for i := 1; i < attempt && d < s.opts.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, s.opts.MaxBackoff)
	return max(d, after)
}

func (s *Service) retryOrFail(ctx context.Context, c claimed, reason string, after time.Duration) string {
	if c.attempts >= s.opts.MaxAttempts {
		s.record(ctx, c, statusFailed, reason, 0)
		return statusFailed
	}
	s.record(ctx, c, statusPending, reason, s.Backoff(c.attempts, after))
	return statusPending
}

func (s *Service) record(ctx context.Context, c claimed, status, reason string, wait time.Duration) {
	_, err := s.pool.Exec(ctx, `UPDATE push_deliveries SET status = $2, last_error = $3, claimed_until = NULL,
			next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + $4::interval ELSE next_attempt_at END,
			delivered_at = CASE WHEN $2 = 'sent' THEN now() ELSE delivered_at END
		WHERE id = $1`, c.id, status, reason, wait.String())
	if err != nil {
		// The claim expires and the row is tried again: a lost record
		// costs a repeat, never a lost push.
		s.log.Error("record push delivery", "delivery_id", c.id, "status", status, "err", err)
	}
}

// markGone retires a dead subscription at once: this delivery and every
// other pending one to it are gone, and it is never tried again.
func (s *Service) markGone(ctx context.Context, c claimed, code int) {
	reason := fmt.Sprintf("HTTP %d", code)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE push_subscriptions SET is_active = false, deactivated_reason = $2, updated_at = now()
			WHERE id = $1`, c.subscriptionID, reason); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE push_deliveries SET status = 'gone', last_error = $2, claimed_until = NULL
			WHERE (id = $1 OR (subscription_id = $3 AND status = 'pending'))`, c.id, reason, c.subscriptionID)
		return err
	})
	if err != nil {
		s.log.Error("retire push subscription", "subscription_id", c.subscriptionID, "err", err)
	}
}
