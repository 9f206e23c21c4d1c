package notifications_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/push/pushtest"
)

type listResponse struct {
	Notifications []notifications.Notification `json:"notifications"`
	UnreadCount   int                          `json:"unread_count"`
}

func list(t *testing.T, c *apptest.Client) listResponse {
	t.Helper()
	res := c.Do("GET", "/api/notifications?limit=50", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("list: %d %s", res.Status, res.Body)
	}
	var l listResponse
	res.JSON(t, &l)
	return l
}

// openStream reads /api/events as a browser's EventSource would.
func openStream(t *testing.T, c *apptest.Client) <-chan events.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URLFor("/api/events"), nil)
	res, err := c.HTTP.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("open stream: %v %v", res, err)
	}
	ch := make(chan events.Event, 100)
	go func() {
		defer res.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ev events.Event
				if json.Unmarshal([]byte(data), &ev) == nil {
					ch <- ev
				}
			}
		}
	}()
	return ch
}

func next(t *testing.T, ch <-chan events.Event, kind string) map[string]any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("stream closed")
			}
			if ev.Type != kind {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				t.Fatal(err)
			}
			return m
		case <-deadline:
			t.Fatalf("no %s event within 10 s", kind)
		}
	}
}

// TestNotificationsAcrossTwoInstances: a notification sent through one
// server instance, read and deleted through it, reaches the member's live
// stream open on another instance; the counts follow; nobody acts on
// another member's notifications.
func TestNotificationsAcrossTwoInstances(t *testing.T) {
	a := apptest.Start(t, nil)
	b := apptest.StartOn(t, a.DBURL, nil)
	ana, anaID := a.SignedIn(t, "ana@example.com")
	bia, biaID := a.SignedIn(t, "bia@example.com")
	stream := openStream(t, ana.ForServer(b))
	ctx := context.Background()
	svc := a.App.Engagement.Notifications

	sent := make([]notifications.Notification, 3)
	for i := range sent {
		n, err := svc.Send(ctx, notifications.Notice{UserID: anaID, Type: "connection", Title: "Nova conexão",
			Message: "bia quer se conectar", RelatedUserID: biaID, Data: map[string]string{"connection_id": "c-1"}, Link: "/conexoes"})
		if err != nil {
			t.Fatal(err)
		}
		sent[i] = n
		created := next(t, stream, notifications.EventCreated)
		if created["id"] != n.ID || created["group_count"] != float64(1) {
			t.Fatalf("created event %v", created)
		}
		if u, _ := created["related_user"].(map[string]any); u["id"] != biaID || u["first_name"] != "bia" {
			t.Fatalf("created event's related user %v", created["related_user"])
		}
	}
	l := list(t, ana)
	if len(l.Notifications) != 3 || l.UnreadCount != 3 || l.Notifications[0].RelatedUser == nil || l.Notifications[0].Data["connection_id"] != "c-1" {
		t.Fatalf("list %+v", l)
	}

	// Another member's ids are not found, and change nothing.
	for _, call := range []struct{ method, path string }{
		{"POST", "/api/notifications/" + sent[0].ID + "/read"},
		{"DELETE", "/api/notifications/" + sent[0].ID},
		{"POST", "/api/notifications/not-a-uuid/read"},
	} {
		if res := bia.Do(call.method, call.path, nil); res.Status != http.StatusNotFound {
			t.Errorf("bia %s %s: %d", call.method, call.path, res.Status)
		}
	}
	if l := list(t, ana); l.UnreadCount != 3 || len(l.Notifications) != 3 {
		t.Fatalf("another member changed ana's list: %+v", l)
	}

	if res := ana.Do("POST", "/api/notifications/"+sent[0].ID+"/read", nil); res.Status != http.StatusNoContent {
		t.Fatalf("read: %d %s", res.Status, res.Body)
	}
	if ev := next(t, stream, notifications.EventUpdated); ev["id"] != sent[0].ID || ev["is_read"] != true {
		t.Fatalf("updated event %v", ev)
	}
	if l := list(t, ana); l.UnreadCount != 2 {
		t.Fatalf("unread after one read: %d", l.UnreadCount)
	}
	// Deleting an unread one lowers the count.
	if res := ana.Do("DELETE", "/api/notifications/"+sent[1].ID, nil); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d", res.Status)
	}
	if ev := next(t, stream, notifications.EventDeleted); ev["id"] != sent[1].ID {
		t.Fatalf("deleted event %v", ev)
	}
	if l := list(t, ana); l.UnreadCount != 1 || len(l.Notifications) != 2 {
		t.Fatalf("after delete: %+v", l)
	}
	if res := ana.Do("POST", "/api/notifications/read-all", nil); res.Status != http.StatusNoContent {
		t.Fatalf("read-all: %d", res.Status)
	}
	if ev := next(t, stream, notifications.EventUpdated); ev["all_read"] != true {
		t.Fatalf("read-all event %v", ev)
	}
	if l := list(t, ana); l.UnreadCount != 0 {
		t.Fatalf("after read-all: %+v", l)
	}
	if _, err := svc.Send(ctx, notifications.Notice{UserID: biaID, Type: "other", Title: "Para Bia", Message: "só dela"}); err != nil {
		t.Fatal(err)
	}
	if res := ana.Do("DELETE", "/api/notifications", nil); res.Status != http.StatusNoContent {
		t.Fatalf("clear all: %d", res.Status)
	}
	if ev := next(t, stream, notifications.EventDeleted); ev["all"] != true {
		t.Fatalf("clear-all event %v", ev)
	}
	if l := list(t, ana); len(l.Notifications) != 0 || l.UnreadCount != 0 {
		t.Fatalf("after clear all: %+v", l)
	}
	if l := list(t, bia); len(l.Notifications) != 1 {
		t.Fatalf("clearing ana's list touched bia's: %+v", l)
	}
	if res := ana.Do("GET", "/api/notifications?limit=0", nil); res.Status != http.StatusUnprocessableEntity {
		t.Errorf("limit=0: %d", res.Status)
	}
}

