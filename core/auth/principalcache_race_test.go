package auth_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

// listen runs the principal invalidation listener for the rest of the test
// (the cache is off without it) and returns a function that waits until the
// listener has applied every notification committed before the call.
func listen(t *testing.T, f *fixture) (caughtUp func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); f.svc.WatchPrincipalInvalidations(ctx, f.pool, ready) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("principal listener not ready")
	}
	return func() {
		t.Helper()
		// Notifications arrive in commit order: once this marker is
		// applied, so is everything committed before it.
		marker := "u:caught-up-" + uuid.NewString()
		if _, err := f.pool.Exec(context.Background(), `SELECT pg_notify('vc_principal', $1)`, marker); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for auth.LastPrincipalInvalidation(f.svc) != marker {
			if time.Now().After(deadline) {
				t.Fatal("the listener did not apply the marker notification")
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// An invalidation that reaches the cache while a principal is being resolved
// (after the database read, before the store) must not be lost: the fill
// read the principal as it was before the change, so it must not be cached,
// or a revoked session or removed role would be served for PrincipalTTL. The
// hook delivers the real NOTIFY at exactly that moment.
func TestPrincipalInvalidatedWhileResolvingIsNotCached(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change string // $1 is the session, $2 the user
		valid  bool   // the token after the change
	}{
		{"session revoked", `UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2`, false},
		{"role removed", `DELETE FROM user_roles WHERE user_id = $2 AND $1::uuid IS NOT NULL`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			ctx := t.Context()
			caughtUp := listen(t, f)
			userID, _, err := f.svc.CreateConfirmedUser(ctx, auth.NewUser{Email: "corrida@example.com", Password: goodPass, Roles: []string{core.RoleEditor}})
			if err != nil {
				t.Fatal(err)
			}
			tok, err := f.svc.StartSession(ctx, userID, "race")
			if err != nil {
				t.Fatal(err)
			}
			caughtUp()

			hooked := false
			auth.SetBeforePrincipalPut(f.svc, func(core.Principal) {
				hooked = true
				auth.SetBeforePrincipalPut(f.svc, nil)
				if _, err := f.pool.Exec(ctx, tc.change, tok.SessionID, userID); err != nil {
					t.Fatal(err)
				}
				caughtUp() // the change's notification is applied now, before the store
			})
			// This request read the database before the change: it may
			// answer with the old principal, but must not cache it.
			p, ok, err := f.svc.PrincipalForAccessToken(ctx, tok.Access)
			if err != nil || !ok || !slices.Contains(p.Roles, core.RoleEditor) || !hooked {
				t.Fatalf("racing resolution: %+v %v %v (hook ran: %v)", p, ok, err, hooked)
			}

			p, ok, err = f.svc.PrincipalForAccessToken(ctx, tok.Access)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.valid || slices.Contains(p.Roles, core.RoleEditor) {
				t.Errorf("after the change: ok %v, roles %v; want ok %v without %s (the stale principal was cached)", ok, p.Roles, tc.valid, core.RoleEditor)
			}
		})
	}
}
