package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Hub holds this instance's one LISTEN connection and fans notifications out
// to the streams open on this instance.
type Hub struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	mu       sync.Mutex
	subs     map[string]map[*Subscription]struct{}
	draining bool // Drain was called: new subscriptions start closed

	ready     chan struct{}
	readyOnce sync.Once
	cancel    context.CancelFunc
	done      chan struct{}
}

// Subscription receives one user's events. C is closed when the subscriber
// fell too far behind (the browser reconnects and resumes by Last-Event-ID)
// or the hub stops.
type Subscription struct {
	C      chan Event
	userID string
	closed bool
}

// subscriptionBuffer is how many events a slow connection may lag before it
// is closed; it then resumes from the database without losing any.
const subscriptionBuffer = 256

// StartHub begins listening. Stop it with Close.
func StartHub(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) *Hub {
	ctx, cancel := context.WithCancel(ctx)
	h := &Hub{
		pool:   pool,
		log:    log,
		subs:   map[string]map[*Subscription]struct{}{},
		ready:  make(chan struct{}),
		cancel: cancel,
		done:   make(chan struct{}),
	}
	go h.run(ctx)
	return h
}

// Ready is closed once the first LISTEN is in place.
func (h *Hub) Ready() <-chan struct{} { return h.ready }

// Close stops listening and closes every subscription.
func (h *Hub) Close() error {
	h.cancel()
	<-h.done
	h.closeAll()
	return nil
}

func (h *Hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, set := range h.subs {
		for s := range set {
			if !s.closed {
				s.closed = true
				close(s.C)
			}
		}
	}
	h.subs = map[string]map[*Subscription]struct{}{}
}

// Drain closes every subscription, and every one opened after, while the
// hub keeps listening: an instance that is stopping sends its streams away
// (their browsers reconnect to another instance and resume by
// Last-Event-ID).
func (h *Hub) Drain() {
	h.mu.Lock()
	h.draining = true
	h.mu.Unlock()
	h.closeAll()
}

// Subscribe opens a subscription to userID's events.
func (h *Hub) Subscribe(userID string) *Subscription {
	s := &Subscription{C: make(chan Event, subscriptionBuffer), userID: userID}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.draining {
		s.closed = true
		close(s.C)
		return s
	}
	set := h.subs[userID]
	if set == nil {
		set = map[*Subscription]struct{}{}
		h.subs[userID] = set
	}
	set[s] = struct{}{}
	return s
}

// Unsubscribe removes s; it is safe to call more than once.
func (h *Hub) Unsubscribe(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.subs[s.userID]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(h.subs, s.userID)
		}
	}
	if !s.closed {
		s.closed = true
		close(s.C)
	}
}

func (h *Hub) hasSubscribers(userID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[userID]) > 0
}

func (h *Hub) deliver(ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[ev.UserID] {
		if s.closed {
			continue
		}
		select {
		case s.C <- ev:
		default:
			// Closing (not dropping) makes the client reconnect and replay
			// the gap from user_events.
			s.closed = true
			close(s.C)
			delete(h.subs[ev.UserID], s)
		}
	}
}

