package eventos_test

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/signups"
	"github.com/vetclube/vetclube/workflows"
)

// temporalDev starts the embedded Temporal server (bin/temporal-dev, built
// when missing).
func temporalDev(t *testing.T) *workflows.DevServer {
	t.Helper()
	bin, err := filepath.Abs("../../bin/temporal-dev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = "../../workflows/devserver"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build temporal-dev: %v\n%s", err, out)
		}
	}
	s, err := workflows.StartDevServer(context.Background(), bin, filepath.Join(t.TempDir(), "temporal.sqlite"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	return s
}

func eventually(t *testing.T, what string, within time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type notice struct {
	Title string
	Type  string
	Link  string
	Data  map[string]string
}

func notices(t *testing.T, c *apptest.Client) []notice {
	t.Helper()
	var body struct{ Notifications []notice }
	res := c.Do("GET", "/api/notifications", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("notifications: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &body)
	return body.Notifications
}

func hasNotice(t *testing.T, c *apptest.Client, title string) *notice {
	for _, n := range notices(t, c) {
		if n.Title == title {
			return &n
		}
	}
	return nil
}

// On the real embedded Temporal server, through the HTTP API: a freed seat
// is offered to the first person waiting (notification with the offer),
// the unclaimed offer expires after EVENT_SEAT_OFFER_HOLD and passes to the
// next person, who claims it; publishing the event gives it reminder
// timers, moving it moves them, and cancelling it tells the participants
// and the people waiting.
func TestOffersAndRemindersOnTemporal(t *testing.T) {
	dev := temporalDev(t)
	e := newEnv(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr, "EVENT_SEAT_OFFER_HOLD": "3s"})
	timers := &workflows.EventTimers{Client: e.srv.App.Engagement.Temporal}
	start := time.Now().Add(3 * time.Hour).Truncate(time.Minute)
	it := e.publish(t, "com-fila", e.fields(start, 1))

	var st workflows.EventRemindersState
	eventually(t, "reminder timer after publishing", 20*time.Second, func() bool {
		var err error
		st, err = timers.Next(context.Background(), it.ID)
		return err == nil && st.Next != nil
	})
	// The 24 h reminder's moment had passed when the event was published.
	if !st.Next.Equal(start.Add(-time.Hour)) || st.NextKind != eventos.Reminder1h {
		t.Fatalf("timer: %+v", st)
	}

	a, _ := e.srv.SignedIn(t, "ana@teste.dev")
	b, _ := e.srv.SignedIn(t, "bia@teste.dev")
	c, _ := e.srv.SignedIn(t, "caio@teste.dev")
	path := "/api/eventos/com-fila"
	var ev eventos.DetailAnswer
	if res := a.Do("PUT", path+"/participation", nil); res.Status != http.StatusOK {
		t.Fatalf("ana joins: %d %s", res.Status, res.Body)
	} else if res.JSON(t, &ev); ev.Current != 1 || *ev.SeatsLeft != 0 || ev.Me.Status != signups.StatusParticipant {
		t.Fatalf("ana's page: %+v", ev)
	}
	if res := b.Do("PUT", path+"/participation", nil); res.Status != http.StatusConflict {
		t.Fatalf("bia joins a full event: %d", res.Status)
	}
	for _, w := range []*apptest.Client{b, c} {
		if res := w.Do("PUT", path+"/waitlist", nil); res.Status != http.StatusOK {
			t.Fatalf("waitlist: %d %s", res.Status, res.Body)
		}
	}
	if res := a.Do("DELETE", path+"/participation", nil); res.Status != http.StatusOK {
		t.Fatalf("ana cancels: %d %s", res.Status, res.Body)
	}
	var offer *notice
	eventually(t, "bia's offer notification", 15*time.Second, func() bool { offer = hasNotice(t, b, "Vaga disponível"); return offer != nil })
	if offer.Type != "event" || offer.Link != "/eventos/com-fila" || offer.Data["event_id"] != it.ID || offer.Data["offer_id"] == "" {
		t.Fatalf("offer notice %+v", offer)
	}
	// Unclaimed, it passes to caio after 3 s.
	eventually(t, "caio's offer after bia's expired", 20*time.Second, func() bool { return hasNotice(t, c, "Vaga disponível") != nil })
	if res := b.Do("PUT", path+"/participation", nil); res.Status != http.StatusConflict {
		t.Fatalf("bia claims an expired offer: %d %s", res.Status, res.Body)
	}
	if res := c.Do("PUT", path+"/participation", nil); res.Status != http.StatusOK {
		t.Fatalf("caio claims: %d %s", res.Status, res.Body)
	} else if res.JSON(t, &ev); ev.Me.Status != signups.StatusParticipant || ev.Current != 1 {
		t.Fatalf("caio's page: %+v", ev.Me)
	}

	// Moving the event moves its reminder.
	moved := start.Add(2 * time.Hour)
	e.edit(t, it.ID, map[string]any{"event_time": moved.In(e.sp).Format("15:04"), "event_date": moved.In(e.sp).Format(time.DateOnly)})
	eventually(t, "reminder moved", 20*time.Second, func() bool {
		st, err := timers.Next(context.Background(), it.ID)
		return err == nil && st.Next != nil && st.Next.Equal(moved.Add(-time.Hour))
	})
	d, _ := e.srv.SignedIn(t, "dora@teste.dev")
	if res := d.Do("PUT", path+"/waitlist", nil); res.Status != http.StatusOK {
		t.Fatalf("dora waits: %d %s", res.Status, res.Body)
	}
	// Cancelling tells the participant and the person waiting.
	e.edit(t, it.ID, map[string]any{"cancelled": true})
	eventually(t, "cancellation notice", 20*time.Second, func() bool { return hasNotice(t, c, "Evento cancelado") != nil })
	eventually(t, "cancellation notice to the waiting list", 20*time.Second, func() bool {
		n := hasNotice(t, d, "Evento cancelado")
		return n != nil && n.Data["place"] == "waiting"
	})
	if hasNotice(t, b, "Evento cancelado") != nil {
		t.Error("a non-participant was told of the cancellation")
	}
}
