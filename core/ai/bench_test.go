package ai_test

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/ai/fakeoai"
)

// BenchmarkFirstByteToBrowser measures, through the real HTTP handler and
// server-sent events, the time from the upstream's first content chunk
// (written by the fake) to the first delta event read by the client. The
// issue's target is under 200 ms; the metric is reported as ms/first-delta.
func BenchmarkFirstByteToBrowser(b *testing.B) {
	f := newFixture(b, func(o *ai.Options) { o.TrialDaily = 1 << 30 })
	u := f.user(b)
	h := &ai.HTTP{Service: f.svc}
	r := chi.NewRouter()
	r.Method("POST", "/api/ai/conversations/{id}/messages", h.Ask())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.ServeHTTP(w, req.WithContext(core.WithPrincipal(req.Context(), core.Principal{UserID: u, Roles: []string{core.RoleUser}})))
	}))
	defer srv.Close()
	conv, err := f.svc.Create(context.Background(), u, "", "")
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.fake.Push(fakeoai.Script{Chunks: []string{"Primeira", " palavra", " e", " mais"}, FirstDelay: 20 * time.Millisecond})
		res, err := http.Post(srv.URL+"/api/ai/conversations/"+conv.ID+"/messages", "application/json", bytes.NewBufferString(`{"content":"Pergunta de medida"}`))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: delta") {
				total += time.Since(f.fake.FirstChunkAt())
				break
			}
		}
		_, _ = bufio.NewReader(res.Body).WriteTo(discard{})
		res.Body.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-delta")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
