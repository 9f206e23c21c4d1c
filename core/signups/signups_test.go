package signups_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/signups"
)

// published inserts a published item whose snapshot holds fields.
func published(t *testing.T, pool *pgxpool.Pool, fields map[string]any) string {
	t.Helper()
	var id string
	ctx := context.Background()
	if err := pool.QueryRow(ctx, `INSERT INTO content_items (type, slug, title, fields, status)
		VALUES ('cursos', 'c-' || substr(md5(random()::text), 1, 8), 'Curso', $1, 'publicado') RETURNING id`, fields).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO content_published (item_id, type, slug, title, summary, fields, search, revision, published_at, last_published_at)
		SELECT id, type, slug, title, '', fields, '', 1, now(), now() FROM content_items WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return id
}

func users(t *testing.T, pool *pgxpool.Pool, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		if err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`,
			fmt.Sprintf("s%d-%d@teste.dev", i, time.Now().UnixNano())).Scan(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Any published item may take sign-ups: without a capacity field nobody
// ever waits; with one, the waiting list opens only when it is full, and
// repeating a join or a leave changes nothing.
func TestCapacityFieldAndIdempotence(t *testing.T) {
	pool := pgtest.New(t)
	ctx := t.Context()
	svc := signups.New(pool, signups.Options{})
	u := users(t, pool, 3)

	open := published(t, pool, map[string]any{})
	for _, id := range u {
		if err := svc.Join(ctx, open, id); err != nil {
			t.Fatal(err)
		}
	}
	if st, _ := svc.StateOf(ctx, open, u[0]); st.Capacity != nil || st.Participants != 3 || st.SeatsLeft() != nil {
		t.Fatalf("unlimited: %+v", st)
	}

	two := published(t, pool, map[string]any{"max_participants": 2})
	if err := svc.Wait(ctx, two, u[0]); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("waiting while seats are free: %v", err)
	}
	for range 2 {
		if err := svc.Join(ctx, two, u[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Join(ctx, two, u[1]); err != nil {
		t.Fatal(err)
	}
	if err := svc.Wait(ctx, two, u[1]); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("a participant waits: %v", err)
	}
	for range 2 {
		if err := svc.Wait(ctx, two, u[2]); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := svc.StateOf(ctx, two, u[2])
	if st.Participants != 2 || st.Waiting != 1 || st.Status != signups.StatusWaiting || st.Position != 1 || *st.SeatsLeft() != 0 {
		t.Fatalf("full: %+v", st)
	}
	for range 2 {
		offers, err := svc.Leave(ctx, two, u[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(offers) > 1 {
			t.Fatalf("offers %v", offers)
		}
	}
	st, _ = svc.StateOf(ctx, two, u[2])
	if st.Participants != 1 || st.Held != 1 || st.Status != signups.StatusOffered {
		t.Fatalf("after leaving twice: %+v", st)
	}
	// Declining the offer passes nothing on (nobody else waits) and frees the seat.
	if _, err := svc.Leave(ctx, two, u[2]); err != nil {
		t.Fatal(err)
	}
	if st, _ := svc.StateOf(ctx, two, u[2]); st.Held != 0 || st.Status != signups.StatusNone || *st.SeatsLeft() != 1 {
		t.Fatalf("after declining: %+v", st)
	}
	if err := svc.Join(ctx, "not-a-uuid", u[0]); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("bad id: %v", err)
	}
}

// Releasing an item's offers ends them before their expiry without passing
// the seats on, gives the held seats back, and puts the holders back at the
// head of the waiting list in the order they were offered; releasing again
// changes nothing, and the waiting list says who was released.
func TestReleaseOffersRequeuesHoldersFirst(t *testing.T) {
	pool := pgtest.New(t)
	ctx := t.Context()
	now := time.Now()
	svc := signups.New(pool, signups.Options{Now: func() time.Time { return now }})
	u := users(t, pool, 5)
	a, b, first, second, third := u[0], u[1], u[2], u[3], u[4]

	item := published(t, pool, map[string]any{"max_participants": 2})
	for _, p := range []string{a, b} {
		if err := svc.Join(ctx, item, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []string{first, second, third} {
		if err := svc.Wait(ctx, item, w); err != nil {
			t.Fatal(err)
		}
	}
	var offered []signups.Offer
	for _, p := range []string{a, b} {
		now = now.Add(time.Minute)
		o, err := svc.Leave(ctx, item, p)
		if err != nil || len(o) != 1 {
			t.Fatalf("leave: %v %v", o, err)
		}
		offered = append(offered, o...)
	}
	if offered[0].UserID != first || offered[1].UserID != second {
		t.Fatalf("offers went to %v", offered)
	}

	now = now.Add(time.Minute)
	released, err := svc.ReleaseOffers(ctx, item)
	if err != nil || len(released) != 2 || released[0].ID != offered[0].ID || released[1].ID != offered[1].ID {
		t.Fatalf("released %v %v", released, err)
	}
	if again, err := svc.ReleaseOffers(ctx, item); err != nil || len(again) != 0 {
		t.Fatalf("second release: %v %v", again, err)
	}
	st, _ := svc.StateOf(ctx, item, "")
	if st.Held != 0 || st.Participants != 0 || st.Waiting != 3 {
		t.Fatalf("after the release: %+v", st)
	}
	waiting, err := svc.Waiting(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	want := []signups.Waiter{{UserID: first, OfferReleased: true}, {UserID: second, OfferReleased: true}, {UserID: third}}
	if fmt.Sprint(waiting) != fmt.Sprint(want) {
		t.Fatalf("waiting list %v, want %v", waiting, want)
	}
	// A released offer expiring later passes nothing on.
	now = now.Add(13 * time.Hour)
	if later, next, err := svc.Expire(ctx, offered[0].ID); err != nil || later != nil || len(next) != 0 {
		t.Fatalf("expiry of a released offer: %v %v %v", later, next, err)
	}
	// Seats offered again (the item back on) go to the released holders first.
	rebalanced, err := svc.Rebalance(ctx, item)
	if err != nil || len(rebalanced) != 2 || rebalanced[0].UserID != first || rebalanced[1].UserID != second {
		t.Fatalf("rebalance: %v %v", rebalanced, err)
	}
	if _, err := svc.ReleaseOffers(ctx, "not-a-uuid"); err != nil {
		t.Fatalf("bad id: %v", err)
	}
}
