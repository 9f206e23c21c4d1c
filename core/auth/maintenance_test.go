package auth_test

import (
	"context"
	"testing"
	"time"
)

func TestMaintenancePrunesExpiredRows(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "prune@example.com", goodPass)
	res, err := f.svc.Login(ctx, "prune@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	count := func(table string) int {
		var n int
		if err := f.pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Failed-login counts of an address without an account, last touched
	// now and with no lock pending: forgotten 30 days later.
	if _, err := f.pool.Exec(ctx, `INSERT INTO login_lockouts (email, failed_count, updated_at) VALUES ('ninguem@example.com', 3, $1)`,
		f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if count("rate_limit_counters") == 0 || count("session_tokens") == 0 || count("email_tokens") == 0 {
		t.Fatal("nothing to prune")
	}
	f.clock.Advance(31 * 24 * time.Hour) // past every token, window and session
	stop := f.svc.StartMaintenance(20 * time.Millisecond)
	defer stop()
	deadline := time.Now().Add(10 * time.Second)
	for count("rate_limit_counters")+count("session_tokens")+count("email_tokens")+count("sessions")+count("login_lockouts") > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("not pruned: counters %d tokens %d email %d sessions %d lockouts %d",
				count("rate_limit_counters"), count("session_tokens"), count("email_tokens"), count("sessions"), count("login_lockouts"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access); ok {
		t.Error("pruned session still authenticates")
	}
}
