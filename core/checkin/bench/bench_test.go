// Package bench is `make bench`: the load script for check-ins per second
// across many users (through real HTTP, authentication included) and the
// live-event delivery latency from a ledger commit to a browser stream open
// on another server instance. Targets: ≥ 3,000 check-ins/s, p99 ≤ 50 ms.
package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

const concurrency = 48

// users is how many distinct users check in (BENCH_USERS overrides).
var users = func() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_USERS")); err == nil && n > 200 {
		return n
	}
	return 6000
}()

type user struct{ id, token string }

func createUsers(b *testing.B, srv *apptest.Server, n int, prefix string) []user {
	b.Helper()
	ctx := context.Background()
	rows, err := srv.App.Pool.Query(ctx, `INSERT INTO users (email, email_confirmed_at)
		SELECT $1 || g || '@bench.example', now() FROM generate_series(1, $2) g RETURNING id`, prefix, n)
	if err != nil {
		b.Fatal(err)
	}
	var out []user
	for rows.Next() {
		var u user
		if err := rows.Scan(&u.id); err != nil {
			b.Fatal(err)
		}
		out = append(out, u)
	}
	rows.Close()
	for i := range out {
		tokens, err := srv.App.Auth.StartSession(ctx, out[i].id, "bench")
		if err != nil {
			b.Fatal(err)
		}
		out[i].token = tokens.Access
	}
	return out
}

func httpClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency * 2, MaxConnsPerHost: concurrency * 2}}
}

func dbURL(b *testing.B) string {
	u := pgtest.NewURL(b)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	// BENCH_DB_PARAMS appends connection parameters (for experiments such as
	// synchronous_commit=off; the reported figures use the defaults).
	return u + sep + "pool_max_conns=24" + os.Getenv("BENCH_DB_PARAMS")
}

// BenchmarkCheckinsPerSecond: one check-in for each of many users, sent by
// concurrent clients over HTTP with bearer tokens.
func BenchmarkCheckinsPerSecond(b *testing.B) {
	srv := apptest.StartOn(b, dbURL(b), nil)
	all := createUsers(b, srv, users, "c")
	hc := httpClient()
	// Warm up connections and caches with a few users outside the measure.
	warm, all := all[:200], all[200:]
	run := func(list []user) (time.Duration, int64) {
		var next, failed atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range concurrency {
			wg.Go(func() {
				for {
					i := next.Add(1) - 1
					if i >= int64(len(list)) {
						return
					}
					req, _ := http.NewRequest("POST", srv.URL+"/api/checkin", nil)
					req.Header.Set("Authorization", "Bearer "+list[i].token)
					res, err := hc.Do(req)
					if err != nil || res.StatusCode != http.StatusCreated {
						failed.Add(1)
					}
					if res != nil {
						res.Body.Close()
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start), failed.Load()
	}
	run(warm)
	b.ResetTimer()
	elapsed, failed := run(all)
	b.StopTimer()
	if failed > 0 {
		b.Fatalf("%d check-ins failed", failed)
	}
	var credits int
	if err := srv.App.Pool.QueryRow(context.Background(), `SELECT count(*) FROM points_ledger WHERE kind = 'checkin'`).Scan(&credits); err != nil {
		b.Fatal(err)
	}
	if credits != users {
		// Every user checked in exactly once: warm-up plus measured.
		b.Fatalf("%d credits for %d check-ins", credits, users)
	}
	rate := float64(len(all)) / elapsed.Seconds()
	b.ReportMetric(rate, "checkins/s")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("check-ins: %d users, %d concurrent clients, %s → %.0f check-ins/s (target ≥ 3000)\n", len(all), concurrency, elapsed.Round(time.Millisecond), rate)
}

// BenchmarkEventDelivery: streams for many users open on instance B; awards
// committed through instance A; latency from just before the commit to the
// event read from the stream.
func BenchmarkEventDelivery(b *testing.B) {
	const streams, rounds = 200, 10
	url := dbURL(b)
	a := apptest.StartOn(b, url, nil)
	other := apptest.StartOn(b, url, nil)
	<-other.App.Engagement.Events.Ready()
	list := createUsers(b, a, streams, "e")
	hc := httpClient()
	hc.Transport.(*http.Transport).MaxConnsPerHost = 0
	received := make([]chan time.Time, streams)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, u := range list {
		received[i] = make(chan time.Time, rounds)
		req, _ := http.NewRequestWithContext(ctx, "GET", other.URL+"/api/events", nil)
		req.Header.Set("Authorization", "Bearer "+u.token)
		res, err := hc.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("open stream: %v", err)
		}
		go func(ch chan time.Time) {
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "data: ") {
					ch <- time.Now()
				}
			}
		}(received[i])
	}
	var latencies []time.Duration
	var mu sync.Mutex
	b.ResetTimer()
	for round := range rounds {
		var wg sync.WaitGroup
		for i, u := range list {
			wg.Go(func() {
				sent := time.Now()
				if _, _, err := a.App.Engagement.Points.Award(ctx, u.id, 1, points.KindPost, fmt.Sprintf("bench:%d:%d", round, i), nil); err != nil {
					b.Error(err)
					return
				}
				select {
				case got := <-received[i]:
					mu.Lock()
					latencies = append(latencies, got.Sub(sent))
					mu.Unlock()
				case <-time.After(10 * time.Second):
					b.Error("event not delivered within 10 s")
				}
			})
			// Spread the awards: a steady stream rather than one burst.
			time.Sleep(time.Millisecond)
		}
		wg.Wait()
	}
	b.StopTimer()
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(float64(len(latencies)-1)*p)] }
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99_ms")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("event delivery across instances: %d events to %d streams, p50 %s, p99 %s, max %s (target p99 ≤ 50 ms; includes the commit)\n",
		len(latencies), streams, pct(0.5).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), latencies[len(latencies)-1].Round(10*time.Microsecond))
}

// BenchmarkCheckinsPerSecondService: the same check-ins straight on the
// service (no HTTP, no authentication), to tell the database work apart
// from the request overhead.
func BenchmarkCheckinsPerSecondService(b *testing.B) {
	srv := apptest.StartOn(b, dbURL(b), nil)
	all := createUsers(b, srv, users, "s")
	svc := srv.App.Engagement.Checkin
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(all)) {
					return
				}
				if _, err := svc.CheckIn(context.Background(), all[i].id, ""); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if failed.Load() > 0 {
		b.Fatalf("%d check-ins failed", failed.Load())
	}
	rate := float64(len(all)) / elapsed.Seconds()
	b.ReportMetric(rate, "checkins/s")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("check-ins on the service (no HTTP): %d users → %.0f check-ins/s\n", len(all), rate)
}
