// Package bench is `make bench-notifications`: one notification fanned out
// to BENCH_FANOUT_USERS members (100,000) through the real app, each with one
// device on a local push service that decrypts every push. It reports the
// time until every in-app row is written and every push delivered (by the
// PushDelivery workflow on the embedded Temporal server), and the live-event
// latency from commit to a stream open on a second server instance while the
// fan-out runs (target: p99 ≤ 50 ms).
package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/push/pushtest"
	"github.com/vetclube/vetclube/workflows"
)

func fanoutUsers() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_FANOUT_USERS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

func devServer(b *testing.B) *workflows.DevServer {
	bin, _ := filepath.Abs("../../bin/temporal-dev")
	if _, err := os.Stat(bin); err != nil {
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = "../../workflows/devserver"
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build temporal-dev: %v\n%s", err, out)
		}
	}
	s, err := workflows.StartDevServer(context.Background(), bin, filepath.Join(b.TempDir(), "temporal.sqlite"), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Stop() })
	return s
}

// stream records when each notification.created event arrives.
type stream struct {
	mu      sync.Mutex
	arrived map[string]time.Time // notification id → arrival
	created map[string]time.Time // notification id → the event row's created_at
}

func openStream(b *testing.B, c *apptest.Client, s *stream) {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel) // before the servers close (cleanups run last first)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URLFor("/api/events"), nil)
	res, err := c.HTTP.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("open stream: %v %v", res, err)
	}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			now := time.Now()
			var ev events.Event
			var n notifications.Notification
			if json.Unmarshal([]byte(data), &ev) != nil || ev.Type != notifications.EventCreated || json.Unmarshal(ev.Data, &n) != nil {
				continue
			}
			s.mu.Lock()
			s.arrived[n.ID] = now
			s.created[n.ID] = ev.CreatedAt
			s.mu.Unlock()
		}
	}()
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func BenchmarkFanOut(b *testing.B) {
	n := fanoutUsers()
	dev := devServer(b)
	a := apptest.Start(b, map[string]string{"TEMPORAL_ADDRESS": dev.Addr, "LOG_LEVEL": "error", "PUSH_ALLOW_LOCAL_SERVICES": "true"})
	other := apptest.StartOn(b, a.DBURL, map[string]string{"LOG_LEVEL": "error", "PUSH_ALLOW_LOCAL_SERVICES": "true"})
	ctx := context.Background()
	pool := a.App.Pool
	ps := pushtest.NewServer()
	defer ps.Close()

	b.Logf("creating %d members with one device each", n)
	rows, err := pool.Query(ctx, `INSERT INTO users (email, email_confirmed_at)
		SELECT 'fan' || g || '@bench.example', now() FROM generate_series(1, $1) g RETURNING id`, n)
	if err != nil {
		b.Fatal(err)
	}
	var users []string
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		users = append(users, id)
	}
	rows.Close()
	// Devices are written in bulk (the setup is not what is measured); each
	// has real keys the push service decrypts with.
	var endpoints, p256, auths []string
	for i := range users {
		sub := ps.NewDevice(fmt.Sprintf("d%d", i)).Subscription()
		endpoints, p256, auths = append(endpoints, sub.Endpoint), append(p256, sub.Keys.P256dh), append(auths, sub.Keys.Auth)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth)
		SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[])`, users, endpoints, p256, auths); err != nil {
		b.Fatal(err)
	}
	// No quiet hours for anyone: whatever the hour, the fan-out is due now.
	if _, err := pool.Exec(ctx, `INSERT INTO notification_preferences (user_id, quiet_hours_start, quiet_hours_end)
		SELECT u, '00:00', '00:00' FROM unnest($1::uuid[]) u`, users); err != nil {
		b.Fatal(err)
	}

	// Streams open on the other instance: a probe member who gets a single
	// notification every 50 ms during the fan-out, and 100 fan-out recipients.
	probeClient, probeID := other.SignedIn(b, "probe@bench.example")
	probe := &stream{arrived: map[string]time.Time{}, created: map[string]time.Time{}}
	openStream(b, probeClient, probe)
	recipients := &stream{arrived: map[string]time.Time{}, created: map[string]time.Time{}}
	for i := 0; i < 100 && i < n; i++ {
		idx := i * (n / min(n, 100))
		tokens, err := other.App.Auth.StartSession(ctx, users[idx], "bench")
		if err != nil {
			b.Fatal(err)
		}
		c := other.Client(b)
		u, _ := url.Parse(other.URL)
		c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieAccess, Value: tokens.Access, Path: "/"}})
		openStream(b, c, recipients)
	}
	time.Sleep(500 * time.Millisecond)

	svc := a.App.Engagement.Notifications
	stop := make(chan struct{})
	var probeMu sync.Mutex
	committed := map[string]time.Time{}
	var probeWG sync.WaitGroup
	probeWG.Add(1)
	go func() {
		defer probeWG.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			nt, err := svc.Send(ctx, notifications.Notice{UserID: probeID, Type: "other", Title: "Sonda", Message: strconv.Itoa(i)})
			if err != nil {
				b.Error(err)
				return
			}
			probeMu.Lock()
			committed[nt.ID] = time.Now() // Send returns after commit
			probeMu.Unlock()
		}
	}()

	b.ResetTimer()
	start := time.Now()
	res, err := svc.SendMany(ctx, notifications.Notice{Type: "challenge", Title: "Novo desafio", Message: "Participe do desafio da semana",
		Link: "/desafios", IdempotencyKey: "bench:fanout"}, users)
	if err != nil {
		b.Fatal(err)
	}
	inApp := time.Since(start)
	run := a.App.Engagement.Temporal.GetWorkflow(ctx, workflows.PushDeliveryID(res.MessageID), "")
	if err := run.Get(ctx, nil); err != nil {
		b.Fatal(err)
	}
	all := time.Since(start)
	b.StopTimer()
	close(stop)
	probeWG.Wait()
	time.Sleep(300 * time.Millisecond)

	got := ps.Received()
	perDevice := map[string]int{}
	for _, r := range got {
		perDevice[r.Device]++
	}
	dups := 0
	for _, c := range perDevice {
		if c > 1 {
			dups++
		}
	}
	var probeLat, recLat []time.Duration
	probe.mu.Lock()
	probeMu.Lock()
	for id, at := range committed {
		if arr, ok := probe.arrived[id]; ok {
			probeLat = append(probeLat, arr.Sub(at))
		}
	}
	probeMu.Unlock()
	probe.mu.Unlock()
	recipients.mu.Lock()
	for id, arr := range recipients.arrived {
		recLat = append(recLat, arr.Sub(recipients.created[id]))
	}
	recipients.mu.Unlock()

	b.ReportMetric(float64(all.Milliseconds()), "ms-all-delivered")
	b.ReportMetric(float64(percentile(probeLat, 0.99).Microseconds())/1000, "ms-live-p99")
	fmt.Printf("fan-out to %d members: in-app rows + live events + push rows in %v (%.0f members/s); every push delivered in %v (%.0f pushes/s)\n",
		n, inApp.Round(time.Millisecond), float64(n)/inApp.Seconds(), all.Round(time.Millisecond), float64(len(got))/all.Seconds())
	fmt.Printf("pushes received and decrypted: %d of %d devices (%d got a duplicate), push service errors: %d\n",
		len(perDevice), n, dups, len(ps.Errors()))
	fmt.Printf("live event, commit → stream on the other instance, probe member during the fan-out: n=%d p50=%v p99=%v max=%v (target p99 ≤ 50 ms)\n",
		len(probeLat), percentile(probeLat, 0.5), percentile(probeLat, 0.99), percentile(probeLat, 1))
	fmt.Printf("live event, fan-out recipients (from the transaction's start, so including their batch's write): n=%d p50=%v p99=%v\n",
		len(recLat), percentile(recLat, 0.5), percentile(recLat, 0.99))
	if len(perDevice) != n || dups != 0 {
		b.Errorf("%d of %d devices got the push, %d twice", len(perDevice), n, dups)
	}
}
