package checkin_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// afterCommit starts bonuses after the commit, as the Temporal engine does;
// a start credits through CreditStreakBonus (what the workflow's activity
// runs). The first start fails, as when Temporal is unreachable.
type afterCommit struct {
	pool *pgxpool.Pool

	mu       sync.Mutex
	failNext bool
	starts   int
	inTx     []bool
}

func (w *afterCommit) StartStreakBonus(ctx context.Context, tx points.Querier, userID string, d checkin.Date) error {
	w.mu.Lock()
	w.inTx = append(w.inTx, tx != nil)
	fail := w.failNext
	w.failNext = false
	w.starts++
	w.mu.Unlock()
	if fail {
		return errors.New("workflow engine unavailable")
	}
	_, err := checkin.CreditStreakBonus(ctx, w.pool, userID, d)
	return err
}

func (*afterCommit) EnsureStreakReminder(context.Context, string) error { return nil }

// A completed streak's check-in commits first and its bonus starts after;
// a lost start is started again by ResumeStreakBonuses, once.
func TestStreakBonusStartsAfterCommitAndLostStartsResume(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	wf := &afterCommit{pool: pool}
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: wf})
	ledger := points.New(pool)
	user := newUser(t, pool)
	for day := 1; day <= 6; day++ {
		c.set(fmt.Sprintf("2026-03-%02dT15:00:00Z", day))
		if _, err := svc.CheckIn(ctx, user, ""); err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
	}
	c.set("2026-03-07T15:00:00Z")
	wf.failNext = true
	res, err := svc.CheckIn(ctx, user, "")
	if err != nil || !res.CompletedStreak {
		t.Fatalf("the 7th check-in must commit although its bonus did not start: %+v %v", res, err)
	}
	if len(wf.inTx) != 1 || wf.inTx[0] {
		t.Fatalf("bonus started inside the transaction: %v", wf.inTx)
	}
	balance := func() int {
		b, err := ledger.Balance(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		return b.TotalPoints
	}
	if got := balance(); got != 7*checkin.Points {
		t.Fatalf("balance %d before the resume, want %d", got, 7*checkin.Points)
	}
	n, err := svc.ResumeStreakBonuses(ctx, ledger)
	if err != nil || n != 1 {
		t.Fatalf("resume: %d %v", n, err)
	}
	if got := balance(); got != 7*checkin.Points+checkin.BonusPoints {
		t.Fatalf("balance %d after the resume", got)
	}
	if n, err := svc.ResumeStreakBonuses(ctx, ledger); err != nil || n != 0 {
		t.Fatalf("second resume started %d (%v): the bonus is credited", n, err)
	}
}
