package mail_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	vmail "github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// recorder is a sender that counts deliveries per recipient; each send takes
// a moment so that two workers really overlap.
type recorder struct {
	mu   sync.Mutex
	got  map[string]int
	fail map[string]int // failures left per recipient
}

func (r *recorder) Send(_ context.Context, m vmail.Message) error {
	time.Sleep(2 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail[m.To] > 0 {
		r.fail[m.To]--
		return errors.New("450 mailbox busy")
	}
	r.got[m.To]++
	return nil
}

func (r *recorder) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.got {
		n += c
	}
	return n
}

func TestQueueTwoWorkersDeliverEachMessageOnce(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	q := vmail.NewQueue(pool)
	const n = 40
	for i := range n {
		if err := q.Send(ctx, vmail.Message{To: fmt.Sprintf("u%d@example.com", i), Subject: "Olá", Text: "t", HTML: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	var unsent int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL`).Scan(&unsent); err != nil || unsent != n {
		t.Fatalf("Send did not just queue: %d unsent (%v)", unsent, err)
	}
	rec := &recorder{got: map[string]int{}}
	// Two queues over one table: like two instances of the server.
	stop1 := q.StartWorker(ctx, rec, nil, vmail.WorkerOptions{Poll: 20 * time.Millisecond})
	stop2 := vmail.NewQueue(pool).StartWorker(ctx, rec, nil, vmail.WorkerOptions{Poll: 20 * time.Millisecond})
	deadline := time.Now().Add(30 * time.Second)
	for rec.total() < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_ = stop1()
	_ = stop2()
	for i := range n {
		if c := rec.got[fmt.Sprintf("u%d@example.com", i)]; c != 1 {
			t.Errorf("u%d delivered %d times", i, c)
		}
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL`).Scan(&unsent); err != nil || unsent != 0 {
		t.Errorf("%d messages left unsent (%v)", unsent, err)
	}
}

func TestQueueRetriesAFailedSendLater(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	q := vmail.NewQueue(pool)
	if err := q.Send(ctx, vmail.Message{To: "busy@example.com", Subject: "s", Text: "t", HTML: "h"}); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{got: map[string]int{}, fail: map[string]int{"busy@example.com": 1}}
	var de *vmail.DeliveryError
	if err := q.DeliverOne(ctx, rec); !errors.As(err, &de) || de.To != "busy@example.com" {
		t.Fatalf("first attempt: %v", err)
	}
	// Rescheduled, not lost and not retried at once.
	if err := q.DeliverOne(ctx, rec); !errors.Is(err, vmail.ErrQueueEmpty) {
		t.Fatalf("retried at once: %v", err)
	}
	var attempts int
	var lastErr string
	if err := pool.QueryRow(ctx, `SELECT attempts, last_error FROM mail_outbox`).Scan(&attempts, &lastErr); err != nil || attempts != 1 || lastErr == "" {
		t.Fatalf("attempts %d last_error %q (%v)", attempts, lastErr, err)
	}
	if _, err := pool.Exec(ctx, `UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	if err := q.DeliverOne(ctx, rec); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if rec.got["busy@example.com"] != 1 {
		t.Errorf("delivered %d times", rec.got["busy@example.com"])
	}
}

func TestQueueGivesUpAfterMaxAttempts(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	q := vmail.NewQueue(pool)
	if err := q.Send(ctx, vmail.Message{To: "gone@example.com", Subject: "s", Text: "t", HTML: "h"}); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{got: map[string]int{}, fail: map[string]int{"gone@example.com": vmail.MaxAttempts + 5}}
	for range vmail.MaxAttempts {
		if _, err := pool.Exec(ctx, `UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second'`); err != nil {
			t.Fatal(err)
		}
		var de *vmail.DeliveryError
		if err := q.DeliverOne(ctx, rec); !errors.As(err, &de) {
			t.Fatalf("attempt: %v", err)
		}
	}
	if _, err := pool.Exec(ctx, `UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	if err := q.DeliverOne(ctx, rec); !errors.Is(err, vmail.ErrQueueEmpty) {
		t.Fatalf("after the last attempt: %v", err)
	}
	var failed bool
	if err := pool.QueryRow(ctx, `SELECT failed_at IS NOT NULL FROM mail_outbox`).Scan(&failed); err != nil || !failed {
		t.Errorf("not marked failed (%v)", err)
	}
}

func TestQueuePruneKeepsPendingMail(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	q := vmail.NewQueue(pool)
	for _, to := range []string{"old@example.com", "recent@example.com", "pending@example.com"} {
		if err := q.Send(ctx, vmail.Message{To: to, Subject: "s", Text: "t", HTML: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `UPDATE mail_outbox SET sent_at = now() - interval '8 days' WHERE recipient = 'old@example.com';
		UPDATE mail_outbox SET sent_at = now() - interval '1 day' WHERE recipient = 'recent@example.com'`); err != nil {
		t.Fatal(err)
	}
	if err := q.Prune(ctx, 7*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT recipient FROM mail_outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for rows.Next() {
		var r string
		_ = rows.Scan(&r)
		left = append(left, r)
	}
	if fmt.Sprint(left) != "[recent@example.com pending@example.com]" {
		t.Errorf("left %v", left)
	}
}
