package app_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
)

// TestContentScheduleFiresThroughTheApp: an item approved and scheduled a
// few seconds ahead through the backoffice API gets a Temporal timer (its
// next firing is queryable) and appears in the public API when it fires.
func TestContentScheduleFiresThroughTheApp(t *testing.T) {
	dev := apptest.TemporalDev(t)
	e := newContentEnvWith(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	if e.srv.App.Content.Timers == nil {
		t.Fatal("no publication timers with TEMPORAL_ADDRESS set")
	}
	it := e.to(t, content.StatusApproved)
	at := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second).Add(time.Second)
	it, res := e.act(t, e.revisor, it, "schedule", "publish_at", at.Format(time.RFC3339))
	if res.status != http.StatusOK || it.Status != content.StatusScheduled {
		t.Fatalf("schedule: %d %s", res.status, res.body)
	}
	st, err := e.srv.App.Content.Timers.Next(context.Background(), it.ID)
	if err != nil || st.Next == nil || !st.Next.Equal(at) {
		t.Fatalf("next firing: %+v %v", st, err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		res := e.visitor.do("GET", "/api/content/noticias/"+it.ID, nil)
		if res.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not published 60 s after its moment: %d %s", res.status, res.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got, _ := e.srv.App.Content.Store.Get(context.Background(), it.ID)
	if got.Status != content.StatusPublished || got.PublishedAt == nil || got.PublishedAt.Before(at) {
		t.Errorf("published item: %+v", got)
	}
}
