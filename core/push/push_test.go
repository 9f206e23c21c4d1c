package push_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/push/pushtest"
	"github.com/vetclube/vetclube/core/ratelimit"
)

func TestKeysFromConfigAndGeneratedOnce(t *testing.T) {
	k, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := push.ParseKeys(k.Public, k.Private); err != nil {
		t.Fatalf("a generated pair does not parse: %v", err)
	}
	other, _ := push.GenerateKeys()
	if _, err := push.ParseKeys(k.Public, other.Private); err == nil {
		t.Error("a public key of another pair was accepted")
	}
	if _, err := push.ParseKeys("bm90LWEta2V5", k.Private); err == nil {
		t.Error("a short public key was accepted")
	}
	if _, err := push.ParseKeys(k.Public+"==", k.Private); err != nil {
		t.Errorf("padded base64url refused: %v", err)
	}

	path := filepath.Join(t.TempDir(), "data", "vapid.json")
	var wg sync.WaitGroup
	got := make([]push.Keys, 8)
	created := make([]bool, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			got[i], created[i], err = push.LoadOrCreateKeys(path)
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n := 0
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("concurrent starters disagree: %+v vs %+v", got[i], got[0])
		}
		if created[i] {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d starters created the pair, want 1", n)
	}
	again, createdAgain, err := push.LoadOrCreateKeys(path)
	if err != nil || createdAgain || again != got[0] {
		t.Errorf("restart: %+v created=%v err=%v, want the same pair", again, createdAgain, err)
	}
}

type env struct {
	pool *pgxpool.Pool
	svc  *push.Service
	ps   *pushtest.Server
	keys push.Keys
}

func newEnv(t *testing.T, o push.Options) *env {
	t.Helper()
	pool := pgtest.New(t)
	keys, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	ps := pushtest.NewServer()
	t.Cleanup(ps.Close)
	ps.VAPIDPublicKey = keys.Public
	o.Keys = &keys
	o.AllowLocalServices = true
	o.Subject = "mailto:teste@vetclube.com.br"
	return &env{pool: pool, svc: push.New(pool, o), ps: ps, keys: keys}
}

