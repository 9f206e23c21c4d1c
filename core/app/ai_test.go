package app_test

import (
	"bufio"
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/ai/fakeoai"
	"github.com/vetclube/vetclube/core/app/apptest"
)

// With OPENAI_BASE_URL set, the app talks to that endpoint (here the fake,
// standing in for a paid service), with the key it was given, in "live"
// mode, and the CSP's connect-src allows the endpoint's origin; the whole
// turn goes through the real routes, policy and SSE.
func TestAIWithAConfiguredEndpoint(t *testing.T) {
	fake := fakeoai.New(0)
	base, stop, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	srv := apptest.Start(t, map[string]string{"OPENAI_BASE_URL": base, "OPENAI_API_KEY": "sk-teste", "OPENAI_MODEL": "gpt-teste", "TRIAL_LIMITS": "ai_consultations=2"})
	c, _ := srv.SignedIn(t, "ia@exemplo.com.br")
	// What the confirmation e-mail promises is what the server applies.
	if p := srv.App.Engagement.Subscriptions.TrialPromise(); !strings.Contains(p, "até 2 consultas à VetClube IA por dia") {
		t.Fatalf("trial promise %q", p)
	}

	res := c.Do("GET", "/api/ai/status", nil)
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"mode":"live"`) || !strings.Contains(string(res.Body), `"model":"gpt-teste"`) {
		t.Fatalf("status %d %s", res.Status, res.Body)
	}
	csp := res.Header.Get("Content-Security-Policy")
	origin := strings.TrimSuffix(strings.TrimSuffix(base, "/v1/"), "/")
	if !strings.Contains(cspConnect(csp), origin) {
		t.Fatalf("connect-src without %s: %s", origin, csp)
	}
	if r := c.Do("POST", "/api/ai/disclaimer", map[string]any{}); r.Status != http.StatusOK {
		t.Fatalf("disclaimer %d %s", r.Status, r.Body)
	}
	var conv struct{ ID string }
	c.Do("POST", "/api/ai/conversations", map[string]any{}).JSON(t, &conv)
	for i := 0; i < 2; i++ {
		r := c.Do("POST", "/api/ai/conversations/"+conv.ID+"/messages", map[string]any{"content": "Pergunta"})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "event: done") {
			t.Fatalf("ask %d: %d %s", i, r.Status, r.Body)
		}
	}
	r := c.Do("POST", "/api/ai/conversations/"+conv.ID+"/messages", map[string]any{"content": "Terceira"})
	if r.Status != http.StatusTooManyRequests || !strings.Contains(string(r.Body), "premium_invitation") || !strings.Contains(r.ErrorMessage(), "2 consultas diárias") {
		t.Fatalf("limit: %d %s", r.Status, r.Body)
	}
	var lim struct {
		Allowed bool
		Current int
		Status  string
	}
	c.Do("GET", "/api/subscription/limits/ai_consultations", nil).JSON(t, &lim)
	if lim.Allowed || lim.Current != 2 || lim.Status != "limit_reached" {
		t.Fatalf("check_trial_limits %+v", lim)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 || reqs[0].Model != "gpt-teste" {
		t.Fatalf("upstream requests %+v", reqs)
	}
	// Another member cannot read it.
	other, _ := srv.SignedIn(t, "outra@exemplo.com.br")
	if r := other.Do("GET", "/api/ai/conversations/"+conv.ID, nil); r.Status != http.StatusNotFound {
		t.Fatalf("another member: %d", r.Status)
	}
}

// Closing the answer's stream is 'Parar': the upstream connection closes
// within a second and the partial answer is stored as stopped.
func TestClosingTheStreamStopsUpstream(t *testing.T) {
	fake := fakeoai.New(0)
	base, stop, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	srv := apptest.Start(t, map[string]string{"OPENAI_BASE_URL": base})
	c, _ := srv.SignedIn(t, "parar@exemplo.com.br")
	c.Do("POST", "/api/ai/disclaimer", map[string]any{})
	var conv struct{ ID string }
	c.Do("POST", "/api/ai/conversations", map[string]any{}).JSON(t, &conv)
	words := make([]string, 300)
	for i := range words {
		words[i] = " palavra"
	}
	fake.Push(fakeoai.Script{Chunks: words, ChunkDelay: 20 * time.Millisecond})

	req, _ := http.NewRequest("POST", c.URLFor("/api/ai/conversations/"+conv.ID+"/messages"), bytes.NewBufferString(`{"content":"Explique longamente"}`))
	req.Header.Set("Content-Type", "application/json")
	u, _ := url.Parse(srv.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == "vc_csrf" {
			req.Header.Set("X-CSRF-Token", ck.Value)
		}
	}
	res, err := c.HTTP.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("ask: %v %v", err, res)
	}
	sc := bufio.NewScanner(res.Body)
	deltas := 0
	for deltas < 5 && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event: delta") {
			deltas++
		}
	}
	closed := time.Now()
	res.Body.Close() // 'Parar'
	select {
	case <-fake.Gone():
		if d := time.Since(closed); d > time.Second {
			t.Fatalf("upstream closed %v after Parar", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the upstream connection stayed open")
	}
	var got struct {
		Messages []struct{ Role, Status, Content string }
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		c.Do("GET", "/api/ai/conversations/"+conv.ID, nil).JSON(t, &got)
		if len(got.Messages) == 2 && got.Messages[1].Status != "streaming" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(got.Messages) != 2 || got.Messages[1].Status != "stopped" || !strings.Contains(got.Messages[1].Content, "palavra") ||
		strings.Count(got.Messages[1].Content, "palavra") >= 300 {
		t.Fatalf("stored answer %+v", got.Messages)
	}
}

func cspConnect(csp string) string {
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "connect-src ") {
			return d
		}
	}
	return ""
}
