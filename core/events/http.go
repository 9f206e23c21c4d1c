package events

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
)

// heartbeat keeps proxies from closing an idle stream.
const heartbeat = 25 * time.Second

// reconnectRetry is the retry hint (ms) sent when the server ends a stream
// (the instance is stopping, or the client fell behind): the browser comes
// back at once, through the load balancer to an instance that serves.
const reconnectRetry = 250

// replayLimit bounds one resume; a client further behind gets the rest on
// its next reconnect.
const replayLimit = 1000

// HandleStream serves GET /api/events: the signed-in user's events as
// server-sent events. A reconnecting EventSource sends Last-Event-ID and gets
// every event it missed before the live ones.
func HandleStream(log *slog.Logger, hub *Hub, pool *pgxpool.Pool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := core.PrincipalFrom(r.Context())
		rc := http.NewResponseController(w)
		lastID := int64(-1)
		if v := r.Header.Get("Last-Event-ID"); v != "" {
			lastID, _ = strconv.ParseInt(v, 10, 64)
		} else if v := r.URL.Query().Get("last_event_id"); v != "" {
			lastID, _ = strconv.ParseInt(v, 10, 64)
		}

		// Subscribe before reading the backlog so nothing committed in
		// between is missed; duplicates are skipped by id below.
		sub := hub.Subscribe(p.UserID)
		defer hub.Unsubscribe(sub)

		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store, no-transform")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "retry: 2000\n: conectado\n\n")

		send := func(ev Event) error {
			if ev.ID <= lastID {
				return nil
			}
			lastID = ev.ID
			payload, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Type, payload)
			return err
		}
		if lastID >= 0 {
			backlog, err := Since(r.Context(), pool, p.UserID, lastID, replayLimit)
			if err != nil {
				log.Error("event stream backlog", "err", err)
				return
			}
			for _, ev := range backlog {
				if send(ev) != nil {
					return
				}
			}
		}
		if rc.Flush() != nil {
			return
		}
		tick := time.NewTicker(heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case ev, ok := <-sub.C:
				if !ok {
					endStream(w, rc)
					return
				}
				if send(ev) != nil {
					return
				}
				// Drain whatever else is queued before one flush.
				for more := true; more; {
					select {
					case ev, ok := <-sub.C:
						if !ok {
							endStream(w, rc)
							return
						}
						if send(ev) != nil {
							return
						}
					default:
						more = false
					}
				}
				if rc.Flush() != nil {
					return
				}
			case <-tick.C:
				if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil || rc.Flush() != nil {
					return
				}
			}
		}
	})
}

// endStream tells the client to come back soon, and ends the stream.
func endStream(w http.ResponseWriter, rc *http.ResponseController) {
	fmt.Fprintf(w, "retry: %d\n: reconecte\n\n", reconnectRetry)
	_ = rc.Flush()
}