func (e *env) user(t *testing.T, email string) string {
	t.Helper()
	var id string
	if err := e.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) enqueue(t *testing.T, m push.Message, targets ...push.Target) string {
	t.Helper()
	ctx := context.Background()
	var id string
	err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		var err error
		id, err = e.svc.Enqueue(ctx, tx, m, targets, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// deliverAll runs DeliverDue the way the workflow does until nothing is
// left, sleeping for the waits it reports.
func (e *env) deliverAll(t *testing.T, messageID string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p, err := e.svc.DeliverDue(context.Background(), messageID, 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.Done() {
			return
		}
		time.Sleep(p.Wait)
	}
	t.Fatal("deliveries not done in 30 s")
}

func TestSubscribeValidatesAndUpsertsByEndpoint(t *testing.T) {
	e := newEnv(t, push.Options{})
	ctx := context.Background()
	ana, bia := e.user(t, "ana@example.com"), e.user(t, "bia@example.com")
	phone, laptop := e.ps.NewDevice("phone"), e.ps.NewDevice("laptop")

	sub, created, err := e.svc.Subscribe(ctx, ana, phone.Subscription(), "Chrome Android")
	if err != nil || !created || !sub.IsActive {
		t.Fatalf("subscribe: %+v %v %v", sub, created, err)
	}
	if _, created, err := e.svc.Subscribe(ctx, ana, laptop.Subscription(), "Firefox"); err != nil || !created {
		t.Fatalf("second device: %v %v", created, err)
	}
	again, created, err := e.svc.Subscribe(ctx, ana, phone.Subscription(), "Chrome Android 2")
	if err != nil || created || again.ID != sub.ID || again.UserAgent != "Chrome Android 2" {
		t.Fatalf("same endpoint again: %+v %v %v", again, created, err)
	}
	list, _ := e.svc.Subscriptions(ctx, ana)
	if len(list) != 2 {
		t.Fatalf("ana has %d devices, want 2", len(list))
	}
	// The browser now signed in as Bia (or Bia learnt the endpoint): the
	// endpoint stays Ana's; the browser must make a new subscription.
	if _, _, err := e.svc.Subscribe(ctx, bia, phone.Subscription(), "Chrome Android"); core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != push.MsgEndpointTaken {
		t.Fatalf("bia registered ana's endpoint: %v, want a 409", err)
	}
	if list, _ := e.svc.Subscriptions(ctx, ana); len(list) != 2 {
		t.Errorf("ana has %d devices after bia's attempt, want 2", len(list))
	}
	if list, _ := e.svc.Subscriptions(ctx, bia); len(list) != 0 {
		t.Errorf("bia got %d devices, want 0", len(list))
	}
	// Not even once Ana unsubscribed it.
	if err := e.svc.Unsubscribe(ctx, ana, phone.Subscription().Endpoint); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.Subscribe(ctx, bia, phone.Subscription(), ""); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("bia took ana's inactive endpoint: %v", err)
	}
	if _, _, err := e.svc.Subscribe(ctx, ana, phone.Subscription(), ""); err != nil {
		t.Fatal(err)
	}
	// Bia cannot unsubscribe Ana's laptop.
	if err := e.svc.Unsubscribe(ctx, bia, laptop.Subscription().Endpoint); err != nil {
		t.Fatal(err)
	}
	if list, _ := e.svc.Subscriptions(ctx, ana); !list[0].IsActive {
		t.Error("another member deactivated ana's device")
	}

	bad := []func(b *push.BrowserSubscription){
		func(b *push.BrowserSubscription) { b.Endpoint = "http://push.example.com/x" },
		func(b *push.BrowserSubscription) { b.Endpoint = "ftp://127.0.0.1/x" },
		func(b *push.BrowserSubscription) { b.Keys.P256dh = b.Keys.Auth },
		func(b *push.BrowserSubscription) { b.Endpoint = "https://user:pw@push.example.com/x" },
		func(b *push.BrowserSubscription) { b.Keys.Auth = "c2hvcnQ" },
		func(b *push.BrowserSubscription) {
			b.Keys.P256dh = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		},
	}
	for i, mutate := range bad {
		b := e.ps.NewDevice("bad").Subscription()
		mutate(&b)
		if _, _, err := e.svc.Subscribe(ctx, ana, b, ""); core.ErrorCode(err) != core.EINVALID {
			t.Errorf("bad subscription %d: %v, want a validation error", i, err)
		}
	}
	strict := push.New(e.pool, push.Options{Keys: &e.keys})
	if _, _, err := strict.Subscribe(ctx, ana, e.ps.NewDevice("dev").Subscription(), ""); core.ErrorCode(err) != core.EINVALID {
		t.Errorf("an http endpoint was accepted without AllowLocalServices: %v", err)
	}
	for _, ep := range []string{"https://127.0.0.1/x", "https://localhost:8443/x", "https://[::1]/x", "https://10.0.0.5/x", "https://192.168.1.1:5432/x",
		"https://169.254.169.254/latest", "https://[fd00::1]/x", "https://[::ffff:127.0.0.1]/x", "https://db.internal/x", "https://postgres/x"} {
		b := e.ps.NewDevice("internal").Subscription()
		b.Endpoint = ep
		if _, _, err := strict.Subscribe(ctx, ana, b, ""); core.ErrorCode(err) != core.EINVALID {
			t.Errorf("internal endpoint %s accepted: %v", ep, err)
		}
	}
}

// TestPayloadDecryptsAtTheDevice: what the device decrypts (RFC 8291) is the
// payload, with a verified VAPID signature and the kind's TTL and urgency.
func TestPayloadDecryptsAtTheDevice(t *testing.T) {
	e := newEnv(t, push.Options{})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	d := e.ps.NewDevice("phone")
	if _, _, err := e.svc.Subscribe(ctx, ana, d.Subscription(), ""); err != nil {
		t.Fatal(err)
	}
	id := e.enqueue(t, push.Message{Kind: "connection", Title: "Nova conexão", Body: "Ana quer se conectar com você", URL: "/conexoes", Tag: "n-1"},
		push.Target{UserID: ana})
	if id == "" {
		t.Fatal("nothing enqueued")
	}
	e.deliverAll(t, id)
	if errs := e.ps.Errors(); len(errs) > 0 {
		t.Fatalf("push service refused: %v", errs)
	}
	got := e.ps.Received()
	if len(got) != 1 {
		t.Fatalf("%d pushes, want 1", len(got))
	}
	p := got[0].Payload
	want := push.Payload{Title: "Nova conexão", Body: "Ana quer se conectar com você", Icon: "/icons/icon-192.png", Badge: "/icons/icon-192.png", URL: "/conexoes", Tag: "n-1", ID: id}
	if p != want {
		t.Errorf("payload %+v, want %+v", p, want)
	}
	if got[0].TTL != "86400" || got[0].Urgency != "high" || len(got[0].Topic) == 0 || len(got[0].Topic) > 32 {
		t.Errorf("headers TTL=%s Urgency=%s Topic=%q", got[0].TTL, got[0].Urgency, got[0].Topic)
	}
	var status string
	var delivered *time.Time
	if err := e.pool.QueryRow(ctx, `SELECT status, delivered_at FROM push_deliveries WHERE message_id = $1`, id).Scan(&status, &delivered); err != nil || status != "sent" || delivered == nil {
		t.Errorf("delivery %s %v %v", status, delivered, err)
	}
}

// TestRetriesBackOffAndGoneSubscriptionsArePruned: 429 with Retry-After and
// 5xx are retried with growing waits until accepted; 404 and 410 retire the
// subscription at once and it gets nothing more.
func TestRetriesBackOffAndGoneSubscriptionsArePruned(t *testing.T) {
	e := newEnv(t, push.Options{BaseBackoff: 200 * time.Millisecond, MaxAttempts: 5})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	throttled, flaky, gone, missing := e.ps.NewDevice("throttled"), e.ps.NewDevice("flaky"), e.ps.NewDevice("gone"), e.ps.NewDevice("missing")
	for _, d := range []*pushtest.Device{throttled, flaky, gone, missing} {
		if _, _, err := e.svc.Subscribe(ctx, ana, d.Subscription(), ""); err != nil {
			t.Fatal(err)
		}
	}
	e.ps.Script("throttled", pushtest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "1"})
	e.ps.Script("flaky", pushtest.Reply{Status: http.StatusServiceUnavailable}, pushtest.Reply{Status: http.StatusBadGateway})
	e.ps.Script("gone", pushtest.Reply{Status: http.StatusGone})
	e.ps.Script("missing", pushtest.Reply{Status: http.StatusNotFound})

	start := time.Now()
	id := e.enqueue(t, push.Message{Kind: "like", Title: "Curtida", Body: "Bia curtiu seu post"}, push.Target{UserID: ana})
	e.deliverAll(t, id)

	byDevice := map[string][]time.Time{}
	for _, r := range e.ps.Received() {
		byDevice[r.Device] = append(byDevice[r.Device], r.At)
	}
	if len(byDevice["throttled"]) != 1 || len(byDevice["flaky"]) != 1 || len(byDevice["gone"]) != 0 || len(byDevice["missing"]) != 0 {
		t.Fatalf("received %v", byDevice)
	}
	if waited := byDevice["throttled"][0].Sub(start); waited < time.Second {
		t.Errorf("throttled device retried after %v, before its Retry-After of 1 s", waited)
	}
	// flaky: waits of 200 ms then 400 ms.
	if waited := byDevice["flaky"][0].Sub(start); waited < 600*time.Millisecond {
		t.Errorf("flaky device delivered after %v, want ≥ 600 ms of backoff", waited)
	}
	if e.ps.Attempts("throttled") != 2 || e.ps.Attempts("flaky") != 3 || e.ps.Attempts("gone") != 1 || e.ps.Attempts("missing") != 1 {
		t.Errorf("attempts throttled=%d flaky=%d gone=%d missing=%d", e.ps.Attempts("throttled"), e.ps.Attempts("flaky"), e.ps.Attempts("gone"), e.ps.Attempts("missing"))
	}
	rows, _ := e.pool.Query(ctx, `SELECT s.endpoint, s.is_active, d.status, d.attempts FROM push_deliveries d
		JOIN push_subscriptions s ON s.id = d.subscription_id WHERE d.message_id = $1`, id)
	type row struct {
		active   bool
		status   string
		attempts int
	}
	got := map[string]row{}
	for rows.Next() {
		var ep string
		var r row
		if err := rows.Scan(&ep, &r.active, &r.status, &r.attempts); err != nil {
			t.Fatal(err)
		}
		got[ep] = r
	}
	want := map[string]row{
		throttled.Subscription().Endpoint: {true, "sent", 2},
		flaky.Subscription().Endpoint:     {true, "sent", 3},
		gone.Subscription().Endpoint:      {false, "gone", 1},
		missing.Subscription().Endpoint:   {false, "gone", 1},
	}
	for ep, w := range want {
		if got[ep] != w {
			t.Errorf("%s: %+v, want %+v", ep, got[ep], w)
		}
	}
	// A later message goes only to the live devices.
	next := e.enqueue(t, push.Message{Kind: "like", Title: "Curtida", Body: "Caio curtiu seu post"}, push.Target{UserID: ana})
	e.deliverAll(t, next)
	if e.ps.Attempts("gone") != 1 || e.ps.Attempts("missing") != 1 {
		t.Error("a retired subscription was tried again")
	}
	// Re-subscribing the same endpoint (the browser subscribed again) revives it.
	if sub, _, err := e.svc.Subscribe(ctx, ana, gone.Subscription(), ""); err != nil || !sub.IsActive {
		t.Errorf("re-subscribe: %+v %v", sub, err)
	}
}

