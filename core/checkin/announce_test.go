package checkin_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// A check-in announces its balance event after its commit, pointing at the
// stored row; a refused one announces nothing.
func TestCheckinAnnouncesItsEventAfterCommitOnly(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	c.set("2026-03-01T15:00:00Z")
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: newRecorder(pool)})
	user := newUser(t, pool)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	raw := conn.Hijack()
	defer raw.Close(ctx)
	if _, err := raw.Exec(ctx, "LISTEN "+events.Channel); err != nil {
		t.Fatal(err)
	}
	next := func() (string, bool) {
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		n, err := raw.WaitForNotification(wctx)
		if err != nil {
			return "", false
		}
		return n.Payload, true
	}
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	payload, ok := next()
	var id int64
	if err := pool.QueryRow(ctx, `SELECT id FROM user_events WHERE user_id = $1 AND type = $2`, user, points.EventBalance).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d:%s", id, user); !ok || payload != want {
		t.Fatalf("announcement %q (%v), want %q", payload, ok, want)
	}
	if _, err := svc.CheckIn(ctx, user, ""); err == nil {
		t.Fatal("second check-in the same day accepted")
	}
	if payload, ok := next(); ok {
		t.Fatalf("a refused check-in announced %q", payload)
	}
}
