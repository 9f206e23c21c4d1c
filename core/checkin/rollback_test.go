package checkin_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// failOnce fails the first streak-bonus start, then credits inline.
type failOnce struct {
	checkin.Direct
	failed bool
}

func (f *failOnce) StartStreakBonus(ctx context.Context, tx points.Querier, userID string, d checkin.Date) error {
	if !f.failed {
		f.failed = true
		return errors.New("workflow engine unavailable")
	}
	return f.Direct.StartStreakBonus(ctx, tx, userID, d)
}

// An error late in the check-in transaction rolls back everything it wrote
// (the day's row, the state and the +5 credit), so the retry pays exactly once.
func TestFailedCheckinRollsBackEverything(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := &failOnce{}
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	user := newUser(t, pool)
	for day := 1; day <= 6; day++ {
		c.set(fmt.Sprintf("2026-03-%02dT15:00:00Z", day))
		if _, err := svc.CheckIn(ctx, user, ""); err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
	}
	c.set("2026-03-07T15:00:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err == nil {
		t.Fatal("check-in succeeded although the bonus could not start")
	}
	var rows, credits, total int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM checkins WHERE user_id = $1),
		(SELECT count(*) FROM points_ledger WHERE user_id = $1),
		(SELECT total_checkins FROM user_daily_checkin WHERE user_id = $1)`, user).Scan(&rows, &credits, &total); err != nil {
		t.Fatal(err)
	}
	if rows != 6 || credits != 6 || total != 6 {
		t.Fatalf("after the failed 7th check-in: %d rows, %d credits, total %d; want 6 each", rows, credits, total)
	}
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || !res.CompletedStreak || res.Sequence != 7 {
		t.Fatalf("retry: %+v %v", res, err)
	}
	b, err := points.New(pool).Balance(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if want := 7*checkin.Points + checkin.BonusPoints; b.TotalPoints != want {
		t.Fatalf("balance %d, want %d", b.TotalPoints, want)
	}
}