func TestGivesUpAfterMaxAttemptsAndHoldsUntilNotBefore(t *testing.T) {
	e := newEnv(t, push.Options{BaseBackoff: 50 * time.Millisecond, MaxAttempts: 3})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	d := e.ps.NewDevice("down")
	if _, _, err := e.svc.Subscribe(ctx, ana, d.Subscription(), ""); err != nil {
		t.Fatal(err)
	}
	e.ps.Script("down", pushtest.Reply{Status: 500}, pushtest.Reply{Status: 500}, pushtest.Reply{Status: 500}, pushtest.Reply{Status: 500})
	id := e.enqueue(t, push.Message{Kind: "other", Title: "t", Body: "b"}, push.Target{UserID: ana})
	e.deliverAll(t, id)
	var status, lastErr string
	var attempts int
	if err := e.pool.QueryRow(ctx, `SELECT status, attempts, last_error FROM push_deliveries WHERE message_id = $1`, id).Scan(&status, &attempts, &lastErr); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || attempts != 3 || lastErr != "HTTP 500" {
		t.Errorf("after 3 failures: %s %d %q", status, attempts, lastErr)
	}

	// Held (quiet hours): nothing is sent before NotBefore, and DeliverDue
	// says how long to wait.
	held := e.enqueue(t, push.Message{Kind: "other", Title: "t", Body: "b"}, push.Target{UserID: ana, NotBefore: time.Now().Add(time.Hour)})
	p, err := e.svc.DeliverDue(ctx, held, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Sent != 0 || p.More || p.Wait < 59*time.Minute || p.Wait > time.Hour {
		t.Errorf("held push: %+v", p)
	}
}

func TestSendTestNeedsASubscription(t *testing.T) {
	e := newEnv(t, push.Options{})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	if _, err := e.svc.SendTest(ctx, ana); core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != "Você precisa estar inscrito nas notificações para testar" {
		t.Fatalf("test without a device: %v", err)
	}
	var messages int
	_ = e.pool.QueryRow(ctx, `SELECT count(*) FROM push_messages`).Scan(&messages)
	if messages != 0 {
		t.Errorf("%d messages stored for a refused test", messages)
	}
	unconfigured := push.New(e.pool, push.Options{})
	if _, err := unconfigured.SendTest(ctx, ana); core.ErrorCode(err) != core.EUNAVAILABLE ||
		core.ErrorMessage(err) != "Serviço de notificações temporariamente indisponível. Tente novamente em alguns minutos." {
		t.Errorf("test without keys: %v", err)
	}
}

func TestPublicAddress(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "142.250.0.1": true, "2607:f8b0::1": true,
		"127.0.0.1": false, "127.8.9.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.0.1": false,
		"169.254.169.254": false, "fe80::1": false, "fd12:3456::1": false, "fc00::1": false, "0.0.0.0": false, "::": false,
		"100.64.0.1": false, "224.0.0.1": false, "255.255.255.255": false, "::ffff:10.0.0.1": false, "::ffff:127.0.0.1": false,
		"64:ff9b::7f00:1": false,
	} {
		if got := push.PublicAddress(netip.MustParseAddr(addr)); got != want {
			t.Errorf("PublicAddress(%s) = %v, want %v", addr, got, want)
		}
	}
}

