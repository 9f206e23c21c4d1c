package events_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/points"
)

// stream is an open /api/events connection.
type stream struct {
	events chan events.Event
	cancel context.CancelFunc
}

func openStream(t *testing.T, c *apptest.Client, lastEventID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URLFor("/api/events"), nil)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("GET /api/events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &stream{events: make(chan events.Event, 100), cancel: cancel}
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ev events.Event
				if json.Unmarshal([]byte(data), &ev) == nil {
					s.events <- ev
				}
			}
		}
	}()
	t.Cleanup(cancel)
	return s
}

func (s *stream) next(t *testing.T) events.Event {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("stream closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return events.Event{}
}

// A check-in through one instance reaches a stream open on another instance
// (both on one database), and a reconnect with Last-Event-ID replays what
// was missed while disconnected, in order, without duplicates.
func TestEventsCrossInstancesAndResume(t *testing.T) {
	a := apptest.Start(t, nil)
	b := apptest.StartOn(t, a.DBURL, nil)
	<-b.App.Engagement.Events.Ready()
	onA, userID := a.SignedIn(t, "eventos@example.com")
	onB := onA.ForServer(b)

	s := openStream(t, onB, "")
	if res := onA.Do("POST", "/api/checkin", map[string]string{"time_zone": "America/Sao_Paulo"}); res.Status != http.StatusCreated {
		t.Fatalf("check-in: %d %s", res.Status, res.Body)
	}
	ev := s.next(t)
	var payload points.BalanceEvent
	if err := json.Unmarshal(ev.Data, &payload); err != nil {
		t.Fatal(err)
	}
	if ev.Type != points.EventBalance || ev.UserID != userID || payload.Balance.TotalPoints != 5 || payload.Entry.Kind != points.KindCheckin {
		t.Fatalf("event %+v payload %+v", ev, payload)
	}
	s.cancel()

	// While disconnected, three awards happen through instance A.
	for i := range 3 {
		if _, _, err := a.App.Engagement.Points.Award(context.Background(), userID, 10, points.KindPost, fmt.Sprintf("post:%d", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	resumed := openStream(t, onB, fmt.Sprint(ev.ID))
	for i, want := range []int{15, 25, 35} {
		got := resumed.next(t)
		var p points.BalanceEvent
		_ = json.Unmarshal(got.Data, &p)
		if p.Balance.TotalPoints != want {
			t.Fatalf("replayed event %d: total %d, want %d", i, p.Balance.TotalPoints, want)
		}
	}
	// And live events keep flowing after the replay.
	if _, _, err := a.App.Engagement.Points.Award(context.Background(), userID, 1, points.KindPost, "post:live", nil); err != nil {
		t.Fatal(err)
	}
	var p points.BalanceEvent
	_ = json.Unmarshal(resumed.next(t).Data, &p)
	if p.Balance.TotalPoints != 36 {
		t.Fatalf("live after replay: total %d, want 36", p.Balance.TotalPoints)
	}

	// Another user's events never reach this stream.
	other, _ := b.SignedIn(t, "outro@example.com")
	if res := other.Do("POST", "/api/checkin", nil); res.Status != http.StatusCreated {
		t.Fatalf("other check-in: %d %s", res.Status, res.Body)
	}
	select {
	case ev := <-resumed.events:
		t.Fatalf("received another user's event %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestEventsRequireSignIn(t *testing.T) {
	srv := apptest.Start(t, nil)
	if res := srv.Client(t).Do("GET", "/api/events", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor: %d", res.Status)
	}
}

// When the instance's LISTEN connection is lost, open streams end so the
// browser reconnects with Last-Event-ID and replays what it missed.
func TestStreamsResumeAfterListenerLoss(t *testing.T) {
	srv := apptest.Start(t, nil)
	<-srv.App.Engagement.Events.Ready()
	c, userID := srv.SignedIn(t, "queda@example.com")
	s := openStream(t, c, "")
	ctx := context.Background()
	if _, _, err := srv.App.Engagement.Points.Award(ctx, userID, 3, points.KindPost, "before", nil); err != nil {
		t.Fatal(err)
	}
	first := s.next(t)

	// Kill the hub's LISTEN backend, as a database failover would.
	if _, err := srv.App.Pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	select {
	case _, ok := <-s.events:
		if ok {
			t.Fatal("stream delivered instead of closing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stream stayed open after the listener was lost")
	}
	if _, _, err := srv.App.Engagement.Points.Award(ctx, userID, 4, points.KindPost, "during", nil); err != nil {
		t.Fatal(err)
	}
	resumed := openStream(t, c, fmt.Sprint(first.ID))
	var p points.BalanceEvent
	_ = json.Unmarshal(resumed.next(t).Data, &p)
	if p.Balance.TotalPoints != 7 {
		t.Fatalf("replayed total %d, want 7", p.Balance.TotalPoints)
	}
}

// Any database role may NOTIFY on the events channel (a plugin's role can,
// through a function in its own schema), so a notice that matches no stored
// event is never delivered, and what is delivered is the stored row.
func TestForgedNotificationsAreNotDelivered(t *testing.T) {
	a := apptest.Start(t, nil)
	<-a.App.Engagement.Events.Ready()
	c, userID := a.SignedIn(t, "forjado@example.com")
	_, otherID := a.SignedIn(t, "outra-pessoa@example.com")
	s := openStream(t, c, "")

	ctx := context.Background()
	if _, _, err := a.App.Engagement.Points.Award(ctx, otherID, 7, points.KindPost, "post:other", nil); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, a.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var otherEvent struct{ ID int64 }
	if err := conn.QueryRow(ctx, `SELECT max(id) FROM user_events WHERE user_id = $1`, otherID).Scan(&otherEvent.ID); err != nil {
		t.Fatal(err)
	}
	forged := []string{
		// An id that does not exist.
		fmt.Sprintf(`{"id":987654321,"user_id":%q,"type":"notification","data":{"title":"Você ganhou 10.000 VetCoins"},"created_at":"2026-01-01T00:00:00Z"}`, userID),
		// Another user's real event re-addressed to this user.
		fmt.Sprintf(`{"id":%d,"user_id":%q,"type":"points.balance","data":{},"created_at":"2026-01-01T00:00:00Z"}`, otherEvent.ID, userID),
		// The large-event form pointing at another user's event.
		fmt.Sprintf(`%d:%s`, otherEvent.ID, userID),
	}
	for _, payload := range forged {
		if _, err := conn.Exec(ctx, `SELECT pg_notify($1, $2)`, events.Channel, payload); err != nil {
			t.Fatal(err)
		}
	}
	// Notices arrive in order: the first event the stream sees must be the
	// real award made after the forged ones.
	if _, _, err := a.App.Engagement.Points.Award(ctx, userID, 3, points.KindPost, "post:real", nil); err != nil {
		t.Fatal(err)
	}
	ev := s.next(t)
	var p points.BalanceEvent
	if err := json.Unmarshal(ev.Data, &p); err != nil {
		t.Fatal(err)
	}
	if ev.UserID != userID || ev.Type != points.EventBalance || p.Balance.TotalPoints != 3 {
		t.Fatalf("first delivered event %+v (payload %+v): a forged notice got through", ev, p)
	}
}

// A burst larger than one verification batch (a fan-out commits hundreds of
// events at once) reaches a subscriber complete and in commit order, while
// the events of people with no stream on this instance are skipped.
func TestBurstOfEventsArrivesCompleteAndInOrder(t *testing.T) {
	a := apptest.Start(t, nil)
	hub := a.App.Engagement.Events
	<-hub.Ready()
	_, userID := a.SignedIn(t, "rajada@example.com")
	_, otherID := a.SignedIn(t, "sem-stream@example.com")
	sub := hub.Subscribe(userID)
	defer hub.Unsubscribe(sub)

	ctx := context.Background()
	const mine = 200 // below the subscription's buffer: a slow reader is not what this tests
	tx, err := a.App.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i := range mine * 6 {
		to := otherID
		if i%6 == 0 {
			to = userID
		}
		id, err := events.Publish(ctx, tx, to, "burst.test", map[string]int{"n": i})
		if err != nil {
			t.Fatal(err)
		}
		if to == userID {
			want = append(want, id)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for i, id := range want {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				t.Fatalf("subscription closed after %d events", i)
			}
			if ev.ID != id || ev.UserID != userID || ev.Type != "burst.test" {
				t.Fatalf("event %d: got %d (%s, %s), want %d", i, ev.ID, ev.UserID, ev.Type, id)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d events within 10 s", i, len(want))
		}
	}
}
