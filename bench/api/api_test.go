package api

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSmoke runs the whole harness on a tiny data set (one round of one
// second) and checks that it works: every endpoint has a row, both sides
// answered it with non-zero throughput and no failures, and the floor's
// answers have the real endpoints' JSON shape. It asserts nothing about speed.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and loads it for ~15 s")
	}
	rep := Run(t, Config{Users: 40, Notifs: 20, Ledger: 10, CheckinUsers: 300, NewsItems: 200, Concurrency: 4,
		Duration: time.Second, Warmup: 100 * time.Millisecond, Rounds: 1})
	var out bytes.Buffer
	rep.Print(&out)
	t.Log(out.String())
	if len(rep.Rows) != len(Endpoints) {
		t.Fatalf("%d rows for %d endpoints", len(rep.Rows), len(Endpoints))
	}
	for _, r := range rep.Rows {
		if !strings.Contains(out.String(), r.Endpoint.Method+" "+r.Endpoint.Path) {
			t.Errorf("table has no row for %s", r.Endpoint.Path)
		}
		for name, s := range map[string]*stats{"floor": r.Floor, "real": r.Real} {
			if s.OK == 0 || s.RPS() <= 0 || s.Quantile(0.99) <= 0 {
				t.Errorf("%s %s: no successful requests (%d errors, first: %s)", r.Endpoint.Path, name, s.Errors, s.FirstErr)
			}
			if s.Errors > 0 {
				t.Errorf("%s %s: %d failed requests (first: %s)", r.Endpoint.Path, name, s.Errors, s.FirstErr)
			}
		}
		if len(r.ShapeDiff) > 0 {
			t.Errorf("%s: the floor's answer has not the real one's shape: %v", r.Endpoint.Path, r.ShapeDiff)
		}
	}
}

// TestBenchAPI is `make bench-api`: the full run with DefaultConfig
// (BENCH_API_* variables override it). It only runs when BENCH_API=1.
func TestBenchAPI(t *testing.T) {
	if os.Getenv("BENCH_API") != "1" {
		t.Skip("the full benchmark runs with `make bench-api` (BENCH_API=1)")
	}
	cfg := DefaultConfig()
	if path := os.Getenv("BENCH_API_LOG"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg.LogFile = f
	}
	rep := Run(t, cfg)
	rep.Print(os.Stdout)
}