func TestPreferencesAndPushOverHTTP(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PUSH_ALLOW_LOCAL_SERVICES": "true"})
	ana, _ := srv.SignedIn(t, "ana@example.com")

	res := ana.Do("GET", "/api/notifications/preferences", nil)
	var p notifications.Preferences
	res.JSON(t, &p)
	if res.Status != http.StatusOK || !p.PushEnabled || !p.LikesEnabled || p.QuietHoursStart != "22:00" || p.QuietHoursEnd != "07:00" || p.TimeZone != "America/Sao_Paulo" {
		t.Fatalf("defaults: %d %+v", res.Status, p)
	}
	res = ana.Do("PUT", "/api/notifications/preferences", map[string]any{"likes_enabled": false, "quiet_hours_start": "23:15"})
	res.JSON(t, &p)
	if res.Status != http.StatusOK || p.LikesEnabled || !p.CommentsEnabled || p.QuietHoursStart != "23:15" || p.QuietHoursEnd != "07:00" {
		t.Fatalf("put: %d %+v", res.Status, p)
	}
	res = ana.Do("PUT", "/api/notifications/preferences", map[string]any{"quiet_hours_end": "7h", "time_zone": "Lua/Base"})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Preferências de notificação inválidas." {
		t.Errorf("bad preferences: %d %s", res.Status, res.Body)
	}
	if res := ana.Do("PUT", "/api/notifications/preferences", map[string]any{"likes_enabled": "sim"}); res.Status != http.StatusUnprocessableEntity {
		t.Errorf("a string for a switch: %d", res.Status)
	}

	// Development generates a VAPID pair.
	res = ana.Do("GET", "/api/push/vapid-key", nil)
	var key struct {
		PublicKey string `json:"public_key"`
	}
	res.JSON(t, &key)
	if res.Status != http.StatusOK || len(key.PublicKey) != 87 {
		t.Fatalf("vapid key: %d %s", res.Status, res.Body)
	}
	if res := ana.Do("POST", "/api/push/test", nil); res.Status != http.StatusConflict || res.ErrorMessage() != "Você precisa estar inscrito nas notificações para testar" {
		t.Errorf("test without a device: %d %s", res.Status, res.Body)
	}

	ps := pushtest.NewServer()
	t.Cleanup(ps.Close)
	dev := ps.NewDevice("phone")
	body := map[string]any{"subscription": dev.Subscription(), "userAgent": "Chrome Android", "fcmToken": nil}
	if res := ana.Do("POST", "/api/push/subscriptions", body); res.Status != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", res.Status, res.Body)
	}
	if res := ana.Do("POST", "/api/push/subscriptions", body); res.Status != http.StatusOK {
		t.Fatalf("subscribe again: %d %s", res.Status, res.Body)
	}
	bad := map[string]any{"subscription": map[string]any{"endpoint": "https://push.example.com/x", "keys": map[string]string{"p256dh": "x", "auth": "y"}}}
	if res := ana.Do("POST", "/api/push/subscriptions", bad); res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Inscrição de notificações inválida." {
		t.Errorf("bad keys: %d %s", res.Status, res.Body)
	}
	res = ana.Do("GET", "/api/push/subscriptions", nil)
	var subs struct {
		Subscriptions []struct {
			Endpoint  string `json:"endpoint"`
			IsActive  bool   `json:"is_active"`
			UserAgent string `json:"user_agent"`
		} `json:"subscriptions"`
	}
	res.JSON(t, &subs)
	if len(subs.Subscriptions) != 1 || !subs.Subscriptions[0].IsActive || subs.Subscriptions[0].UserAgent != "Chrome Android" {
		t.Fatalf("subscriptions %s", res.Body)
	}
	res = ana.Do("POST", "/api/push/test", nil)
	if res.Status != http.StatusAccepted || strings.TrimSpace(string(res.Body)) != `{"sent":1}` {
		t.Fatalf("test push: %d %s", res.Status, res.Body)
	}
	res = ana.Do("GET", "/api/push/deliveries", nil)
	var d struct {
		Deliveries []struct {
			Endpoint string `json:"endpoint"`
			Status   string `json:"status"`
		} `json:"deliveries"`
	}
	res.JSON(t, &d)
	// No Temporal in this instance: the delivery waits for a worker.
	if len(d.Deliveries) != 1 || d.Deliveries[0].Endpoint != dev.Subscription().Endpoint || d.Deliveries[0].Status != "pending" {
		t.Fatalf("deliveries %s", res.Body)
	}
	if res := ana.Do("POST", "/api/push/subscriptions/unsubscribe", map[string]any{"subscription": map[string]string{"endpoint": dev.Subscription().Endpoint}}); res.Status != http.StatusNoContent {
		t.Fatalf("unsubscribe: %d %s", res.Status, res.Body)
	}
	if res := ana.Do("POST", "/api/push/test", nil); res.Status != http.StatusConflict {
		t.Errorf("test after unsubscribing: %d", res.Status)
	}

	// Outside development without keys: a 503.
	prod := apptest.Start(t, map[string]string{"APP_ENV": "production"})
	c, _ := prod.SignedIn(t, "caio@example.com")
	res = c.Do("GET", "/api/push/vapid-key", nil)
	if res.Status != http.StatusServiceUnavailable || res.ErrorMessage() != "Serviço de notificações temporariamente indisponível. Tente novamente em alguns minutos." {
		t.Errorf("no keys: %d %s", res.Status, res.Body)
	}
	// Configured keys are served as given.
	cfgd := apptest.Start(t, map[string]string{"APP_ENV": "production",
		"VAPID_PUBLIC_KEY": key.PublicKey, "VAPID_PRIVATE_KEY": vapidPrivate(t, srv)})
	c, _ = cfgd.SignedIn(t, "duda@example.com")
	res = c.Do("GET", "/api/push/vapid-key", nil)
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), key.PublicKey) {
		t.Errorf("configured key: %d %s", res.Status, res.Body)
	}
}

// vapidPrivate reads the development pair the instance generated.
func vapidPrivate(t *testing.T, srv *apptest.Server) string {
	t.Helper()
	var k struct {
		Private string `json:"private_key"`
	}
	raw := readFile(t, srv.Env["DATA_DIR"]+"/vapid.json")
	if err := json.Unmarshal(raw, &k); err != nil {
		t.Fatal(err)
	}
	return k.Private
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
