// Package checkin is the daily check-in: once per local calendar
// day in the user's time zone, +5 VetCoins, a sequence that grows on
// consecutive days and pays a +100 bonus on the 7th (through a Temporal
// workflow), and the broken-streak reset.
package checkin

import (
	"time"
)

const (
	// Points is the credit for one check-in.
	Points = 5
	// BonusPoints is the credit for completing a 7-day streak.
	BonusPoints = 100
	// StreakLength is the number of consecutive days that pays the bonus.
	StreakLength = 7
	// DefaultTimeZone is the zone used until the user has one.
	DefaultTimeZone = "America/Sao_Paulo"
)

// Date is a local calendar day.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf is t's calendar day in loc.
func DateOf(t time.Time, loc *time.Location) Date {
	y, m, d := t.In(loc).Date()
	return Date{y, m, d}
}

// ParseDate reads YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, err
	}
	return DateOf(t, time.UTC), nil
}

func (d Date) String() string { return d.utc().Format(time.DateOnly) }

func (d Date) utc() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// DaysSince is the number of calendar days from earlier to d.
func (d Date) DaysSince(earlier Date) int {
	return int(d.utc().Sub(earlier.utc()).Hours() / 24)
}

// Step is the outcome of checking in on a day.
type Step struct {
	// Sequence is the position of this check-in in the streak (1–7).
	Sequence int
	// Stored is the sequence kept afterwards: 0 after a completed streak.
	Stored int
	// CompletesStreak is true on the 7th consecutive day.
	CompletesStreak bool
}

// Next is the streak rule: the first ever check-in starts at 1, the day after
// the last one adds 1, a gap over one day starts again at 1, and reaching 7
// completes the streak (stored back to 0). ok is false when the user has
// already checked in on today (or, after moving to a zone behind the last
// check-in's, on a later day).
func Next(last *Date, stored int, today Date) (step Step, ok bool) {
	seq := 1
	if last != nil {
		switch gap := today.DaysSince(*last); {
		case gap <= 0:
			return Step{}, false
		case gap == 1:
			seq = stored + 1
		}
	}
	if seq >= StreakLength {
		return Step{Sequence: StreakLength, Stored: 0, CompletesStreak: true}, true
	}
	return Step{Sequence: seq, Stored: seq}, true
}

// Broken reports a broken streak: a gap over one day with a stored
// sequence above 0.
func Broken(last *Date, stored int, today Date) bool {
	return last != nil && stored > 0 && today.DaysSince(*last) > 1
}

// NextMidnight is the start of the next local day after now in loc.
func NextMidnight(now time.Time, loc *time.Location) time.Time {
	l := now.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, loc)
}
