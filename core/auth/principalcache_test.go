package auth

import (
	"fmt"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
)

func listeningCache() *principalCache {
	c := newPrincipalCache()
	c.listening.Store(true)
	return c
}

var later = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// A fill quotes the generation it began at; an invalidation between its begin
// (before the database read) and its put voids it when it names the fill's
// session or user, or everything, and only then.
func TestPrincipalCacheFillRacingAnInvalidation(t *testing.T) {
	p := core.Principal{UserID: "u1", SessionID: "s1"}
	now := later.Add(-time.Hour)
	for _, tc := range []struct {
		name    string
		between func(c *principalCache)
		stored  bool
	}{
		{"nothing", func(*principalCache) {}, true},
		{"its user", func(c *principalCache) { c.drop("u:u1") }, false},
		{"its session", func(c *principalCache) { c.drop("s:s1") }, false},
		{"everything", func(c *principalCache) { c.drop("?") }, false},
		{"a flush (listener reconnected)", func(c *principalCache) { c.flush() }, false},
		{"another user and session", func(c *principalCache) { c.drop("u:u2"); c.drop("s:s2") }, true},
		{"its user among many others", func(c *principalCache) {
			c.drop("u:u1")
			for i := range recentInvalidations - 1 {
				c.drop(fmt.Sprintf("u:other%d", i))
			}
		}, false},
		{"more than it can remember", func(c *principalCache) {
			for i := range recentInvalidations + 1 {
				c.drop(fmt.Sprintf("u:other%d", i))
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := listeningCache()
			gen := c.begin()
			tc.between(c)
			if got := c.put([]byte("tok"), p, sessionInfo{}, later, gen); got != tc.stored {
				t.Errorf("put stored %v, want %v", got, tc.stored)
			}
			if _, ok := c.get([]byte("tok"), now); ok != tc.stored {
				t.Errorf("get found %v, want %v", ok, tc.stored)
			}
		})
	}

	// Not listening: nothing is stored, whatever the generation.
	c := newPrincipalCache()
	if c.put([]byte("tok"), p, sessionInfo{}, later, c.begin()) {
		t.Error("stored while not listening")
	}
}

// An invalidation drops exactly the named user's or session's entries,
// through the indexes, and leaves no empty index sets behind.
func TestPrincipalCacheDropTouchesOnlyTheNamedEntries(t *testing.T) {
	c := listeningCache()
	now := later.Add(-time.Hour)
	// 50 users with 4 sessions of 2 tokens each.
	for u := range 50 {
		for s := range 4 {
			for k := range 2 {
				p := core.Principal{UserID: fmt.Sprintf("u%d", u), SessionID: fmt.Sprintf("u%d-s%d", u, s)}
				if !c.put([]byte(fmt.Sprintf("u%d-s%d-t%d", u, s, k)), p, sessionInfo{}, later, c.begin()) {
					t.Fatal("put refused")
				}
			}
		}
	}
	cached := func(u, s, k int) bool {
		_, ok := c.get([]byte(fmt.Sprintf("u%d-s%d-t%d", u, s, k)), now)
		return ok
	}

	c.drop("s:u3-s1")
	c.drop("u:u7")
	for u := range 50 {
		for s := range 4 {
			for k := range 2 {
				want := !(u == 3 && s == 1) && u != 7
				if got := cached(u, s, k); got != want {
					t.Errorf("user %d session %d token %d cached %v, want %v", u, s, k, got, want)
				}
			}
		}
	}
	if len(c.byToken) != 400-2-8 {
		t.Errorf("%d entries left, want %d", len(c.byToken), 400-2-8)
	}
	if _, ok := c.bySession["u3-s1"]; ok {
		t.Error("the dropped session is still indexed")
	}
	if _, ok := c.session("u3-s1"); ok {
		t.Error("the dropped session's info is still cached")
	}
	if _, ok := c.session("u3-s2"); !ok {
		t.Error("a kept session's info is gone")
	}
	if _, ok := c.byUser["u7"]; ok {
		t.Error("the dropped user is still indexed")
	}
	if got := len(c.byUser["u3"]); got != 6 {
		t.Errorf("user 3 indexes %d tokens, want 6", got)
	}
	for s := range 4 {
		if _, ok := c.bySession[fmt.Sprintf("u7-s%d", s)]; ok {
			t.Errorf("session %d of the dropped user is still indexed", s)
		}
	}

	// Dropping what is not cached changes nothing.
	c.drop("u:nobody")
	c.drop("s:nothing")
	if len(c.byToken) != 390 || len(c.byUser) != 49 || len(c.bySession) != 195 || len(c.sessions) != 195 {
		t.Errorf("after no-op drops: %d entries, %d users, %d sessions (%d with info)", len(c.byToken), len(c.byUser), len(c.bySession), len(c.sessions))
	}

	// A payload of unknown kind drops everything.
	c.drop("x")
	if len(c.byToken) != 0 || len(c.byUser) != 0 || len(c.bySession) != 0 || len(c.sessions) != 0 {
		t.Errorf("after a flush: %d entries, %d users, %d sessions (%d with info)", len(c.byToken), len(c.byUser), len(c.bySession), len(c.sessions))
	}
}

// BenchmarkPrincipalCacheDrop drops one user's entries from a full cache:
// the cost is that user's entries, not the cache's.
func BenchmarkPrincipalCacheDrop(b *testing.B) {
	c := listeningCache()
	for i := range maxCachedPrincipals - 1 {
		p := core.Principal{UserID: fmt.Sprintf("u%d", i/2), SessionID: fmt.Sprintf("s%d", i)}
		c.put([]byte(fmt.Sprintf("t%d", i)), p, sessionInfo{}, later, c.begin())
	}
	p := core.Principal{UserID: "target", SessionID: "target-s"}
	for b.Loop() {
		c.put([]byte("target-t"), p, sessionInfo{}, later, c.begin())
		c.drop("u:target")
	}
}
