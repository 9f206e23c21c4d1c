package api

import (
	"context"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// phase is what one load phase against one server measured.
type phase struct {
	OK        int
	Errors    int
	Elapsed   time.Duration
	Latencies []time.Duration // successful requests only
	Exhausted bool            // ended before the duration: no more work
	FirstErr  string
}

// load runs a closed loop: clients workers each send one request, wait for
// the whole answer, and send the next, until d has passed or next has no more
// work (a check-in phase out of fresh users). Only answers with status want
// count as successes. Every client records its own latencies, merged at the end, so the
// measure takes no lock on the hot path.
func load(ctx context.Context, hc *http.Client, clients int, d time.Duration, want int, next func() (*http.Request, bool)) phase {
	type result struct {
		lat      []time.Duration
		errors   int
		firstErr string
		out      bool
	}
	results := make([]result, clients)
	deadline := time.Now().Add(d)
	ctx, cancel := context.WithDeadline(ctx, deadline.Add(5*time.Second))
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range clients {
		wg.Go(func() {
			r := &results[i]
			r.lat = make([]time.Duration, 0, 4096)
			for time.Now().Before(deadline) {
				req, ok := next()
				if !ok {
					r.out = true
					return
				}
				t0 := time.Now()
				res, err := hc.Do(req.WithContext(ctx))
				if err != nil {
					r.errors++
					if r.firstErr == "" {
						r.firstErr = err.Error()
					}
					continue
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				lat := time.Since(t0)
				if res.StatusCode != want {
					r.errors++
					if r.firstErr == "" {
						r.firstErr = res.Status + ": " + string(body)
					}
					continue
				}
				r.lat = append(r.lat, lat)
			}
		})
	}
	wg.Wait()
	p := phase{Elapsed: time.Since(start)}
	for _, r := range results {
		p.Latencies = append(p.Latencies, r.lat...)
		p.Errors += r.errors
		p.Exhausted = p.Exhausted || r.out
		if p.FirstErr == "" {
			p.FirstErr = r.firstErr
		}
	}
	p.OK = len(p.Latencies)
	return p
}

// stats aggregates the phases of one side of one endpoint over every round.
type stats struct {
	OK        int
	Errors    int
	Elapsed   time.Duration
	Exhausted bool
	FirstErr  string
	lat       []time.Duration
	sorted    bool
}

func (s *stats) add(p phase) {
	s.OK += p.OK
	s.Errors += p.Errors
	s.Elapsed += p.Elapsed
	s.Exhausted = s.Exhausted || p.Exhausted
	if s.FirstErr == "" {
		s.FirstErr = p.FirstErr
	}
	s.lat = append(s.lat, p.Latencies...)
	s.sorted = false
}

// RPS is successful requests per second over the summed phase durations.
func (s *stats) RPS() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.OK) / s.Elapsed.Seconds()
}

// Quantile is the q-quantile (0..1) of successful latencies (nearest rank).
func (s *stats) Quantile(q float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	if !s.sorted {
		slices.Sort(s.lat)
		s.sorted = true
	}
	i := int(q*float64(len(s.lat))+0.5) - 1
	return s.lat[max(0, min(i, len(s.lat)-1))]
}
