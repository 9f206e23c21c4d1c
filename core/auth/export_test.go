package auth

import "github.com/vetclube/vetclube/core"

// SetBeforePrincipalPut makes PrincipalForAccessToken call fn (nil: nothing)
// between its database read and its cache store, where an invalidation must
// not be lost.
func SetBeforePrincipalPut(s *Service, fn func(core.Principal)) { s.cache.beforePut = fn }

// LastPrincipalInvalidation is the payload of the newest invalidation the
// principal cache applied ("" before any).
func LastPrincipalInvalidation(s *Service) string {
	s.cache.mu.RLock()
	defer s.cache.mu.RUnlock()
	inv := s.cache.recent[s.cache.gen.Load()%recentInvalidations]
	if inv.kind == "" {
		return ""
	}
	return inv.kind + ":" + inv.id
}
