package auth

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
)

// Resolving a principal costs the session lookup and the role sources on
// every request. The cache keeps a resolved principal in memory, keyed by the
// access token's hash, for PrincipalTTL (never past the token's expiry nor
// a moment its roles change by themselves, such as a trial's end). It
// is trusted only while this instance listens to vc_principal (migration
// 00060): every instance drops the entries a NOTIFY names within
// milliseconds, so logout, revocation, refresh-token reuse, role and
// subscription changes take effect everywhere within a second. While the
// listener is down nothing is cached, and reconnecting flushes everything
// (notifications may have been missed).

// PrincipalTTL bounds how long a cached principal is used without a database
// round trip. It is a backstop, not what keeps a principal right: every
// change of what a principal holds (roles, subscription, session, two-step
// state, email) notifies vc_principal from a trigger, and what changes by
// the clock alone (a trial's or a paid period's end, the token's or the
// session's expiry) caps the entry's life. A short backstop would only make
// each member's first request after it pay the lookup again.
const PrincipalTTL = 10 * time.Minute

// maxCachedPrincipals bounds the memory: past it the cache starts over.
const maxCachedPrincipals = 200_000

const principalChannel = "vc_principal"

// recentInvalidations is how many invalidations the cache remembers for the
// fills under way: a fill that started more invalidations ago than this is
// discarded unchecked (a fill lasts milliseconds; this is a burst of them).
const recentInvalidations = 1024

type cachedPrincipal struct {
	p     core.Principal
	until time.Time
}

// sessionInfo is what GET /api/auth/session and the CSRF checks need beyond
// the principal, read with it: the account's provider and creation time
// (never changed once the account exists) and the session's CSRF token
// (derived from the session id), so that serving them costs neither a query
// nor an HMAC while the principal is cached.
type sessionInfo struct {
	provider  string
	createdAt time.Time
	csrf      string
}

// invalidation is one drop the cache applied: kind "s" (a session), "u" (a
// user) or anything else (everything).
type invalidation struct{ kind, id string }

// A principal is filled in three steps: begin (the generation), the database
// read, put. An invalidation that lands between the first and the last would
// otherwise be lost (it found nothing to drop, and put then stores what the
// read saw before the change), so every drop and flush bumps gen and is
// remembered in recent, and put discards a fill that one of them, since its
// begin, concerns: its session, its user, or everything.
type principalCache struct {
	listening atomic.Bool

	mu        sync.RWMutex
	byToken   map[string]cachedPrincipal     // token hash → principal
	byUser    map[string]map[string]struct{} // user id → token hashes
	bySession map[string]map[string]struct{} // session id → token hashes
	gen       atomic.Uint64                  // invalidations so far; written under mu
	recent    [recentInvalidations]invalidation
	// sessions holds the info of every session with an entry in bySession
	// (it never changes for a session id, so any entry's is good).
	sessions map[string]sessionInfo

	// beforePut, when set (tests only), runs between a fill's database read
	// and its put.
	beforePut func(core.Principal)
}

func newPrincipalCache() *principalCache {
	c := &principalCache{}
	c.reset()
	return c
}

// reset empties the cache; mu is held (or c is not shared yet).
func (c *principalCache) reset() {
	c.byToken = map[string]cachedPrincipal{}
	c.byUser = map[string]map[string]struct{}{}
	c.bySession = map[string]map[string]struct{}{}
	c.sessions = map[string]sessionInfo{}
}

func (c *principalCache) get(hash []byte, now time.Time) (core.Principal, bool) {
	if !c.listening.Load() {
		return core.Principal{}, false
	}
	c.mu.RLock()
	e, ok := c.byToken[string(hash)]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return core.Principal{}, false
	}
	return e.p, true
}

// begin returns the generation a fill quotes to put; take it before reading
// the database.
func (c *principalCache) begin() uint64 { return c.gen.Load() }

// session returns the info cached with a principal of sessionID.
func (c *principalCache) session(sessionID string) (sessionInfo, bool) {
	if !c.listening.Load() {
		return sessionInfo{}, false
	}
	c.mu.RLock()
	info, ok := c.sessions[sessionID]
	c.mu.RUnlock()
	return info, ok
}