// rawSubscription stores a device without Subscribe's checks, as an endpoint
// whose host name resolves to an internal address would pass them.
func (e *env) rawSubscription(t *testing.T, userID, endpoint string, d *pushtest.Device) {
	t.Helper()
	sub := d.Subscription()
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)`,
		userID, endpoint, sub.Keys.P256dh, sub.Keys.Auth); err != nil {
		t.Fatal(err)
	}
}

func (e *env) delivery(t *testing.T, messageID string) (status, lastErr string) {
	t.Helper()
	if err := e.pool.QueryRow(context.Background(), `SELECT status, last_error FROM push_deliveries WHERE message_id = $1`, messageID).Scan(&status, &lastErr); err != nil {
		t.Fatal(err)
	}
	return status, lastErr
}

// TestDeliveryReachesNoInternalAddress: without AllowLocalServices the
// dialer refuses, after name resolution, every endpoint on an internal
// address (here "localhost" and the loopback push service), nothing reaches
// it, and the member reads a fixed reason, not the network error.
func TestDeliveryReachesNoInternalAddress(t *testing.T) {
	e := newEnv(t, push.Options{})
	ctx := context.Background()
	strict := push.New(e.pool, push.Options{Keys: &e.keys, Subject: "mailto:teste@vetclube.com.br"})
	ana := e.user(t, "ana@example.com")
	d := e.ps.NewDevice("phone")
	local := strings.Replace(d.Subscription().Endpoint, "127.0.0.1", "localhost", 1)
	e.rawSubscription(t, ana, local, d)

	var id string
	err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		var err error
		id, err = strict.Enqueue(ctx, tx, push.Message{Kind: "other", Title: "t", Body: "b"}, []push.Target{{UserID: ana}}, false)
		return err
	})
	if err != nil || id == "" {
		t.Fatalf("enqueue: %q %v", id, err)
	}
	if _, err := strict.DeliverDue(ctx, id, 100, nil); err != nil {
		t.Fatal(err)
	}
	if n := e.ps.Attempts("phone"); n != 0 {
		t.Fatalf("the loopback push service got %d requests", n)
	}
	if status, reason := e.delivery(t, id); status != "failed" || reason != push.ReasonBlockedAddress {
		t.Errorf("delivery %s %q, want failed with %q", status, reason, push.ReasonBlockedAddress)
	}
	list, err := strict.Deliveries(ctx, ana, 20)
	if err != nil || len(list) != 1 || list[0].LastError != push.ReasonBlockedAddress {
		t.Errorf("deliveries %+v %v", list, err)
	}
}

// TestNoRedirectsAndNoRawNetworkErrors: a push service answering with a
// redirect is not followed (the target gets nothing), and a connection
// failure is recorded as a fixed pt-BR reason.
func TestNoRedirectsAndNoRawNetworkErrors(t *testing.T) {
	e := newEnv(t, push.Options{BaseBackoff: time.Hour})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	target := e.ps.NewDevice("target")
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.Subscription().Endpoint, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	e.rawSubscription(t, ana, redirector.URL+"/push/abc", e.ps.NewDevice("redirected"))
	id := e.enqueue(t, push.Message{Kind: "other", Title: "t", Body: "b"}, push.Target{UserID: ana})
	if _, err := e.svc.DeliverDue(ctx, id, 100, nil); err != nil {
		t.Fatal(err)
	}
	if n := e.ps.Attempts("target"); n != 0 {
		t.Errorf("the redirect was followed: %d requests at its target", n)
	}
	if status, reason := e.delivery(t, id); status != "failed" || reason != "HTTP 307" {
		t.Errorf("redirected delivery %s %q", status, reason)
	}

	bia := e.user(t, "bia@example.com")
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	e.rawSubscription(t, bia, closedURL+"/push/def", e.ps.NewDevice("closed"))
	id = e.enqueue(t, push.Message{Kind: "other", Title: "t", Body: "b"}, push.Target{UserID: bia})
	if _, err := e.svc.DeliverDue(ctx, id, 100, nil); err != nil {
		t.Fatal(err)
	}
	if status, reason := e.delivery(t, id); status != "pending" || reason != push.ReasonNetwork {
		t.Errorf("unreachable delivery %s %q, want pending with %q", status, reason, push.ReasonNetwork)
	}
}

// TestDeviceLimitAndTestRateLimit: a member has at most MaxDevices active
// devices (a retired one frees its place) and sends a few test pushes a
// minute.
func TestDeviceLimitAndTestRateLimit(t *testing.T) {
	e := newEnv(t, push.Options{TestRule: ratelimit.Rule{Max: 2, Window: time.Hour}})
	ctx := context.Background()
	ana := e.user(t, "ana@example.com")
	var first *pushtest.Device
	for i := range push.MaxDevices {
		d := e.ps.NewDevice(fmt.Sprintf("d%d", i))
		if i == 0 {
			first = d
		}
		if _, _, err := e.svc.Subscribe(ctx, ana, d.Subscription(), ""); err != nil {
			t.Fatalf("device %d: %v", i, err)
		}
	}
	extra := e.ps.NewDevice("extra")
	if _, _, err := e.svc.Subscribe(ctx, ana, extra.Subscription(), ""); core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != push.MsgTooManyDevices {
		t.Fatalf("device %d: %v, want the device limit", push.MaxDevices+1, err)
	}
	// A known device refreshes without counting again.
	if _, created, err := e.svc.Subscribe(ctx, ana, first.Subscription(), "novo"); err != nil || created {
		t.Fatalf("refresh at the limit: %v %v", created, err)
	}
	if err := e.svc.Unsubscribe(ctx, ana, first.Subscription().Endpoint); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.Subscribe(ctx, ana, extra.Subscription(), ""); err != nil {
		t.Fatalf("after freeing a place: %v", err)
	}
	// Reviving the retired device would make 11.
	if _, _, err := e.svc.Subscribe(ctx, ana, first.Subscription(), ""); core.ErrorCode(err) != core.EINVALID {
		t.Errorf("revived an 11th device: %v", err)
	}

	for i := range 2 {
		if _, err := e.svc.SendTest(ctx, ana); err != nil {
			t.Fatalf("test push %d: %v", i, err)
		}
	}
	if _, err := e.svc.SendTest(ctx, ana); core.ErrorCode(err) != core.ERATELIMITED || core.ErrorMessage(err) != push.MsgTestRateLimited {
		t.Errorf("third test push: %v, want rate limited", err)
	}
}
