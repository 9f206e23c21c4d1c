package pluginhost_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/core/toolfiles"
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

// A plugin reads and deletes, through the host API, only the files the
// signed-in member uploaded to that plugin.
func TestPluginReadsOnlyItsMembersFiles(t *testing.T) {
	dbURL := pgtest.NewURL(t)
	pool, err := postgres.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	disk, err := storage.NewDisk(t.TempDir(), "/never/")
	if err != nil {
		t.Fatal(err)
	}
	files := toolfiles.New(pool, toolfiles.Options{Store: disk})
	dir := install(t, "fixture")
	installAs(t, dir, "fixture", "fixture-two")
	h := startOn(t, dbURL, dir, pluginhost.Options{Files: files})
	ana, bia := h.newUser(t), h.newUser(t)
	ctx := context.Background()
	doc := []byte("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n")
	f, err := files.Upload(ctx, "fixture", ana.UserID, "exame.pdf", doc)
	if err != nil {
		t.Fatal(err)
	}
	// Big files cross the broker (gRPC's default message limit is 4 MB).
	big := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 9<<20)...)
	big = append(big, []byte("\n%%EOF\n")...)
	bf, err := files.Upload(ctx, "fixture", ana.UserID, "grande.pdf", big)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ID, Kind, Name, Head string
		Len                  int
	}
	res := h.call(ana, "GET", "/api/tools/fixture/file?id="+f.ID, nil)
	res.decode(t, &got)
	if res.Status != 200 || got.Kind != "pdf" || got.Name != "exame.pdf" || got.Head != "%PDF-1.4" || got.Len != len(doc) {
		t.Fatalf("own file: %d %s", res.Status, res.Body)
	}
	res = h.call(ana, "GET", "/api/tools/fixture/file?id="+bf.ID, nil)
	res.decode(t, &got)
	if res.Status != 200 || got.Len != len(big) {
		t.Fatalf("big file: %d %.200s", res.Status, res.Body)
	}
	for _, tc := range []struct {
		who  core.Principal
		path string
	}{
		{bia, "/api/tools/fixture/file?id=" + f.ID},     // another member
		{ana, "/api/tools/fixture-two/file?id=" + f.ID}, // another plugin
		{ana, "/api/tools/fixture/file?id=../../x"},
	} {
		if res := h.call(tc.who, "GET", tc.path, nil); res.Status != 404 {
			t.Errorf("%s: %d %s", tc.path, res.Status, res.Body)
		}
	}
	if res := h.call(bia, "DELETE", "/api/tools/fixture/file?id="+f.ID, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"deleted":false`) {
		t.Errorf("another member deleted: %s", res.Body)
	}
	if res := h.call(ana, "DELETE", "/api/tools/fixture/file?id="+f.ID, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"deleted":true`) {
		t.Errorf("owner delete: %s", res.Body)
	}
	if _, _, err := files.Read(ctx, "fixture", ana.UserID, f.ID); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("deleted file still read: %v", err)
	}
}
