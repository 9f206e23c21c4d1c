package events_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// Publish and a feature's own single-statement publisher (the points award)
// announce events through the same NotifyExpr: a small event inline as JSON
// carrying its stored id, a large one as "id:user_id".
func TestPublishersShareOneNotifyFormat(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewURL(t)
	pool, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close(ctx)
	listener, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+events.Channel); err != nil {
		t.Fatal(err)
	}
	userID := uuid.NewString()
	if _, err := pool.Exec(ctx, `INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, userID, userID+"@example.com"); err != nil {
		t.Fatal(err)
	}

	next := func() string {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		n, err := listener.WaitForNotification(wctx)
		if err != nil {
			t.Fatal(err)
		}
		return n.Payload
	}
	smallID, err := events.Publish(ctx, pool, userID, "test.small", map[string]string{"a": "b"})
	if err != nil {
		t.Fatal(err)
	}
	if p := next(); !strings.HasPrefix(p, fmt.Sprintf(`{"id" : %d, "user_id" : "%s"`, smallID, userID)) {
		t.Fatalf("small event notice %q", p)
	}
	bigID, err := events.Publish(ctx, pool, userID, "test.big", map[string]string{"a": strings.Repeat("x", 8000)})
	if err != nil {
		t.Fatal(err)
	}
	if p, want := next(), fmt.Sprintf("%d:%s", bigID, userID); p != want {
		t.Fatalf("large event notice %q, want %q", p, want)
	}
	award, err := points.NewAward(userID, 5, points.KindPost, "post:notify", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, created, err := award.Scan(pool.QueryRow(ctx, award.SQL, award.Args...)); err != nil || !created {
		t.Fatalf("award: created %v, %v", created, err)
	}
	var awardEvent int64
	if err := pool.QueryRow(ctx, `SELECT max(id) FROM user_events WHERE user_id = $1`, userID).Scan(&awardEvent); err != nil {
		t.Fatal(err)
	}
	if p := next(); !strings.HasPrefix(p, fmt.Sprintf(`{"id" : %d, "user_id" : "%s", "type" : "%s"`, awardEvent, userID, points.EventBalance)) {
		t.Fatalf("award notice %q", p)
	}
}
