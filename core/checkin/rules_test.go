package checkin_test

import (
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/checkin"
)

func date(t *testing.T, s string) *checkin.Date {
	t.Helper()
	d, err := checkin.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

func TestNextFollowsTheSequenceRules(t *testing.T) {
	tests := []struct {
		name       string
		last       string
		stored     int
		today      string
		wantOK     bool
		wantSeq    int
		wantStored int
		wantBonus  bool
		wantBroken bool
	}{
		{name: "first ever check-in starts at 1", today: "2026-03-10", wantOK: true, wantSeq: 1, wantStored: 1},
		{name: "previous day adds one", last: "2026-03-09", stored: 3, today: "2026-03-10", wantOK: true, wantSeq: 4, wantStored: 4},
		{name: "same day is refused", last: "2026-03-10", stored: 3, today: "2026-03-10", wantOK: false},
		{name: "gap of two days resets to 1 and counts as broken", last: "2026-03-08", stored: 3, today: "2026-03-10", wantOK: true, wantSeq: 1, wantStored: 1, wantBroken: true},
		{name: "gap after a completed streak is not broken", last: "2026-03-01", stored: 0, today: "2026-03-10", wantOK: true, wantSeq: 1, wantStored: 1},
		{name: "previous day after a completed streak starts at 1", last: "2026-03-09", stored: 0, today: "2026-03-10", wantOK: true, wantSeq: 1, wantStored: 1},
		{name: "seventh day completes the streak and stores 0", last: "2026-03-09", stored: 6, today: "2026-03-10", wantOK: true, wantSeq: 7, wantStored: 0, wantBonus: true},
		{name: "month boundary counts as consecutive", last: "2026-02-28", stored: 2, today: "2026-03-01", wantOK: true, wantSeq: 3, wantStored: 3},
		{name: "year boundary counts as consecutive", last: "2025-12-31", stored: 5, today: "2026-01-01", wantOK: true, wantSeq: 6, wantStored: 6},
		{name: "a later last day (zone moved west) is refused", last: "2026-03-11", stored: 2, today: "2026-03-10", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var last *checkin.Date
			if tt.last != "" {
				last = date(t, tt.last)
			}
			today := *date(t, tt.today)
			step, ok := checkin.Next(last, tt.stored, today)
			if ok != tt.wantOK {
				t.Fatalf("ok=%v, want %v", ok, tt.wantOK)
			}
			if ok && (step.Sequence != tt.wantSeq || step.Stored != tt.wantStored || step.CompletesStreak != tt.wantBonus) {
				t.Errorf("step %+v, want seq %d stored %d bonus %v", step, tt.wantSeq, tt.wantStored, tt.wantBonus)
			}
			if got := checkin.Broken(last, tt.stored, today); got != tt.wantBroken {
				t.Errorf("broken=%v, want %v", got, tt.wantBroken)
			}
		})
	}
}

// The calendar day is the user's local one: the same instant is a different
// day in São Paulo, Tokyo and UTC around midnight.
func TestLocalDayAroundMidnight(t *testing.T) {
	load := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	saoPaulo, tokyo, noronha := load("America/Sao_Paulo"), load("Asia/Tokyo"), load("America/Noronha")
	tests := []struct {
		instant string
		loc     *time.Location
		want    string
	}{
		{"2026-03-10T02:59:59Z", saoPaulo, "2026-03-09"}, // 23:59:59 in São Paulo (UTC-3)
		{"2026-03-10T03:00:00Z", saoPaulo, "2026-03-10"}, // local midnight
		{"2026-03-10T02:59:59Z", noronha, "2026-03-10"},  // UTC-2: already 00:59
		{"2026-03-09T14:59:59Z", tokyo, "2026-03-09"},
		{"2026-03-09T15:00:00Z", tokyo, "2026-03-10"},
		{"2026-03-10T02:59:59Z", time.UTC, "2026-03-10"},
	}
	for _, tt := range tests {
		instant, _ := time.Parse(time.RFC3339, tt.instant)
		if got := checkin.DateOf(instant, tt.loc).String(); got != tt.want {
			t.Errorf("%s in %s: %s, want %s", tt.instant, tt.loc, got, tt.want)
		}
	}
	// 23:59 then 00:01 local in São Paulo are consecutive days; the same two
	// instants in UTC fall on one day.
	before, _ := time.Parse(time.RFC3339, "2026-03-10T02:59:00Z")
	after, _ := time.Parse(time.RFC3339, "2026-03-10T03:01:00Z")
	d1 := checkin.DateOf(before, saoPaulo)
	if step, ok := checkin.Next(&d1, 1, checkin.DateOf(after, saoPaulo)); !ok || step.Sequence != 2 {
		t.Errorf("São Paulo midnight: step %+v ok %v, want sequence 2", step, ok)
	}
	u1 := checkin.DateOf(before, time.UTC)
	if _, ok := checkin.Next(&u1, 1, checkin.DateOf(after, time.UTC)); ok {
		t.Error("in UTC both instants are the same day; the second check-in must be refused")
	}
	mid := checkin.NextMidnight(before, saoPaulo)
	if want, _ := time.Parse(time.RFC3339, "2026-03-10T03:00:00Z"); !mid.Equal(want) {
		t.Errorf("next midnight %s, want %s", mid, want)
	}
}
