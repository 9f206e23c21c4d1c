package points_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/points/pointstest"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func newUser(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("u%d@example.com", rand.Int64())).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAwardIsIdempotentAndMaintainsTotals(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	l := points.New(pool)
	user := newUser(t, pool)

	first, created, err := l.Award(ctx, user, 50, points.KindCourse, "course:1", map[string]any{"course_id": "1"})
	if err != nil || !created {
		t.Fatalf("first award: created=%v err=%v", created, err)
	}
	again, created, err := l.Award(ctx, user, 50, points.KindCourse, "course:1", nil)
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("repeat award: created=%v id=%d (first %d) err=%v", created, again.ID, first.ID, err)
	}
	if _, _, err := l.Award(ctx, user, 70, points.KindCourse, "course:1", nil); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("reused key with another amount: err=%v, want conflict", err)
	}
	mustAward(t, l, user, 5, points.KindCheckin, "checkin:a")
	mustAward(t, l, user, 100, points.KindCheckinBonus, "bonus:a")
	mustAward(t, l, user, 10, points.KindPost, "post:a")
	mustAward(t, l, user, 20, points.KindChallenge, "challenge:a")
	mustAward(t, l, user, 30, points.KindReferral, "referral:a")
	mustAward(t, l, user, -15, points.KindRedemption, "reward:a")

	b, err := l.Balance(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	want := points.Balance{ChallengePoints: 20, CoursePoints: 50, PostPoints: 10, CheckinPoints: 105, OtherPoints: 30, PointsSpent: 15, TotalPoints: 200}
	if b != want {
		t.Fatalf("balance %+v, want %+v", b, want)
	}
	if _, _, err := l.Award(ctx, user, -201, points.KindRedemption, "reward:too-much", nil); err == nil || err.(*core.Error).Message != "Saldo de VetCoins insuficiente." {
		t.Fatalf("overdraw: err=%v", err)
	}
	if _, _, err := l.Award(ctx, user, -5, points.KindCourse, "bad-sign", nil); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("negative credit: err=%v", err)
	}
	if _, err := pool.Exec(ctx, `UPDATE points_ledger SET amount = 1 WHERE user_id = $1`, user); err == nil {
		t.Fatal("ledger row was updated; it must be append-only")
	}
	page, err := l.History(ctx, user, 0, 3)
	if err != nil || len(page.Entries) != 3 || page.Entries[0].Kind != points.KindRedemption || page.NextCursor == 0 {
		t.Fatalf("history page 1: %+v err=%v", page, err)
	}
	rest, err := l.History(ctx, user, page.NextCursor, 10)
	if err != nil || len(rest.Entries) != 4 || rest.NextCursor != 0 {
		t.Fatalf("history page 2: %+v err=%v", rest, err)
	}
}

func mustAward(t *testing.T, l *points.Ledger, user string, amount int, kind points.Kind, key string) {
	t.Helper()
	if _, _, err := l.Award(context.Background(), user, amount, kind, key, nil); err != nil {
		t.Fatalf("award %d %s: %v", amount, kind, err)
	}
}

// A randomised mix of concurrent credits, debits and retried keys must leave
// the maintained total equal to the ledger sum.
func TestConcurrentAwardsKeepBalanceEqualToLedgerSum(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	l := points.New(pool)
	users := []string{newUser(t, pool), newUser(t, pool), newUser(t, pool)}
	kinds := []points.Kind{points.KindCheckin, points.KindCourse, points.KindChallenge, points.KindPost, points.KindReferral, points.KindPlugin, points.KindRedemption}
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 42))
			for i := range 60 {
				user := users[r.IntN(len(users))]
				kind := kinds[r.IntN(len(kinds))]
				amount := 1 + r.IntN(50)
				if kind == points.KindRedemption {
					amount = -amount
				}
				// Keys collide on purpose across workers to exercise retries.
				key := fmt.Sprintf("%s:%s:%d:%d", user, kind, amount, r.IntN(40))
				_, _, err := l.Award(ctx, user, amount, kind, key, map[string]any{"i": i})
				if err != nil && core.ErrorCode(err) != core.ECONFLICT {
					t.Errorf("award: %v", err)
				}
			}
		})
	}
	wg.Wait()
	for _, user := range users {
		b, err := l.Balance(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := pointstest.LedgerSum(ctx, pool, user)
		if err != nil {
			t.Fatal(err)
		}
		parts := b.ChallengePoints + b.CoursePoints + b.PostPoints + b.CheckinPoints + b.OtherPoints - b.PointsSpent
		if b.TotalPoints != sum || parts != sum {
			t.Errorf("user %s: total %d, parts %d, ledger sum %d", user, b.TotalPoints, parts, sum)
		}
		if sum == 0 {
			t.Errorf("user %s got no awards; the mix did not exercise anything", user)
		}
	}
}

