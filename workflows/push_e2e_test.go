package workflows_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/push/pushtest"
	"github.com/vetclube/vetclube/workflows"
)

// TestPushFanOutSurvivesAWorkerStopWithoutDuplicates: a notification to 400
// members (one device each) is delivered by the PushDelivery workflow on the
// embedded Temporal server; the worker is stopped mid-fan-out and a new one
// takes over; every device gets the push exactly once. Devices answering
// 429 (Retry-After) and 5xx get it after backing off; a 410 device is
// retired after one try.
func TestPushFanOutSurvivesAWorkerStopWithoutDuplicates(t *testing.T) {
	dev := devServer(t, "")
	ctx := context.Background()
	pool := pgtest.New(t)
	log := slog.New(slog.DiscardHandler)
	c, err := workflows.Dial(ctx, dev.Addr, "default", log)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	keys, _ := push.GenerateKeys()
	ps := pushtest.NewServer()
	defer ps.Close()
	ps.VAPIDPublicKey = keys.Public
	ps.Delay = 5 * time.Millisecond
	pushSvc := push.New(pool, push.Options{Keys: &keys, AllowLocalServices: true, Concurrency: 8,
		BaseBackoff: 300 * time.Millisecond, ClaimTTL: 5 * time.Second, Starter: workflows.Engine{Client: c}})
	notes := notifications.NewService(pool, notifications.Options{Push: pushSvc})

	const members = 400
	var users []string
	for i := range members {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("m%d@example.com", i)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		users = append(users, id)
		// No quiet hours, so the fan-out is due now whatever the clock says.
		if _, err := pool.Exec(ctx, `INSERT INTO notification_preferences (user_id, quiet_hours_start, quiet_hours_end) VALUES ($1, '00:00', '00:00')`, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := pushSvc.Subscribe(ctx, id, ps.NewDevice(fmt.Sprintf("d%03d", i)).Subscription(), ""); err != nil {
			t.Fatal(err)
		}
	}
	ps.Script("d001", pushtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "2"})
	ps.Script("d002", pushtest.Reply{Status: http.StatusInternalServerError}, pushtest.Reply{Status: http.StatusBadGateway})
	ps.Script("d003", pushtest.Reply{Status: http.StatusGone})

	startWorker := func() interface{ Stop() } {
		w := workflows.NewPushWorker(c, &workflows.PushActivities{Push: pushSvc, BatchSize: 100})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	first := startWorker()
	started := time.Now()
	b, err := notes.SendMany(ctx, notifications.Notice{Type: "challenge", Title: "Novo desafio", Message: "Participe!", Link: "/desafios",
		IdempotencyKey: "challenge:fanout"}, users)
	if err != nil || b.Pushes != members {
		t.Fatalf("fan-out: %+v %v", b, err)
	}
	// Stop the worker once part of the fan-out went out.
	for len(ps.Received()) < members/4 {
		if time.Since(started) > 60*time.Second {
			t.Fatal("fan-out did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
	first.Stop()
	stoppedAt := len(ps.Received())
	if stoppedAt >= members-3 {
		t.Fatalf("the worker finished (%d) before it was stopped; nothing was tested", stoppedAt)
	}
	second := startWorker()
	defer second.Stop()

	run := c.GetWorkflow(ctx, workflows.PushDeliveryID(b.MessageID), "")
	waitCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := run.Get(waitCtx, nil); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	got := map[string]int{}
	var notificationIDs = map[string]bool{}
	for _, r := range ps.Received() {
		got[r.Device]++
		notificationIDs[r.Payload.ID] = true
		if r.Payload.Title != "Novo desafio" || r.Payload.URL != "/desafios" {
			t.Errorf("payload %+v", r.Payload)
		}
	}
	for i := range members {
		d := fmt.Sprintf("d%03d", i)
		want := 1
		if d == "d003" {
			want = 0
		}
		if got[d] != want {
			t.Errorf("%s got the push %d times, want %d", d, got[d], want)
		}
	}
	if len(notificationIDs) != members-1 {
		t.Errorf("%d distinct notification ids in payloads, want %d (one per member)", len(notificationIDs), members-1)
	}
	if ps.Attempts("d001") != 2 || ps.Attempts("d002") != 3 || ps.Attempts("d003") != 1 {
		t.Errorf("attempts: 429 device %d, 5xx device %d, 410 device %d", ps.Attempts("d001"), ps.Attempts("d002"), ps.Attempts("d003"))
	}
	var statuses = map[string]int{}
	rows, _ := pool.Query(ctx, `SELECT status, count(*) FROM push_deliveries WHERE message_id = $1 GROUP BY status`, b.MessageID)
	for rows.Next() {
		var s string
		var n int
		_ = rows.Scan(&s, &n)
		statuses[s] = n
	}
	if statuses["sent"] != members-1 || statuses["gone"] != 1 || len(statuses) != 2 {
		t.Errorf("statuses %v", statuses)
	}
	t.Logf("stopped the first worker after %d of %d pushes; done in %v", stoppedAt, members, time.Since(started))
}

// TestPushHeldByQuietHoursWaitsOnATimer: a push enqueued for later is not
// sent before its moment and is sent by the workflow's timer after it.
func TestPushHeldByQuietHoursWaitsOnATimer(t *testing.T) {
	dev := devServer(t, "")
	ctx := context.Background()
	pool := pgtest.New(t)
	c, err := workflows.Dial(ctx, dev.Addr, "default", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	keys, _ := push.GenerateKeys()
	ps := pushtest.NewServer()
	defer ps.Close()
	pushSvc := push.New(pool, push.Options{Keys: &keys, AllowLocalServices: true, Starter: workflows.Engine{Client: c}})
	w := workflows.NewPushWorker(c, &workflows.PushActivities{Push: pushSvc})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var user string
	_ = pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('q@example.com') RETURNING id`).Scan(&user)
	if _, _, err := pushSvc.Subscribe(ctx, user, ps.NewDevice("q").Subscription(), ""); err != nil {
		t.Fatal(err)
	}
	release := time.Now().Add(3 * time.Second)
	var id string
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		id, err = pushSvc.Enqueue(ctx, tx, push.Message{Kind: "like", Title: "t", Body: "b"}, []push.Target{{UserID: user, NotBefore: release}}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	pushSvc.Dispatch(ctx, id)
	if err := c.GetWorkflow(ctx, workflows.PushDeliveryID(id), "").Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	got := ps.Received()
	if len(got) != 1 || got[0].At.Before(release) {
		t.Fatalf("received %+v, want one push after %v", got, release)
	}
	var _ client.Client = c
}

// TestPushFanOutSurvivesAWorkerKilledMidSend: the worker process is killed
// with SIGKILL while it is sending a 300-member fan-out, and a new process
// finishes it. Every device gets the push. A delivery the dead worker had
// handed to the push service but not yet recorded as sent can go out once
// more after its claim expires, so at most the sends in flight at the kill
// (the worker's concurrency) repeat; each repeat carries the same Topic, with
// which a push service replaces an undelivered copy, and the same
// notification id and tag, so the device shows it once.
func TestPushFanOutSurvivesAWorkerKilledMidSend(t *testing.T) {
	dev := devServer(t, "")
	ctx := context.Background()
	dbURL := pgtest.NewURL(t)
	pool, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	c, err := workflows.Dial(ctx, dev.Addr, "default", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	keys, _ := push.GenerateKeys()
	ps := pushtest.NewServer()
	defer ps.Close()
	ps.VAPIDPublicKey = keys.Public
	ps.Delay = 10 * time.Millisecond
	// This process only enqueues; the worker processes send.
	pushSvc := push.New(pool, push.Options{Keys: &keys, AllowLocalServices: true, Starter: workflows.Engine{Client: c}})
	notes := notifications.NewService(pool, notifications.Options{Push: pushSvc})
	const members, concurrency = 300, 8
	var users []string
	for i := range members {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("k%d@example.com", i)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		users = append(users, id)
		if _, err := pool.Exec(ctx, `INSERT INTO notification_preferences (user_id, quiet_hours_start, quiet_hours_end) VALUES ($1, '00:00', '00:00')`, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := pushSvc.Subscribe(ctx, id, ps.NewDevice(fmt.Sprintf("k%03d", i)).Subscription(), ""); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"E2E_VAPID_PUBLIC=" + keys.Public, "E2E_VAPID_PRIVATE=" + keys.Private}
	first := startWorkerProcess(t, dbURL, dev.Addr, env...)
	started := time.Now()
	b, err := notes.SendMany(ctx, notifications.Notice{Type: "challenge", Title: "Novo desafio", Message: "Participe!", Link: "/desafios",
		IdempotencyKey: "challenge:kill"}, users)
	if err != nil || b.Pushes != members {
		t.Fatalf("fan-out: %+v %v", b, err)
	}
	for len(ps.Received()) < members/4 {
		if time.Since(started) > 60*time.Second {
			t.Fatal("fan-out did not start")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	killedAt := len(ps.Received())
	if killedAt >= members-concurrency {
		t.Fatalf("the worker finished (%d) before it was killed; nothing was tested", killedAt)
	}
	startWorkerProcess(t, dbURL, dev.Addr, env...)
	waitCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := c.GetWorkflow(waitCtx, workflows.PushDeliveryID(b.MessageID), "").Get(waitCtx, nil); err != nil {
		t.Fatalf("workflow: %v", err)
	}

	got := map[string][]pushtest.Received{}
	for _, r := range ps.Received() {
		got[r.Device] = append(got[r.Device], r)
	}
	repeats := 0
	for i := range members {
		d := fmt.Sprintf("k%03d", i)
		rs := got[d]
		if len(rs) == 0 {
			t.Errorf("%s never got the push", d)
			continue
		}
		repeats += len(rs) - 1
		for _, r := range rs[1:] {
			if r.Topic != rs[0].Topic || r.Topic == "" || r.Payload.ID != rs[0].Payload.ID || r.Payload.Tag != rs[0].Payload.Tag {
				t.Errorf("%s: a repeated push differs (topic %q/%q, id %q/%q): the device would show it twice",
					d, rs[0].Topic, r.Topic, rs[0].Payload.ID, r.Payload.ID)
			}
		}
	}
	if repeats > concurrency {
		t.Errorf("%d pushes repeated, more than the %d a killed worker can have in flight", repeats, concurrency)
	}
	var pending int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM push_deliveries WHERE message_id = $1 AND status <> 'sent'`, b.MessageID).Scan(&pending); err != nil || pending != 0 {
		t.Errorf("%d deliveries not recorded as sent (err %v)", pending, err)
	}
	t.Logf("killed the worker after %d of %d pushes; %d repeated; done in %v", killedAt, members, repeats, time.Since(started))
}
