package pluginhost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/toolschedule"
)

// lateSchedule is the schedule service, built once the harness has a pool.
type lateSchedule struct{ s *toolschedule.Service }

func (l *lateSchedule) Schedule(ctx context.Context, pluginID, userID, key string, at time.Time, title, body, link string) (string, bool, error) {
	return l.s.Schedule(ctx, pluginID, userID, key, at, title, body, link)
}

func (l *lateSchedule) Cancel(ctx context.Context, pluginID, userID, key string, prefix bool) (int64, error) {
	return l.s.Cancel(ctx, pluginID, userID, key, prefix)
}

// A real plugin process schedules, moves and cancels notifications for the
// request's member through the host API; the core stores them under the
// plugin's id and that member only, delivers each once when due, and
// refuses bad input.
func TestPluginSchedulesNotifications(t *testing.T) {
	late := &lateSchedule{}
	h := start(t, install(t, "fixture"), pluginhost.Options{Scheduled: late})
	late.s = toolschedule.New(h.pool, toolschedule.Options{Sender: notifications.New(h.pool)})
	ana, bia := h.newUser(t), h.newUser(t)
	ctx := context.Background()

	var rep struct{ Replaced bool }
	if res := h.call(ana, "POST", "/api/tools/fixture/schedule?key=vacina:1&in=3600&link=/ferramentas/fixture", nil); res.Status != 200 {
		t.Fatalf("schedule: %d %s", res.Status, res.Body)
	} else {
		res.decode(t, &rep)
	}
	h.call(ana, "POST", "/api/tools/fixture/schedule?key=vacina:1&in=7200", nil).decode(t, &rep)
	if !rep.Replaced {
		t.Fatal("rescheduling a pending key was not reported as replacing it")
	}
	h.call(ana, "POST", "/api/tools/fixture/schedule?key=vacina:2&in=60", nil).decode(t, &rep)
	h.call(bia, "POST", "/api/tools/fixture/schedule?key=vacina:1&in=60", nil).decode(t, &rep)
	if rep.Replaced {
		t.Fatal("another member's key of the same name was replaced")
	}
	var rows int
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM tool_scheduled_notifications WHERE plugin_id = 'fixture' AND user_id = $1`, ana.UserID).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("Ana's rows: %d %v", rows, err)
	}

	// Bia cannot cancel Ana's key; Ana can.
	var c struct{ Canceled int }
	h.call(bia, "POST", "/api/tools/fixture/unschedule?key=vacina:2", nil).decode(t, &c)
	if c.Canceled != 0 {
		t.Fatal("another member cancelled Ana's notification")
	}
	h.call(ana, "POST", "/api/tools/fixture/unschedule?key=vacina:2", nil).decode(t, &c)
	if c.Canceled != 1 {
		t.Fatalf("cancel: %+v", c)
	}

	// Bad input never reaches the table.
	for _, q := range []string{"key=&in=60", "key=k&in=-60", "key=k&in=60&link=//evil.example", "key=k&in=60&link=https://evil.example",
		"key=k&in=" + "400000000", "key=" + strings.Repeat("k", 201) + "&in=60"} {
		if res := h.call(ana, "POST", "/api/tools/fixture/schedule?"+q, nil); res.Status != 500 || !strings.Contains(res.message(), "InvalidArgument") {
			t.Errorf("%s: %d %s", q, res.Status, res.Body)
		}
	}

	// Delivered when due: Bia's now-ish one at +1 min, Ana's at +2 h; once.
	for range 2 {
		if _, _, err := late.s.DeliverDue(ctx, time.Now().Add(3*time.Hour), 100); err != nil {
			t.Fatal(err)
		}
	}
	var link string
	var n int
	if err := h.pool.QueryRow(ctx, `SELECT count(*), min(link) FROM notifications WHERE user_id = $1 AND title = 'Lembrete da fixture'`, ana.UserID).Scan(&n, &link); err != nil || n != 1 {
		t.Fatalf("Ana's notifications: %d %v", n, err)
	}
	if link != "" {
		// The moved schedule had no link: the newer text replaced the older.
		t.Fatalf("link %q", link)
	}
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1`, bia.UserID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("Bia's notifications: %d %v", n, err)
	}
}
