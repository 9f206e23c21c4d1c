package pluginhost_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// A plugin checks a trial limit it declared against the real subscription
// service: within the limit it may, at the limit it gets the pt-BR reason
// (403 with "upgrade"), Premium is unlimited, and a name it did not declare
// is refused even when TRIAL_LIMITS configures it.
func TestPluginChecksDeclaredTrialLimit(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	subs := subscriptions.New(h.pool, subscriptions.Options{TrialDuration: 7 * 24 * time.Hour, Limits: map[string]int{"patients": 2, "simulados": 3}})
	calls := 0
	h.m.SetLimiter(pluginhost.LimiterFunc(func(ctx context.Context, userID, name string, used int) (pluginhost.LimitAnswer, error) {
		calls++
		c, err := subs.CheckCount(ctx, userID, name, used)
		return pluginhost.LimitAnswer{Allowed: c.Allowed, Limit: c.Limit, Used: c.Current}, err
	}))
	trial := h.newUser(t)
	var lim struct {
		Allowed     bool
		Limit, Used int
		Reason      string
	}
	res := h.call(trial, "POST", "/api/tools/fixture/limit?name=patients&used=1", nil)
	res.decode(t, &lim)
	if res.Status != 200 || !lim.Allowed || lim.Limit != 2 || lim.Used != 1 || lim.Reason != "" {
		t.Fatalf("within the limit: %d %s", res.Status, res.Body)
	}
	res = h.call(trial, "POST", "/api/tools/fixture/limit?name=patients&used=2", nil)
	var refused struct {
		Error struct {
			Code    string
			Message string
			Upgrade bool
			Limit   struct {
				Name        string
				Limit, Used int
			}
		}
	}
	res.decode(t, &refused)
	want := "Você atingiu o limite de 2 pacientes do teste gratuito. Assine o Premium para ter pacientes ilimitados."
	if res.Status != 403 || refused.Error.Message != want || !refused.Error.Upgrade || refused.Error.Code != "forbidden" || refused.Error.Limit.Limit != 2 {
		t.Fatalf("at the limit: %d %s", res.Status, res.Body)
	}

	premium := h.newUser(t)
	if _, err := h.pool.Exec(context.Background(), `INSERT INTO subscribers (user_id, subscription_status, subscription_tier) VALUES ($1, 'active', 'premium_monthly')`, premium.UserID); err != nil {
		t.Fatal(err)
	}
	res = h.call(premium, "POST", "/api/tools/fixture/limit?name=patients&used=5000", nil)
	res.decode(t, &lim)
	if res.Status != 200 || !lim.Allowed || lim.Limit != -1 {
		t.Fatalf("premium: %d %s", res.Status, res.Body)
	}

	// Undeclared (though configured), unknown, negative: refused before the
	// subscription service is asked.
	before := calls
	for _, q := range []string{"name=simulados&used=0", "name=ai_consultations&used=0", "name=&used=0", "name=patients&used=-1"} {
		res = h.call(trial, "POST", "/api/tools/fixture/limit?"+q, nil)
		if res.Status != 500 || !(strings.Contains(res.message(), "not declared") || strings.Contains(res.message(), "must be between")) {
			t.Errorf("%s: %d %s", q, res.Status, res.Body)
		}
	}
	if calls != before {
		t.Errorf("refused names reached the limiter (%d calls)", calls-before)
	}
}

// A plugin's PDF download keeps its type and an attachment's
// Content-Disposition, with the file name reduced to safe characters; an
// inline or unreadable disposition is dropped.
func TestPluginDownloadHeaders(t *testing.T) {
	h := start(t, install(t, "fixture"), pluginhost.Options{})
	u := h.newUser(t)
	for _, tc := range []struct{ disposition, want string }{
		{`attachment; filename="prontuario-rex.pdf"`, `attachment; filename="prontuario-rex.pdf"`},
		{`attachment; filename="../../etc/passwd"`, `attachment; filename="etc-passwd"`},
		{`attachment; filename="a b;c=d\".pdf"`, `attachment; filename="a-b-c-d-.pdf"`},
		{`attachment; filename*=UTF-8''prontu%C3%A1rio.pdf`, `attachment; filename="prontu-rio.pdf"`},
		{`attachment`, `attachment`},
		{`inline; filename="x.pdf"`, ``},
		{`attachment; filename="x.pdf"; garbage`, ``},
	} {
		req := httptest.NewRequest("GET", "/api/tools/fixture/download?type=application%2Fpdf&disposition="+url.QueryEscape(tc.disposition), nil)
		req = req.WithContext(core.WithPrincipal(req.Context(), u))
		rec := httptest.NewRecorder()
		h.mux.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || rec.Header().Get("Content-Disposition") != tc.want {
			t.Errorf("%s: %d %q %q", tc.disposition, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Content-Disposition"))
		}
		if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("nosniff lost")
		}
	}
}
