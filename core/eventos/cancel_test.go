package eventos_test

import (
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/signups"
)

// Cancelling an event tells everyone with a place in it, once each: the
// participants, the person a seat was held for and the people waiting. The
// held seat is released (it is neither announced nor passed on), the waiting
// list stays, and should the event be on again the released offer's holder
// is first in line.
func TestCancellingTellsWaitingAndOfferedAndReleasesOffers(t *testing.T) {
	e := newEnv(t, map[string]string{"EVENT_SEAT_OFFER_HOLD": "12h"})
	now := time.Now()
	e.srv.App.Content.SetClock(func() time.Time { return now })
	svc := e.srv.App.Eventos
	ctx := t.Context()
	pool := e.srv.App.Pool
	u := e.users(t, "cancela", 6)
	leaver, seated, offered, second, third := u[0], u[1], u[2], u[3], u[4] // u[5] never takes part

	it := e.publish(t, "sera-cancelado", e.fields(now.Add(7*24*time.Hour), 2))
	for _, p := range []string{leaver, seated} {
		if _, err := svc.Join(ctx, it.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []string{offered, second, third} {
		if _, err := svc.Wait(ctx, it.ID, w); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Leave(ctx, it.ID, leaver); err != nil {
		t.Fatal(err)
	}
	ev, _ := svc.Get(ctx, it.ID, offered)
	if ev.Me.Status != signups.StatusOffered {
		t.Fatalf("first in line after a seat freed: %+v", ev.Me)
	}
	offer := ev.Me.Offer.ID

	e.edit(t, it.ID, map[string]any{"cancelled": true})
	if _, err := svc.SyncPending(ctx); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := pool.QueryRow(ctx, `SELECT status FROM signup_offers WHERE id = $1`, offer).Scan(&status); err != nil {
		t.Fatal(err)
	}
	var held int
	if err := pool.QueryRow(ctx, `SELECT held FROM signup_counts WHERE item_id = $1`, it.ID).Scan(&held); err != nil {
		t.Fatal(err)
	}
	if status == "pending" || held != 0 {
		t.Fatalf("after the cancellation the offer is %s and %d seats are held", status, held)
	}
	// The waiting list stays, the released holder back at its head.
	for want, w := range []string{offered, second, third} {
		if ev, _ := svc.Get(ctx, it.ID, w); ev.Me.Status != signups.StatusWaiting || ev.Me.Position != want+1 {
			t.Fatalf("place %d after the cancellation: %+v", want+1, ev.Me)
		}
	}

	var cancelledAt time.Time
	if err := pool.QueryRow(ctx, `SELECT cancelled_at FROM event_listings WHERE item_id = $1`, it.ID).Scan(&cancelledAt); err != nil {
		t.Fatal(err)
	}
	// Twice, as a retried timer would: each person is told once.
	for range 2 {
		if _, err := svc.NotifyCancelled(ctx, it.ID, cancelledAt); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		seated:  "\u201cEvento sera-cancelado\u201d foi cancelado. Sua inscrição não precisa de nenhuma ação.",
		offered: "\u201cEvento sera-cancelado\u201d foi cancelado. A vaga reservada para você foi liberada; você não precisa fazer nada.",
		second:  "\u201cEvento sera-cancelado\u201d foi cancelado. Você estava na lista de espera e não precisa fazer nada.",
		third:   "\u201cEvento sera-cancelado\u201d foi cancelado. Você estava na lista de espera e não precisa fazer nada.",
	}
	for _, user := range u {
		rows, err := pool.Query(ctx, `SELECT message FROM notifications WHERE user_id = $1 AND title = 'Evento cancelado'`, user)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var m string
			if err := rows.Scan(&m); err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		rows.Close()
		switch msg, ok := want[user]; {
		case !ok && len(got) != 0:
			t.Errorf("%s (left before, or never took part) was told: %q", user, got)
		case ok && (len(got) != 1 || got[0] != msg):
			t.Errorf("%s told %q, want once %q", user, got, msg)
		}
	}

	// The released offer's time comes: its seat goes to nobody.
	now = now.Add(13 * time.Hour)
	if later, err := svc.ExpireOffer(ctx, offer); err != nil || later != nil {
		t.Fatalf("expiry of a released offer: %v %v", later, err)
	}
	var pending int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM signup_offers WHERE item_id = $1 AND status = 'pending'`, it.ID).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if pending != 0 {
		t.Fatalf("%d seats of a cancelled event offered", pending)
	}

	// On again: the free seat goes first to the one it was held for.
	e.edit(t, it.ID, map[string]any{"cancelled": false})
	if _, err := svc.SyncPending(ctx); err != nil {
		t.Fatal(err)
	}
	if ev, _ := svc.Get(ctx, it.ID, offered); ev.Me.Status != signups.StatusOffered {
		t.Fatalf("released holder once the event is on again: %+v", ev.Me)
	}
	if ev, _ := svc.Get(ctx, it.ID, second); ev.Me.Status != signups.StatusWaiting || ev.Me.Position != 1 {
		t.Fatalf("second once the event is on again: %+v", ev.Me)
	}
}
