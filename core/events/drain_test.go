package events_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// A stopping instance ends its live-event streams with a short retry hint
// (the browser reconnects elsewhere at once), and a stream opened after
// that ends at once too.
func TestDrainEndsStreamsWithARetryHint(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, _ := srv.SignedIn(t, "ouvinte@example.com")
	// read runs on its own goroutine too: it reports with t.Error.
	read := func() []string {
		res, err := c.HTTP.Get(c.URLFor("/api/events"))
		if err != nil {
			t.Error(err)
			return nil
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET /api/events: %d", res.StatusCode)
			return nil
		}
		var lines []string
		done := make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the stream did not end")
		}
		return lines
	}
	ended := make(chan []string, 1)
	go func() { ended <- read() }()
	time.Sleep(300 * time.Millisecond) // the stream is open
	srv.App.Engagement.Events.Drain()
	for _, lines := range [][]string{<-ended, read()} {
		if !strings.Contains(strings.Join(lines, "\n"), "retry: 250") {
			t.Errorf("stream ended without the retry hint: %q", lines)
		}
	}
}
