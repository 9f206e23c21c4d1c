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
// access token's hash, for PrincipalTTL (never past the token's expiry). It
// is trusted only while this instance listens to vc_principal (migration
// 00060): every instance drops the entries a NOTIFY names within
// milliseconds, so logout, revocation, refresh-token reuse, role and
// subscription changes take effect everywhere within a second. While the
// listener is down nothing is cached, and reconnecting flushes everything
// (notifications may have been missed).

// PrincipalTTL bounds how long a cached principal is used without a database
// round trip; invalidations usually end it much sooner.
const PrincipalTTL = 30 * time.Second

// maxCachedPrincipals bounds the memory: past it the cache starts over.
const maxCachedPrincipals = 200_000

const principalChannel = "vc_principal"

type cachedPrincipal struct {
	p     core.Principal
	until time.Time
}

type principalCache struct {
	listening atomic.Bool

	mu      sync.RWMutex
	byToken map[string]cachedPrincipal // token hash → principal
}

func newPrincipalCache() *principalCache {
	return &principalCache{byToken: map[string]cachedPrincipal{}}
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

func (c *principalCache) put(hash []byte, p core.Principal, until time.Time) {
	if !c.listening.Load() {
		return
	}
	c.mu.Lock()
	if len(c.byToken) >= maxCachedPrincipals {
		c.byToken = map[string]cachedPrincipal{}
	}
	c.byToken[string(hash)] = cachedPrincipal{p: p, until: until}
	c.mu.Unlock()
}

// drop removes the entries a notification names: "s:<session id>" or
// "u:<user id>"; anything else flushes everything.
func (c *principalCache) drop(payload string) {
	kind, id, _ := strings.Cut(payload, ":")
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.byToken {
		if (kind == "s" && e.p.SessionID == id) || (kind == "u" && e.p.UserID == id) || (kind != "s" && kind != "u") {
			delete(c.byToken, k)
		}
	}
}

func (c *principalCache) flush() {
	c.mu.Lock()
	c.byToken = map[string]cachedPrincipal{}
	c.mu.Unlock()
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
