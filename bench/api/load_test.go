package api

import (
	"testing"
	"time"
)

// The table's figures: throughput over the summed phase time and
// nearest-rank percentiles over every round's successful requests.
func TestStatsAggregateRounds(t *testing.T) {
	var s stats
	var first, second []time.Duration
	for i := 1; i <= 100; i++ {
		first = append(first, time.Duration(i)*time.Millisecond)
		second = append(second, time.Duration(100+i)*time.Millisecond)
	}
	s.add(phase{OK: 100, Elapsed: time.Second, Latencies: second})
	s.add(phase{OK: 100, Errors: 3, Elapsed: 3 * time.Second, Latencies: first, Exhausted: true, FirstErr: "409"})
	if got := s.RPS(); got != 50 {
		t.Errorf("RPS = %v, want 50 (200 answers in 4 s)", got)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 100 * time.Millisecond}, {0.99, 198 * time.Millisecond}, {1, 200 * time.Millisecond}, {0, time.Millisecond}} {
		if got := s.Quantile(c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if s.Errors != 3 || !s.Exhausted || s.FirstErr != "409" {
		t.Errorf("errors %d, exhausted %v, first %q: want 3, true, 409", s.Errors, s.Exhausted, s.FirstErr)
	}
	var empty stats
	if empty.RPS() != 0 || empty.Quantile(0.99) != 0 {
		t.Error("a side with no answers must show zeros")
	}
}
