package checkin_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func newUser(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	err := pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("c%d@example.com", rand.Int64())).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// clock is a settable time source.
type clock struct{ t atomic.Pointer[time.Time] }

func (c *clock) set(s string) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	c.t.Store(&t)
}
func (c *clock) now() time.Time { return *c.t.Load() }

func TestThousandConcurrentCheckinsGiveOneCredit(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	c.set("2026-03-10T15:00:00Z")
	svc := checkin.New(pool, checkin.Options{Now: c.now})
	user := newUser(t, pool)

	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for range 1000 {
		wg.Go(func() {
			_, err := svc.CheckIn(ctx, user, "")
			switch {
			case err == nil:
				ok.Add(1)
			case core.ErrorCode(err) == core.ECONFLICT && err.(*core.Error).Message == checkin.MsgAlreadyToday:
				refused.Add(1)
			default:
				t.Errorf("check-in: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || refused.Load() != 999 {
		t.Fatalf("%d succeeded, %d refused; want 1 and 999", ok.Load(), refused.Load())
	}
	var rows, credits, sum int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM checkins WHERE user_id = $1`, user).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*), coalesce(sum(amount),0) FROM points_ledger WHERE user_id = $1`, user).Scan(&credits, &sum); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || credits != 1 || sum != checkin.Points {
		t.Fatalf("check-in rows %d, credits %d, sum %d; want 1, 1, %d", rows, credits, sum, checkin.Points)
	}
	// The database itself refuses a second row for the day, whatever the code does.
	if _, err := pool.Exec(ctx, `INSERT INTO checkins (user_id, local_date, time_zone, sequence, points) VALUES ($1, '2026-03-10', 'UTC', 1, 5)`, user); err == nil {
		t.Fatal("a second check-in row for the same day was accepted")
	}
}

func TestStreakBonusBrokenStreakAndReset(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	svc := checkin.New(pool, checkin.Options{Now: c.now})
	ledger := points.New(pool)
	user := newUser(t, pool)

	// 23:30 São Paulo time on seven consecutive local days.
	for day := 1; day <= 7; day++ {
		c.set(fmt.Sprintf("2026-03-%02dT02:30:00Z", day+1))
		res, err := svc.CheckIn(ctx, user, "")
		if err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
		if res.Sequence != day || res.CompletedStreak != (day == 7) {
			t.Fatalf("day %d: sequence %d completed %v", day, res.Sequence, res.CompletedStreak)
		}
		if res.Today != fmt.Sprintf("2026-03-%02d", day) {
			t.Fatalf("day %d: local day %s", day, res.Today)
		}
		if _, err := svc.CheckIn(ctx, user, ""); core.ErrorCode(err) != core.ECONFLICT {
			t.Fatalf("day %d second attempt: %v", day, err)
		}
	}
	st, err := svc.Get(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if st.SequenceCount != 0 || st.LastBonusAt == nil || st.TotalCheckins != 7 || st.TotalCheckinPoints != 7*5+100 {
		t.Fatalf("after the streak: %+v", st)
	}
	b, err := ledger.Balance(ctx, user)
	if err != nil || b.CheckinPoints != 135 || b.TotalPoints != 135 {
		t.Fatalf("balance %+v err %v, want 135 check-in points", b, err)
	}
	// Crediting the same streak again (a retried activity) changes nothing.
	d, _ := checkin.ParseDate("2026-03-07")
	if created, err := checkin.CreditStreakBonus(ctx, pool, user, d); err != nil || created {
		t.Fatalf("repeat bonus credit: created=%v err=%v", created, err)
	}

	// Two check-ins, then a gap of three days: broken, reset, then 1.
	c.set("2026-03-08T15:00:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	c.set("2026-03-09T15:00:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	c.set("2026-03-12T15:00:00Z")
	st, _ = svc.Get(ctx, user)
	if !st.Broken || st.SequenceCount != 2 || !st.CanCheckIn {
		t.Fatalf("after a gap: %+v, want broken with sequence 2", st)
	}
	st, err = svc.ResetBroken(ctx, user)
	if err != nil || st.Broken || st.SequenceCount != 0 {
		t.Fatalf("reset: %+v err %v", st, err)
	}
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || res.Sequence != 1 {
		t.Fatalf("after reset: %+v err %v", res, err)
	}
}

func TestClientZoneIsKeptOnFirstUse(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	// 01:00 UTC: still the 9th in São Paulo, already the 10th in Tokyo.
	c.set("2026-03-10T01:00:00Z")
	svc := checkin.New(pool, checkin.Options{Now: c.now})
	user := newUser(t, pool)
	if _, err := svc.CheckIn(ctx, user, "Nowhere/Atlantis"); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("unknown zone: %v", err)
	}
	res, err := svc.CheckIn(ctx, user, "Asia/Tokyo")
	if err != nil || res.TimeZone != "Asia/Tokyo" || res.Today != "2026-03-10" {
		t.Fatalf("tokyo check-in: %+v err %v", res, err)
	}
	// A later request naming another zone does not move the user's day.
	if _, err := svc.CheckIn(ctx, user, "America/Sao_Paulo"); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("second check-in same Tokyo day: %v", err)
	}
}

// Moving the profile to a zone where it is already tomorrow does not pay a
// second check-in on the same real day: the last check-in's day ends at
// midnight in the zone it was made in, and the new zone applies from then.
func TestZoneChangeDoesNotPayTwiceOnOneDay(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	svc := checkin.New(pool, checkin.Options{Now: c.now,
		// The production lookup: the zone chosen on the profile.
		ZoneQuery: `SELECT time_zone FROM profiles WHERE user_id = $1 AND time_zone <> 'America/Sao_Paulo'`})
	user := newUser(t, pool)
	if _, err := pool.Exec(ctx, `INSERT INTO profiles (user_id) VALUES ($1)`, user); err != nil {
		t.Fatal(err)
	}

	// 21:30 on the 9th in São Paulo.
	c.set("2026-03-10T00:30:00Z")
	if res, err := svc.CheckIn(ctx, user, ""); err != nil || res.Today != "2026-03-09" {
		t.Fatalf("first check-in: %+v %v", res, err)
	}
	// The member moves the profile to Tokyo, where it is 09:30 on the 10th.
	if _, err := pool.Exec(ctx, `UPDATE profiles SET time_zone = 'Asia/Tokyo' WHERE user_id = $1`, user); err != nil {
		t.Fatal(err)
	}
	_, err := svc.CheckIn(ctx, user, "")
	if e, ok := err.(*core.Error); !ok || e.Code != core.ECONFLICT || e.Message != checkin.MsgAlreadyToday {
		t.Fatalf("second check-in on the same real day: %v", err)
	}
	st, err := svc.Get(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	saoPauloMidnight := time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC)
	if st.CanCheckIn || !st.CheckedInToday || !st.NextMidnight.Equal(saoPauloMidnight) {
		t.Fatalf("state after the zone change: %+v", st)
	}
	c.set("2026-03-10T02:59:59Z")
	if _, err := svc.CheckIn(ctx, user, ""); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("one second before São Paulo midnight: %v", err)
	}
	// From São Paulo's midnight the new zone applies: the 10th in Tokyo,
	// the day after the 9th, so the streak goes on.
	c.set("2026-03-10T03:00:00Z")
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || res.Today != "2026-03-10" || res.Sequence != 2 || res.TimeZone != "Asia/Tokyo" {
		t.Fatalf("after São Paulo midnight: %+v %v", res, err)
	}
	// Tokyo's next midnight opens the next one, as usual.
	c.set("2026-03-10T15:00:00Z")
	if res, err := svc.CheckIn(ctx, user, ""); err != nil || res.Today != "2026-03-11" || res.Sequence != 3 {
		t.Fatalf("next Tokyo day: %+v %v", res, err)
	}
	var rows, sum int
	if err := pool.QueryRow(ctx, `SELECT count(*), coalesce(sum(amount), 0) FROM points_ledger WHERE user_id = $1`, user).Scan(&rows, &sum); err != nil {
		t.Fatal(err)
	}
	if rows != 3 || sum != 3*checkin.Points {
		t.Fatalf("%d credits summing %d, want 3 and %d", rows, sum, 3*checkin.Points)
	}
}

// Ordinary days are unaffected, however close the check-ins are in real
// time: 23:59 and then 00:01 the next day both count.
func TestCheckinsMinutesApartAcrossMidnight(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	svc := checkin.New(pool, checkin.Options{Now: c.now})
	user := newUser(t, pool)
	c.set("2026-03-10T02:59:00Z") // 23:59 on the 9th in São Paulo
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	c.set("2026-03-10T03:01:00Z") // 00:01 on the 10th
	if st, _ := svc.Get(ctx, user); !st.CanCheckIn || st.CheckedInToday {
		t.Fatalf("state on the new day: %+v", st)
	}
	if res, err := svc.CheckIn(ctx, user, ""); err != nil || res.Sequence != 2 {
		t.Fatalf("next day: %+v %v", res, err)
	}
}
