package checkin_test

import (
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/points"
)

func TestCheckinOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	if res := srv.Client(t).Do("POST", "/api/checkin", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor check-in: %d", res.Status)
	}
	c, _ := srv.SignedIn(t, "checkin@example.com")

	var before checkin.State
	c.Do("GET", "/api/checkin", nil).JSON(t, &before)
	if !before.CanCheckIn || before.CheckedInToday || before.SequenceCount != 0 || before.TimeZone != "America/Sao_Paulo" {
		t.Fatalf("before: %+v", before)
	}
	if res := c.Do("POST", "/api/checkin", map[string]string{"time_zone": "Lua/Crateras"}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad zone: %d %s", res.Status, res.Body)
	}
	res := c.Do("POST", "/api/checkin", map[string]string{"time_zone": "America/Manaus"})
	if res.Status != http.StatusCreated {
		t.Fatalf("check-in: %d %s", res.Status, res.Body)
	}
	var out checkin.Result
	res.JSON(t, &out)
	if out.Sequence != 1 || out.PointsAwarded != 5 || !out.CheckedInToday || out.CanCheckIn || out.TimeZone != "America/Manaus" {
		t.Fatalf("result %+v", out)
	}
	again := c.Do("POST", "/api/checkin", nil)
	if again.Status != http.StatusConflict || again.ErrorMessage() != "Você já fez check-in hoje!" {
		t.Fatalf("second check-in: %d %q", again.Status, again.ErrorMessage())
	}

	var b points.Balance
	c.Do("GET", "/api/points/balance", nil).JSON(t, &b)
	if b.TotalPoints != 5 || b.CheckinPoints != 5 {
		t.Fatalf("balance %+v", b)
	}
	var page points.Page
	c.Do("GET", "/api/points/history?limit=10", nil).JSON(t, &page)
	if len(page.Entries) != 1 || page.Entries[0].Amount != 5 || page.Entries[0].Kind != points.KindCheckin {
		t.Fatalf("history %+v", page)
	}
	if res := c.Do("GET", "/api/points/history?limit=0", nil); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad limit: %d", res.Status)
	}
}
