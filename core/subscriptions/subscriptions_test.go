package subscriptions_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/subscriptions"
)

func TestViewOf(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	tier := func(s string) *string { return &s }
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	tests := []struct {
		name string
		sub  *subscriptions.Subscriber
		want subscriptions.View
	}{
		{"no subscriber", nil, subscriptions.View{}},
		{"trial with 6 days 1 hour left rounds up to 7", &subscriptions.Subscriber{Status: "trial", TrialEndsAt: at(6*24*time.Hour + time.Hour)},
			subscriptions.View{TrialActive: true, DaysLeft: 7}},
		{"trial with exactly 2 days left", &subscriptions.Subscriber{Status: "trial", TrialEndsAt: at(48 * time.Hour)},
			subscriptions.View{TrialActive: true, DaysLeft: 2}},
		{"trial with a minute left shows 1 day", &subscriptions.Subscriber{Status: "trial", TrialEndsAt: at(time.Minute)},
			subscriptions.View{TrialActive: true, DaysLeft: 1}},
		{"trial ending now is expired", &subscriptions.Subscriber{Status: "trial", TrialEndsAt: at(0)},
			subscriptions.View{TrialExpired: true}},
		{"trial ended yesterday is expired with 0 days", &subscriptions.Subscriber{Status: "trial", TrialEndsAt: at(-24 * time.Hour)},
			subscriptions.View{TrialExpired: true}},
		{"active vip is premium", &subscriptions.Subscriber{Status: "active", Tier: tier("vip")},
			subscriptions.View{IsPremium: true}},
		{"active without a tier is not premium", &subscriptions.Subscriber{Status: "active"}, subscriptions.View{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := subscriptions.ViewOf(tt.sub, now)
			if got.IsPremium != tt.want.IsPremium || got.TrialActive != tt.want.TrialActive ||
				got.TrialExpired != tt.want.TrialExpired || got.DaysLeft != tt.want.DaysLeft {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTrialRolesAndLimits(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	svc := subscriptions.New(pool, subscriptions.Options{TrialDuration: 7 * 24 * time.Hour, Limits: map[string]int{"patients": 3}, Now: clock})
	var user string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("s%d@example.com", rand.Int64())).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if c := svc.CheckTrialLimits(ctx, "", "patients"); c.Status != subscriptions.LimitNoUser || c.Allowed {
		t.Fatalf("no user: %+v", c)
	}
	if c := svc.CheckTrialLimits(ctx, user, "rockets"); c.Status != subscriptions.LimitError || c.Allowed {
		t.Fatalf("unknown limit: %+v", c)
	}
	if err := svc.StartTrial(ctx, user); err != nil {
		t.Fatal(err)
	}
	if err := svc.StartTrial(ctx, user); err != nil { // the confirmation hook may run twice
		t.Fatal(err)
	}
	v, _ := svc.View(ctx, user)
	if !v.TrialActive || v.DaysLeft != 7 {
		t.Fatalf("after start: %+v", v)
	}
	if roles, _, _ := svc.Roles(ctx, user); len(roles) != 1 || roles[0] != core.RoleTrial {
		t.Fatalf("roles %v, want trial", roles)
	}
	// Ten concurrent uses against a limit of 3: exactly three are counted.
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 10 {
		wg.Go(func() {
			if _, err := svc.RecordUsage(ctx, user, "patients"); err == nil {
				mu.Lock()
				allowed++
				mu.Unlock()
			} else if core.ErrorCode(err) != core.EFORBIDDEN {
				t.Errorf("record usage: %v", err)
			}
		})
	}
	wg.Wait()
	c := svc.CheckTrialLimits(ctx, user, "patients")
	if allowed != 3 || c.Allowed || c.Current != 3 || c.Limit != 3 || c.Status != subscriptions.LimitReached {
		t.Fatalf("allowed %d, check %+v", allowed, c)
	}
	if err := svc.BecomePremium(ctx, user, "premium_monthly"); err != nil {
		t.Fatal(err)
	}
	c = svc.CheckTrialLimits(ctx, user, "patients")
	if !c.Allowed || c.Status != subscriptions.LimitPremium {
		t.Fatalf("premium check %+v", c)
	}
	if roles, _, _ := svc.Roles(ctx, user); len(roles) != 1 || roles[0] != core.RolePremium {
		t.Fatalf("roles %v, want premium", roles)
	}
	if expired, err := svc.ExpireTrial(ctx, user); err != nil || expired {
		t.Fatalf("expiring a premium user: %v %v", expired, err)
	}
}

// RolesOf answers the same as Roles, for a page of accounts at once.
func TestRolesOfManyAccounts(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	svc := subscriptions.New(pool, subscriptions.Options{TrialDuration: 7 * 24 * time.Hour, Now: func() time.Time { return now }})
	ids := make([]string, 4)
	for i := range ids {
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("r%d-%d@example.com", i, rand.Int64())).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	trial, premium, expired, plain := ids[0], ids[1], ids[2], ids[3]
	for _, id := range []string{trial, expired} {
		if err := svc.StartTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.BecomePremium(ctx, premium, "premium_yearly"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE subscribers SET trial_ends_at = $2 WHERE user_id = $1`, expired, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := svc.RolesOf(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{trial: core.RoleTrial, premium: core.RolePremium}
	if len(got) != len(want) || got[trial] != want[trial] || got[premium] != want[premium] {
		t.Fatalf("RolesOf = %v, want %v (expired %s and plain %s absent)", got, want, expired, plain)
	}
	for _, id := range ids {
		one, _, _ := svc.Roles(ctx, id)
		if (len(one) == 1 && one[0] != got[id]) || (len(one) == 0 && got[id] != "") {
			t.Errorf("Roles(%s) = %v but RolesOf says %q", id, one, got[id])
		}
	}
	if empty, err := svc.RolesOf(ctx, nil); err != nil || len(empty) != 0 {
		t.Errorf("no accounts: %v %v", empty, err)
	}
}
