package checkin_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// A check-in stores its reminder for 20:00 the next local day; a check-in
// that day moves it on before it falls due, a due one is listed until
// cleared, a clear never drops a moment a check-in moved meanwhile, and a
// completed streak has nothing to remind of.
func TestCheckinSchedulesItsStreakReminder(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: newRecorder(pool)})
	user, other := newUser(t, pool), newUser(t, pool)

	// 12:00 in São Paulo (UTC-3): due 2026-03-02 20:00 local, 23:00 UTC.
	c.set("2026-03-01T15:00:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	// Tokyo (UTC+9): already 00:30 on March 2nd, due March 3rd 20:00 local.
	c.set("2026-03-01T15:30:00Z")
	if _, err := svc.CheckIn(ctx, other, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	due, next, err := svc.DueReminders(ctx, at("2026-03-02T22:59:59Z"), 10)
	if err != nil || len(due) != 0 || !next.Equal(at("2026-03-02T23:00:00Z")) {
		t.Fatalf("before 20:00: due %v next %v (%v)", due, next, err)
	}
	due, next, err = svc.DueReminders(ctx, at("2026-03-02T23:00:00Z"), 10)
	if err != nil || len(due) != 1 || due[0].UserID != user || due[0].Sequence != 1 || due[0].Day != "2026-03-02" ||
		!next.Equal(at("2026-03-03T11:00:00Z")) {
		t.Fatalf("at 20:00: due %+v next %v (%v)", due, next, err)
	}
	if !due[0].StillDue(at("2026-03-02T23:00:00Z")) || due[0].StillDue(at("2026-03-03T03:00:00Z")) {
		t.Fatal("a reminder is sent on its evening and dropped once its day is over")
	}

	// The user checks in after the list was read: clearing it keeps the
	// moment the check-in set.
	c.set("2026-03-02T23:30:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.ClearReminders(ctx, due); err != nil {
		t.Fatal(err)
	}
	// Oldest first: Tokyo's evening came eleven hours before São Paulo's.
	due, _, err = svc.DueReminders(ctx, at("2026-03-03T23:00:00Z"), 10)
	if err != nil || len(due) != 2 || due[0].UserID != other || due[0].Day != "2026-03-03" ||
		due[1].UserID != user || due[1].Sequence != 2 || due[1].Day != "2026-03-03" {
		t.Fatalf("the next evening: %+v (%v)", due, err)
	}
	if err := svc.ClearReminders(ctx, due); err != nil {
		t.Fatal(err)
	}
	if due, next, err := svc.DueReminders(ctx, at("2026-03-10T23:00:00Z"), 10); err != nil || len(due) != 0 || !next.IsZero() {
		t.Fatalf("after clearing: %+v next %v (%v)", due, next, err)
	}

	// The 7th check-in completes the streak and starts it again from zero.
	streaker := newUser(t, pool)
	completeStreak(t, svc, &c, streaker)
	var remind *time.Time
	if err := pool.QueryRow(ctx, `SELECT remind_at FROM user_daily_checkin WHERE user_id = $1`, streaker).Scan(&remind); err != nil || remind != nil {
		t.Fatalf("completed streak's reminder %v (%v)", remind, err)
	}
}

// Resetting a broken streak clears its reminder.
func TestResetBrokenClearsTheReminder(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var c clock
	svc := checkin.New(pool, checkin.Options{Now: c.now, Workflows: newRecorder(pool)})
	user := newUser(t, pool)
	c.set("2026-03-01T15:00:00Z")
	if _, err := svc.CheckIn(ctx, user, ""); err != nil {
		t.Fatal(err)
	}
	c.set("2026-03-05T15:00:00Z")
	st, err := svc.ResetBroken(ctx, user)
	if err != nil || st.SequenceCount != 0 {
		t.Fatalf("reset: %+v %v", st, err)
	}
	if due, next, err := svc.DueReminders(ctx, at("2026-03-05T15:00:00Z"), 10); err != nil || len(due) != 0 || !next.IsZero() {
		t.Fatalf("after the reset: due %v next %v (%v)", due, next, err)
	}
}