func (h *Hub) run(ctx context.Context) {
	defer close(h.done)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := h.listen(ctx)
		if ctx.Err() != nil {
			return
		}
		// Notifications sent while no LISTEN was active are lost to this
		// instance: end every open stream so browsers reconnect and replay
		// the gap from user_events by Last-Event-ID.
		h.closeAll()
		h.log.Warn("event stream listener stopped; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// verifyBatch is the most notifications checked against user_events in one
// query. Under a burst (a fan-out to thousands of members commits 500 events
// at once) one read per event would queue the last reader behind hundreds of
// round trips; one read per batch keeps commit-to-browser latency flat.
const verifyBatch = 1000

func (h *Hub) listen(ctx context.Context) error {
	conn, err := h.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire listener connection: %w", err)
	}
	// The connection carries LISTEN state: never return it to the pool.
	raw := conn.Hijack()
	defer raw.Close(context.Background())
	if _, err := raw.Exec(ctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	h.readyOnce.Do(func() { close(h.ready) })

	// The connection only reads notifications; a second goroutine checks and
	// delivers them in batches of whatever has arrived meanwhile, in order.
	notes := make(chan *pgconn.Notification, 4*verifyBatch)
	delivered := make(chan struct{})
	go func() {
		defer close(delivered)
		h.deliverAll(ctx, notes)
	}()
	defer func() {
		close(notes)
		<-delivered
	}()
	for {
		n, err := raw.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("wait for notification: %w", err)
		}
		select {
		case notes <- n:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// deliverAll takes each notification with every one already queued behind
// it (up to verifyBatch) and delivers them after one check.
func (h *Hub) deliverAll(ctx context.Context, notes <-chan *pgconn.Notification) {
	batch := make([]*pgconn.Notification, 0, verifyBatch)
	for n := range notes {
		batch = append(batch[:0], n)
	drain:
		for len(batch) < verifyBatch {
			select {
			case m, ok := <-notes:
				if !ok {
					break drain
				}
				batch = append(batch, m)
			default:
				break drain
			}
		}
		h.verifyAndDeliver(ctx, batch)
	}
}

// verifyAndDeliver delivers the stored events a batch of notifications
// points at. Any role that can connect may NOTIFY on the channel (PostgreSQL
// has no privilege for sending), including a plugin's role through a
// function of its own schema. A notice is therefore only a pointer: what is
// delivered is the stored row, which only the core can write, and a notice
// that does not match one is dropped.
func (h *Hub) verifyAndDeliver(ctx context.Context, batch []*pgconn.Notification) {
	type wanted struct {
		ev       Event
		complete bool
		pid      uint32
	}
	want := make([]wanted, 0, len(batch))
	ids := make([]int64, 0, len(batch))
	for _, n := range batch {
		ev, complete, err := parseNotification(n.Payload)
		if err != nil {
			h.log.Error("event notification", "err", err)
			continue
		}
		if !h.hasSubscribers(ev.UserID) {
			continue
		}
		want = append(want, wanted{ev, complete, n.PID})
		ids = append(ids, ev.ID)
	}
	if len(ids) == 0 {
		return
	}
	stored, err := h.load(ctx, ids)
	if err != nil {
		h.log.Error("load events", "count", len(ids), "err", err)
		return
	}
	for _, w := range want {
		ev, ok := stored[w.ev.ID]
		if !ok || ev.UserID != w.ev.UserID || (w.complete && ev.Type != w.ev.Type) {
			h.log.Warn("event notification matches no stored event: dropped", "id", w.ev.ID, "user_id", w.ev.UserID, "pid", w.pid)
			continue
		}
		h.deliver(ev)
	}
}

func (h *Hub) load(ctx context.Context, ids []int64) (map[int64]Event, error) {
	rows, err := h.pool.Query(ctx, `SELECT id, user_id, type, data, created_at FROM user_events WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]Event, len(ids))
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.UserID, &ev.Type, &ev.Data, &ev.CreatedAt); err != nil {
			return nil, err
		}
		out[ev.ID] = ev
	}
	return out, rows.Err()
}

// Since returns userID's stored events after id, oldest first.
func Since(ctx context.Context, pool *pgxpool.Pool, userID string, afterID int64, limit int) ([]Event, error) {
	rows, err := pool.Query(ctx, `SELECT id, user_id, type, data, created_at FROM user_events
		WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`, userID, afterID, limit)
	if err != nil {
		return nil, fmt.Errorf("read events since %d: %w", afterID, err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Event, error) {
		var ev Event
		err := row.Scan(&ev.ID, &ev.UserID, &ev.Type, &ev.Data, &ev.CreatedAt)
		return ev, err
	})
}

// Prune deletes events older than keep; streams resume only within that window.
func Prune(ctx context.Context, pool *pgxpool.Pool, keep time.Duration) error {
	_, err := pool.Exec(ctx, `DELETE FROM user_events WHERE created_at < now() - $1::interval`, keep.String())
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("prune events: %w", err)
	}
	return nil
}
