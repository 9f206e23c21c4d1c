package pluginhost_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/pluginhost/internal/fixture/echo"
)

// BenchmarkToolCall compares the same echo handler served in-process and
// through the plugin host (HTTP → gRPC over AutoMTLS → plugin → back), with
// the plugin process confined (the default) and unconfined
// (PLUGIN_SANDBOX=off), reporting median and p99 per call. Run with:
//
//	go test -run '^$' -bench ToolCall -benchtime 3000x ./core/pluginhost/
func BenchmarkToolCall(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		h := echo.Handler()
		measure(b, func() int {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/echo?q=oi", nil))
			return rec.Code
		})
	})
	b.Run("plugin-confined", func(b *testing.B) {
		hn := start(b, install(b, "fixture"), pluginhost.Options{})
		user := hn.newUser(b)
		measure(b, func() int { return hn.call(user, "GET", "/api/tools/fixture/echo?q=oi", nil).Status })
	})
	b.Run("plugin-unconfined", func(b *testing.B) {
		hn := start(b, install(b, "fixture"), pluginhost.Options{Sandbox: confine.Options{Disabled: true}})
		user := hn.newUser(b)
		measure(b, func() int { return hn.call(user, "GET", "/api/tools/fixture/echo?q=oi", nil).Status })
	})
}

func measure(b *testing.B, call func() int) {
	for range 50 { // warm up connections and caches
		call()
	}
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		if status := call(); status != http.StatusOK {
			b.Fatalf("status %d", status)
		}
		durations = append(durations, time.Since(began))
	}
	b.StopTimer()
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds()), "median-µs")
	b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds()), "p99-µs")
}
