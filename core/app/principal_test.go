package app_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/roles"
)

// eventually fails unless cond holds within d (polled, not slept-then-checked).
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Two instances on one database: each caches principals, and every change
// that must end or alter a principal reaches the other instance within a
// second (the cache would otherwise serve the old one for PrincipalTTL).
func TestPrincipalChangesReachEveryInstanceWithinASecond(t *testing.T) {
	url := pgtest.NewURL(t)
	// One clock for both instances, moved by hand only to pass the refresh
	// grace period (refresh-token reuse below).
	clk := apptest.NewClock(time.Now())
	a := apptest.StartOn(t, url, nil, apptest.WithClock(clk.Now))
	b := apptest.StartOn(t, url, nil, apptest.WithClock(clk.Now))
	ctx := context.Background()
	_, userID := a.SignedIn(t, "leitora@example.com")
	session := func() (access, refresh, id string) {
		tok, err := a.App.Auth.StartVerifiedSession(ctx, userID, "principal-test")
		if err != nil {
			t.Fatal(err)
		}
		return tok.Access, tok.Refresh, tok.SessionID
	}
	principalOnB := func(token string) (core.Principal, bool) {
		p, ok, err := b.App.Auth.PrincipalForAccessToken(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		return p, ok
	}
	status := func(srv *apptest.Server, token, path string) int {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}

	access, refresh, _ := session()
	// A role granted on A: B's backoffice route opens within a second.
	if got := status(b, access, "/api/admin/content/types"); got != http.StatusForbidden {
		t.Fatalf("before the grant: %d", got)
	}
	if p, _ := principalOnB(access); slices.Contains(p.Roles, core.RoleEditor) {
		t.Fatal("editor before the grant")
	}
	if _, err := roles.NewService(a.App.Pool).GrantToUser(ctx, "", userID, core.RoleEditor); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "role grant on the other instance", func() bool {
		return status(b, access, "/api/admin/content/types") == http.StatusOK
	})

	// A subscription change (the billing side marks the user premium).
	if _, err := a.App.Pool.Exec(ctx, `INSERT INTO subscribers (user_id, subscription_status, subscription_tier)
		VALUES ($1, 'active', 'premium') ON CONFLICT (user_id) DO UPDATE SET subscription_status = 'active', subscription_tier = 'premium'`, userID); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "premium on the other instance", func() bool {
		p, ok := principalOnB(access)
		return ok && slices.Contains(p.Roles, core.RolePremium)
	})

	// An email change (confirmed on A): B's principal carries the new one.
	if _, err := a.App.Pool.Exec(ctx, `UPDATE users SET email = 'leitora.nova@example.com' WHERE id = $1`, userID); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "new email on the other instance", func() bool {
		p, ok := principalOnB(access)
		return ok && p.Email == "leitora.nova@example.com"
	})

	// Refresh rotation on A: the old access token stops working on B.
	_, rotated, err := a.App.Auth.Refresh(ctx, refresh)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "rotated access token on the other instance", func() bool {
		_, ok := principalOnB(access)
		return !ok
	})

	// Refresh-token reuse: the spent refresh token presented again on A
	// after the grace period revokes the whole session, so the access token
	// the rotation issued (now cached on B) stops working on B.
	if got := status(b, rotated.Access, "/api/points/balance"); got != http.StatusOK {
		t.Fatalf("the rotated session on B: %d", got)
	}
	clk.Advance(11 * time.Second) // past the 10 s grace for concurrent refreshes
	if _, _, err := a.App.Auth.Refresh(ctx, refresh); core.ErrorCode(err) != core.EUNAUTHORIZED {
		t.Fatalf("reused refresh token: %v, want %s", err, core.EUNAUTHORIZED)
	}
	eventually(t, time.Second, "refresh-token reuse on the other instance", func() bool {
		return status(b, rotated.Access, "/api/points/balance") == http.StatusUnauthorized
	})
	if _, _, err := a.App.Auth.Refresh(ctx, rotated.Refresh); core.ErrorCode(err) != core.EUNAUTHORIZED {
		t.Errorf("the session's newest refresh token after the reuse: %v, want %s", err, core.EUNAUTHORIZED)
	}

	// Logout (the session ended on A).
	access, _, sessionID := session()
	if _, ok := principalOnB(access); !ok {
		t.Fatal("a fresh session is not valid on B")
	}
	if err := a.App.Auth.EndSession(ctx, sessionID); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "logout on the other instance", func() bool {
		return status(b, access, "/api/points/balance") == http.StatusUnauthorized
	})

	// A role revoked on A.
	access, _, _ = session()
	if status(b, access, "/api/admin/content/types") != http.StatusOK {
		t.Fatal("editor lost before the revocation")
	}
	if _, err := roles.NewService(a.App.Pool).RevokeFromUser(ctx, "", userID, core.RoleEditor); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "role revocation on the other instance", func() bool {
		return status(b, access, "/api/admin/content/types") == http.StatusForbidden
	})
}

// A trial ends by the clock, with no write anywhere: a cached principal is
// not kept past the trial's end, so the "trial" role goes at that moment
// rather than when the cache's backstop expires.
func TestCachedPrincipalEndsWithTheTrial(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := context.Background()
	_, userID := srv.SignedIn(t, "experimenta@example.com")
	tok, err := srv.App.Auth.StartVerifiedSession(ctx, userID, "trial-test")
	if err != nil {
		t.Fatal(err)
	}
	var ends time.Time
	if err := srv.App.Pool.QueryRow(ctx, `INSERT INTO subscribers (user_id, subscription_status, trial_ends_at)
		VALUES ($1, 'trial', now() + interval '1500 milliseconds')
		ON CONFLICT (user_id) DO UPDATE SET subscription_status = 'trial', trial_ends_at = EXCLUDED.trial_ends_at
		RETURNING trial_ends_at`, userID).Scan(&ends); err != nil {
		t.Fatal(err)
	}
	roles := func() []string {
		p, ok, err := srv.App.Auth.PrincipalForAccessToken(ctx, tok.Access)
		if err != nil || !ok {
			t.Fatalf("principal: %v %v", ok, err)
		}
		return p.Roles
	}
	if r := roles(); !slices.Contains(r, core.RoleTrial) {
		t.Fatalf("during the trial: %v", r)
	}
	time.Sleep(time.Until(ends) + 50*time.Millisecond)
	if r := roles(); slices.Contains(r, core.RoleTrial) {
		t.Fatalf("after the trial's end, with the principal cached before it: %v", r)
	}
}