// A daily budget's inputs, read inside the caller's transaction: whether a
// key was used, and what one source (a plugin, named in the metadata) gave a
// user of one kind since midnight UTC — not other sources, kinds, users or
// days.
func TestUsedAndAwardedTodayInsideATransaction(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	l := points.New(pool)
	user, other := newUser(t, pool), newUser(t, pool)
	award := func(user string, amount int, kind points.Kind, key, plugin string) {
		t.Helper()
		if _, _, err := l.Award(ctx, user, amount, kind, key, map[string]any{"plugin": plugin}); err != nil {
			t.Fatal(err)
		}
	}
	award(user, 30, points.KindPlugin, "a:1", "a")
	award(user, 12, points.KindPlugin, "a:2", "a")
	award(user, 50, points.KindPlugin, "b:1", "b")
	award(user, 7, points.KindReferral, "a:3", "a")
	award(other, 9, points.KindPlugin, "a:4", "a")
	// Yesterday's (UTC) award no longer counts.
	if _, err := pool.Exec(ctx, `INSERT INTO points_ledger (user_id, amount, kind, idempotency_key, metadata, created_at)
		VALUES ($1, 100, 'plugin', 'a:old', '{"plugin": "a"}', date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 second')`, user); err != nil {
		t.Fatal(err)
	}

	err := postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		for key, want := range map[string]bool{"a:1": true, "a:old": true, "a:9": false} {
			if used, err := points.UsedTx(ctx, tx, key); err != nil || used != want {
				t.Errorf("UsedTx(%s) = %v, %v; want %v", key, used, err, want)
			}
		}
		for _, c := range []struct {
			user, plugin string
			kind         points.Kind
			want         int64
		}{
			{user, "a", points.KindPlugin, 42},
			{user, "b", points.KindPlugin, 50},
			{user, "c", points.KindPlugin, 0},
			{user, "a", points.KindReferral, 7},
			{other, "a", points.KindPlugin, 9},
		} {
			if got, err := points.AwardedTodayTx(ctx, tx, c.user, c.kind, "plugin", c.plugin); err != nil || got != c.want {
				t.Errorf("AwardedTodayTx(%s, %s) = %d, %v; want %d", c.kind, c.plugin, got, err, c.want)
			}
		}
		// What the transaction itself awarded counts at once.
		if _, _, err := points.AwardTx(ctx, tx, user, 8, points.KindPlugin, "a:5", map[string]any{"plugin": "a"}); err != nil {
			return err
		}
		if got, err := points.AwardedTodayTx(ctx, tx, user, points.KindPlugin, "plugin", "a"); err != nil || got != 50 {
			t.Errorf("after an award in the transaction: %d, %v; want 50", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFilteredHistory(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	l := points.New(pool)
	user := newUser(t, pool)
	mustAward(t, l, user, 20, points.KindChallenge, "f:challenge")
	mustAward(t, l, user, 5, points.KindCheckin, "f:checkin")
	mustAward(t, l, user, 100, points.KindCheckinBonus, "f:bonus")
	mustAward(t, l, user, -15, points.KindRedemption, "f:spent")
	mustAward(t, l, user, 15, points.KindRedemptionRefund, "f:refund")
	page, err := l.FilteredHistory(ctx, user, points.HistoryGroups["checkin"], time.Time{}, 0, 1)
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Kind != points.KindCheckinBonus || page.NextCursor == 0 {
		t.Fatalf("check-in page 1: %+v %v", page, err)
	}
	page, err = l.FilteredHistory(ctx, user, points.HistoryGroups["checkin"], time.Time{}, page.NextCursor, 1)
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Kind != points.KindCheckin || page.NextCursor != 0 {
		t.Fatalf("check-in page 2: %+v %v", page, err)
	}
	page, err = l.FilteredHistory(ctx, user, points.HistoryGroups["gastos"], time.Now().Add(-time.Hour), 0, 10)
	if err != nil || len(page.Entries) != 2 {
		t.Fatalf("spent in the last hour: %+v %v", page, err)
	}
	page, err = l.FilteredHistory(ctx, user, nil, time.Now().Add(time.Hour), 0, 10)
	if err != nil || len(page.Entries) != 0 {
		t.Fatalf("entries since an hour from now: %+v %v", page, err)
	}
	if b, _ := l.Balance(ctx, user); b.PointsSpent != 0 || b.TotalPoints != 125 {
		t.Fatalf("balance after a refund: %+v", b)
	}
}