// put stores p and its session's info for hash until until, unless an
// invalidation since the fill's begin (generation since) concerns it; it
// reports whether it stored.
func (c *principalCache) put(hash []byte, p core.Principal, info sessionInfo, until time.Time, since uint64) bool {
	if !c.listening.Load() {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.invalidatedSince(since, p) {
		return false
	}
	if len(c.byToken) >= maxCachedPrincipals {
		c.reset()
	}
	h := string(hash)
	c.remove(h) // a concurrent fill of the same token
	c.byToken[h] = cachedPrincipal{p: p, until: until}
	index(c.byUser, p.UserID, h)
	index(c.bySession, p.SessionID, h)
	c.sessions[p.SessionID] = info
	return true
}

// invalidatedSince reports whether a drop or flush after generation since
// concerns p; mu is held.
func (c *principalCache) invalidatedSince(since uint64, p core.Principal) bool {
	now := c.gen.Load()
	if now-since > recentInvalidations {
		return true // forgotten: assume it did
	}
	for g := since + 1; g <= now; g++ {
		switch inv := c.recent[g%recentInvalidations]; inv.kind {
		case "s":
			if inv.id == p.SessionID {
				return true
			}
		case "u":
			if inv.id == p.UserID {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// drop removes the entries a notification names: "s:<session id>" or
// "u:<user id>"; anything else flushes everything. It costs the named
// session's or user's entries, not the cache's.
func (c *principalCache) drop(payload string) {
	kind, id, _ := strings.Cut(payload, ":")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record(invalidation{kind: kind, id: id})
	var hashes map[string]struct{}
	switch kind {
	case "s":
		hashes = c.bySession[id]
	case "u":
		hashes = c.byUser[id]
	default:
		c.reset()
		return
	}
	for h := range hashes {
		c.remove(h)
	}
}

func (c *principalCache) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record(invalidation{kind: "*"})
	c.reset()
}

// record bumps the generation for inv; mu is held.
func (c *principalCache) record(inv invalidation) {
	g := c.gen.Load() + 1
	c.recent[g%recentInvalidations] = inv
	c.gen.Store(g)
}

// remove deletes one entry and its index references; mu is held.
func (c *principalCache) remove(hash string) {
	e, ok := c.byToken[hash]
	if !ok {
		return
	}
	delete(c.byToken, hash)
	unindex(c.byUser, e.p.UserID, hash)
	unindex(c.bySession, e.p.SessionID, hash)
	if _, ok := c.bySession[e.p.SessionID]; !ok {
		delete(c.sessions, e.p.SessionID)
	}
}

func index(m map[string]map[string]struct{}, key, hash string) {
	set := m[key]
	if set == nil {
		set = map[string]struct{}{}
		m[key] = set
	}
	set[hash] = struct{}{}
}

func unindex(m map[string]map[string]struct{}, key, hash string) {
	set := m[key]
	delete(set, hash)
	if len(set) == 0 {
		delete(m, key)
	}
}

// WatchPrincipalInvalidations listens to vc_principal on a connection of
// pool until ctx ends, dropping the cached principals each notification
// names; ready (optional) is closed the first time it listens. While it is
// not listening the cache is off, so a principal is never served stale.
func (s *Service) WatchPrincipalInvalidations(ctx context.Context, pool *pgxpool.Pool, ready chan<- struct{}) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listenPrincipals(ctx, pool, func() {
			backoff = 100 * time.Millisecond
			if ready != nil {
				close(ready)
				ready = nil
			}
		})
		s.cache.listening.Store(false)
		s.cache.flush()
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("principal invalidation listener lost; caching off until it reconnects", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (s *Service) listenPrincipals(ctx context.Context, pool *pgxpool.Pool, listening func()) error {
	pooled, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection leaves the pool for good: its session holds the LISTEN.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+principalChannel); err != nil {
		return err
	}
	s.cache.flush()
	s.cache.listening.Store(true)
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		s.cache.drop(n.Payload)
	}
}

// InvalidatePrincipalsOf drops userID's cached principals on this instance
// at once, for a change its caller just committed (a role granted here);
// the other instances hear of it through vc_principal.
func (s *Service) InvalidatePrincipalsOf(userID string) {
	s.cache.drop("u:" + userID)
}
