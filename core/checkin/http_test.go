package checkin_test

import (
	"context"
	"net/http"
	"testing"
	"time"

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

// A zone chosen on the profile decides the user's day, over the zone the
// browser sent on first use.
func TestProfileZoneDecidesTheDay(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, userID := srv.SignedIn(t, "fuso@example.com")
	if res := c.Do("GET", "/api/profile", nil); res.Status != http.StatusOK {
		t.Fatalf("profile: %d", res.Status)
	}
	if _, err := srv.App.Pool.Exec(context.Background(), `UPDATE profiles SET time_zone = 'Pacific/Kiritimati' WHERE user_id = $1`, userID); err != nil {
		t.Fatal(err)
	}
	res := c.Do("POST", "/api/checkin", map[string]string{"time_zone": "Pacific/Pago_Pago"})
	if res.Status != http.StatusCreated {
		t.Fatalf("check-in: %d %s", res.Status, res.Body)
	}
	var out checkin.Result
	res.JSON(t, &out)
	// Kiritimati (UTC+14) and Pago Pago (UTC-11) are never on the same day.
	kiritimati, _ := time.LoadLocation("Pacific/Kiritimati")
	if want := checkin.DateOf(time.Now(), kiritimati).String(); out.TimeZone != "Pacific/Kiritimati" || out.Today != want {
		t.Fatalf("zone %s day %s, want Pacific/Kiritimati %s", out.TimeZone, out.Today, want)
	}
}
