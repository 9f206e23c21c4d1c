package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/ratelimit"
)

func TestFixedWindow(t *testing.T) {
	pool := pgtest.New(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l := ratelimit.New(pool, func() time.Time { return now })
	ctx := context.Background()
	rule := ratelimit.Rule{Max: 3, Window: 10 * time.Second}
	for i := 1; i <= 4; i++ {
		ok, err := l.Allow(ctx, "login:a@b.c", rule)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (i <= 3) {
			t.Fatalf("hit %d allowed=%v", i, ok)
		}
	}
	if ok, _ := l.Allow(ctx, "login:other@b.c", rule); !ok {
		t.Error("another key was limited")
	}
	now = now.Add(10 * time.Second)
	if ok, _ := l.Allow(ctx, "login:a@b.c", rule); !ok {
		t.Error("the next window is still limited")
	}
	if err := l.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM rate_limit_counters").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d counters after pruning, want 1 (the current window)", n)
	}
}

// Two limiters (two instances) hitting one key at once never let more than Max through.
func TestConcurrentInstances(t *testing.T) {
	pool := pgtest.New(t)
	a, b := ratelimit.New(pool, nil), ratelimit.New(pool, nil)
	rule := ratelimit.Rule{Max: 5, Window: time.Hour}
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		l := a
		if i%2 == 1 {
			l = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := l.Allow(context.Background(), "k", rule)
			if err != nil {
				t.Error(err)
			}
			if ok {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if allowed.Load() != 5 {
		t.Errorf("%d allowed, want 5", allowed.Load())
	}
}
