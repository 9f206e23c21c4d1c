package pluginhost_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core/pluginhost"
)

// A plugin may award at most its daily budget to one user, even when many
// awards race: the check and the credit are one atomic step.
func TestPluginVetCoinsDailyBudgetHoldsUnderConcurrency(t *testing.T) {
	const budget, each, calls = 100, 10, 25
	h := start(t, install(t, "hostile"), pluginhost.Options{DailyVetCoins: budget})
	user, other := h.newUser(t), h.newUser(t)
	award := func(who string, amount int, key string) (errMsg string, duplicate bool) {
		u := user
		if who == "other" {
			u = other
		}
		res := h.call(u, "POST", fmt.Sprintf("/api/tools/hostile/award?amount=%d&key=%s", amount, key), nil)
		var out struct {
			Error     string
			Duplicate bool
		}
		res.decode(t, &out)
		return out.Error, out.Duplicate
	}
	var mu sync.Mutex
	granted, refused := 0, 0
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg, _ := award("user", each, fmt.Sprintf("k%d", i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case msg == "":
				granted++
			case strings.Contains(msg, "daily VetCoins budget exhausted") && strings.Contains(msg, "ResourceExhausted"):
				refused++
			default:
				t.Errorf("unexpected error: %s", msg)
			}
		}()
	}
	wg.Wait()
	if granted != budget/each || refused != calls-budget/each {
		t.Fatalf("granted %d, refused %d; want %d and %d", granted, refused, budget/each, calls-budget/each)
	}
	var total int
	if err := h.pool.QueryRow(context.Background(), `SELECT coalesce(sum(amount), 0) FROM points_ledger WHERE user_id = $1`, user.UserID).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if total != budget {
		t.Fatalf("ledger holds %d, budget %d", total, budget)
	}
	// A retry of an award already made costs nothing and still answers.
	if msg, dup := award("user", each, "k0"); msg != "" && !strings.Contains(msg, "budget") {
		t.Errorf("retry: %s", msg)
	} else if msg == "" && !dup {
		t.Error("retry was not reported as a duplicate")
	}
	// The budget is per user: another user is unaffected.
	if msg, _ := award("other", budget, "o1"); msg != "" {
		t.Errorf("another user: %s", msg)
	}
	if msg, _ := award("other", 1, "o2"); !strings.Contains(msg, "budget") {
		t.Errorf("one past the budget: %q", msg)
	}
}

// A plugin's notification goes through the notifications store, so the
// user's open pages get the live event, exactly once per key.
func TestPluginNotificationPublishesTheLiveEvent(t *testing.T) {
	h := start(t, install(t, "hostile"), pluginhost.Options{})
	u := h.newUser(t)
	for i := range 2 {
		res := h.call(u, "POST", "/api/tools/hostile/notify?key=n1", nil)
		var out struct {
			Error     string
			Duplicate bool
		}
		res.decode(t, &out)
		if out.Error != "" || out.Duplicate != (i == 1) {
			t.Fatalf("call %d: %+v", i, out)
		}
	}
	var events, rows int
	ctx := context.Background()
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = 'notification.created' AND data->>'title' = 'Aviso do plugin'`, u.UserID).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'plugin'`, u.UserID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if events != 1 || rows != 1 {
		t.Fatalf("%d live events, %d notifications; want 1 and 1", events, rows)
	}
}

// CurrentProfile is the public profile from core/profiles: the saved
// names, and never the email.
func TestPluginSeesOnlyThePublicProfile(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	u := h.newUser(t)
	if _, err := h.pool.Exec(context.Background(), `INSERT INTO profiles (user_id, first_name, last_name, title) VALUES ($1, 'Ana', 'Souza', 'Dra.')`, u.UserID); err != nil {
		t.Fatal(err)
	}
	res := h.call(u, "GET", "/api/tools/fixture/profile", nil)
	var prof struct{ UserID, FirstName, LastName, Title string }
	res.decode(t, &prof)
	if prof.UserID != u.UserID || prof.FirstName != "Ana" || prof.LastName != "Souza" || prof.Title != "Dra." {
		t.Errorf("profile = %+v", prof)
	}
	if strings.Contains(string(res.Body), u.Email) {
		t.Errorf("the plugin saw the email: %s", res.Body)
	}
}

// A plugin credits its own kind or challenge points, never another
// feature's kind (courses, referrals, redemptions); the daily budget covers
// both kinds together, and the idempotency key holds whatever the kind.
func TestPluginVetCoinsKindIsAllowListed(t *testing.T) {
	h := start(t, install(t, "hostile"), pluginhost.Options{DailyVetCoins: 30})
	user := h.newUser(t)
	award := func(kind string, amount int, key string) string {
		res := h.call(user, "POST", fmt.Sprintf("/api/tools/hostile/award?amount=%d&key=%s&kind=%s", amount, key, kind), nil)
		var out struct{ Error string }
		res.decode(t, &out)
		return out.Error
	}
	for _, kind := range []string{"course", "referral", "redemption", "checkin", "CHALLENGE", "challenge%00"} {
		if msg := award(kind, 5, "bad-"+kind); !strings.Contains(msg, "kind must be plugin or challenge") {
			t.Errorf("kind %q: %q", kind, msg)
		}
	}
	if msg := award("challenge", 20, "quiz-1"); msg != "" {
		t.Fatal(msg)
	}
	if msg := award("challenge", 20, "quiz-1"); msg != "" {
		t.Fatalf("retry: %s", msg)
	}
	if msg := award("", 10, "plain"); msg != "" {
		t.Fatal(msg)
	}
	if msg := award("challenge", 1, "quiz-2"); !strings.Contains(msg, "budget") {
		t.Fatalf("past the budget of both kinds: %q", msg)
	}
	rows, err := h.pool.Query(context.Background(), `SELECT kind, sum(amount) FROM points_ledger WHERE user_id = $1 GROUP BY kind ORDER BY kind`, user.UserID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		got[k] = n
	}
	if fmt.Sprint(got) != "map[challenge:20 plugin:10]" {
		t.Fatalf("ledger by kind: %v", got)
	}
}
