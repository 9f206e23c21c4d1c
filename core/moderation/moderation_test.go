package moderation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/moderation"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

var jsonUnmarshal = json.Unmarshal

type env struct {
	t   *testing.T
	srv *apptest.Server
	ctx context.Context
}

func start(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, nil)
	if _, ok := srv.App.Content.Registry.Get(community.TypeID); !ok {
		if err := srv.App.Content.Registry.Register(content.Type{ID: community.TypeID, Singular: "Publicação", Plural: "Publicações",
			Workflow: content.WorkflowPublishOnCreate}); err != nil {
			t.Fatal(err)
		}
	}
	return &env{t: t, srv: srv, ctx: context.Background()}
}

func (e *env) user(email string, roles ...string) (*apptest.Client, string) {
	return e.srv.SignedIn(e.t, email, roles...)
}

// veteran is a member whose account is a month old with a confirmed
// e-mail: their reports weigh fully.
func (e *env) veteran(email string) (*apptest.Client, string) {
	e.t.Helper()
	c, id := e.user(email)
	if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE users SET created_at = now() - interval '30 days', email_confirmed_at = now() - interval '30 days'
		WHERE id = $1`, id); err != nil {
		e.t.Fatal(err)
	}
	return c, id
}

func (e *env) post(author, text string) string {
	e.t.Helper()
	it, _, err := e.srv.App.Content.Store.Create(e.ctx, content.Actor{UserID: author, Channel: content.ChannelAPI},
		community.TypeID, content.Input{Title: text}, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return it.ID
}

func (e *env) comment(author, post, text string) string {
	e.t.Helper()
	c, _, err := e.srv.App.Content.Engagement.CreateComment(e.ctx, author, post, engagement.NewComment{Content: text})
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

// visible evaluates moderation.VisibleSQL for one target.
func (e *env) visible(targetType, id string) bool {
	e.t.Helper()
	var v bool
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT `+moderation.VisibleSQL(targetType, "$1::uuid"), id).Scan(&v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *env) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.srv.App.Pool.QueryRow(e.ctx, sql, args...).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func report(c *apptest.Client, targetType, id, reason string) (int, bool, string) {
	res := c.Do("POST", "/api/reports", map[string]string{"target_type": targetType, "target_id": id, "reason": reason})
	var out struct {
		Hidden bool `json:"hidden"`
	}
	if res.Status < 300 {
		_ = jsonUnmarshal(res.Body, &out)
	}
	return res.Status, out.Hidden, res.ErrorMessage()
}

func TestThreeDistinctReportersHideATarget(t *testing.T) {
	e := start(t)
	_, ana := e.user("ana@example.com")
	_, bruno := e.user("bruno@example.com")
	r1, _ := e.veteran("r1@example.com")
	r2, _ := e.veteran("r2@example.com")
	r3, _ := e.veteran("r3@example.com")
	r4, _ := e.veteran("r4@example.com")
	post := e.post(ana, "Caso clínico")
	comment := e.comment(bruno, post, "Comentário ofensivo")

	if st, _, msg := report(r1, "comment", comment, "  "); st != http.StatusUnprocessableEntity || msg != "Informe o motivo da denúncia" {
		t.Fatalf("no reason: %d %q", st, msg)
	}
	if st, _, _ := report(r1, "video", comment, "spam"); st != http.StatusUnprocessableEntity {
		t.Fatalf("bad type: %d", st)
	}
	if st, _, _ := report(r1, "comment", post, "spam"); st != http.StatusNotFound {
		t.Fatalf("a post's id as a comment: %d", st)
	}
	if st, hidden, _ := report(r1, "comment", comment, "Ofensivo"); st != http.StatusCreated || hidden {
		t.Fatalf("first report: %d %v", st, hidden)
	}
	// The same reporter again counts nothing.
	if st, hidden, _ := report(r1, "comment", comment, "Ofensivo de novo"); st != http.StatusOK || hidden {
		t.Fatalf("repeated report: %d %v", st, hidden)
	}
	if st, hidden, _ := report(r2, "comment", comment, "Desrespeitoso"); st != http.StatusCreated || hidden {
		t.Fatalf("second reporter: %d %v", st, hidden)
	}
	if !e.visible("comment", comment) {
		t.Fatal("hidden after 2 reporters")
	}
	list, err := e.srv.App.Content.Engagement.Comments(e.ctx, ana, post)
	if err != nil || len(list) != 1 {
		t.Fatalf("comments after 2 reports: %v %v", list, err)
	}
	if st, hidden, _ := report(r3, "comment", comment, "Spam"); st != http.StatusCreated || !hidden {
		t.Fatalf("third reporter: %d %v", st, hidden)
	}
	if e.visible("comment", comment) {
		t.Fatal("visible after 3 reporters")
	}
	if list, _ := e.srv.App.Content.Engagement.Comments(e.ctx, ana, post); len(list) != 0 {
		t.Fatalf("hidden comment listed: %+v", list)
	}
	if st, hidden, _ := report(r4, "comment", comment, "Spam"); st != http.StatusCreated || !hidden {
		t.Fatalf("fourth reporter: %d %v", st, hidden)
	}
	if n := e.count(`SELECT report_count FROM moderation_targets WHERE target_id = $1`, comment); n != 4 {
		t.Fatalf("report_count %d", n)
	}
	if n := e.count(`SELECT count(*) FROM moderation_actions WHERE target_id = $1 AND action = 'hide' AND actor_id IS NULL`, comment); n != 1 {
		t.Fatalf("%d hide lines", n)
	}
	// The author heard of it once.
	if n := e.count(`SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'other' AND related_comment_id = $2
		AND message LIKE 'Seu comentário foi ocultado%'`, bruno, comment); n != 1 {
		t.Fatalf("author told %d times", n)
	}

	// Posts work the same way.
	for i, c := range []*apptest.Client{r1, r2, r3} {
		if st, hidden, _ := report(c, "post", post, "Fake news"); st != http.StatusCreated || hidden != (i == 2) {
			t.Fatalf("post report %d: %d %v", i, st, hidden)
		}
	}
	if e.visible("post", post) || !e.visible("post", comment) {
		t.Fatal("post visibility")
	}
	if _, err := e.srv.App.Content.Engagement.Comments(e.ctx, ana, post); err == nil {
		t.Fatal("comments of a hidden post listed")
	}
}

func TestConcurrentReportsHideOnce(t *testing.T) {
	e := start(t)
	_, ana := e.user("ana@example.com")
	post := e.post(ana, "Caso")
	var reporters []*apptest.Client
	for i := range 8 {
		c, _ := e.veteran(fmt.Sprintf("r%d@example.com", i))
		reporters = append(reporters, c)
	}
	var wg sync.WaitGroup
	for _, c := range reporters {
		for range 2 { // every reporter twice at once
			wg.Add(1)
			go func() {
				defer wg.Done()
				if st, _, msg := report(c, "post", post, "Spam"); st != http.StatusCreated && st != http.StatusOK {
					t.Errorf("report: %d %s", st, msg)
				}
			}()
		}
	}
	wg.Wait()
	if n := e.count(`SELECT report_count FROM moderation_targets WHERE target_id = $1`, post); n != 8 {
		t.Fatalf("report_count %d, want 8", n)
	}
	if n := e.count(`SELECT count(*) FROM moderation_reports WHERE target_id = $1`, post); n != 8 {
		t.Fatalf("%d reports", n)
	}
	if n := e.count(`SELECT count(*) FROM moderation_actions WHERE target_id = $1`, post); n != 1 {
		t.Fatalf("%d log lines", n)
	}
	if n := e.count(`SELECT count(*) FROM notifications WHERE user_id = $1 AND type = 'other'`, ana); n != 1 {
		t.Fatalf("author told %d times", n)
	}
}

func act(c *apptest.Client, targetType, id, action string, body any) (int, moderation.Row, string) {
	res := c.Do("POST", "/api/admin/moderation/"+targetType+"/"+id+"/"+action, body)
	var row moderation.Row
	if res.Status == http.StatusOK {
		_ = jsonUnmarshal(res.Body, &row)
	}
	return res.Status, row, res.ErrorMessage()
}

func TestModeratorDecisions(t *testing.T) {
	e := start(t)
	anaC, ana := e.user("ana@example.com")
	_, bruno := e.user("bruno@example.com")
	mod, modID := e.user("moderadora@example.com", core.RoleModerador)
	boss, _ := e.user("chefe@example.com", "super_admin")
	editor, _ := e.user("editora@example.com", "editor")
	post := e.post(ana, "Publicação polêmica")
	notices := func() []string {
		rows, err := e.srv.App.Pool.Query(e.ctx, `SELECT title FROM notifications WHERE user_id = $1 AND type = 'other' ORDER BY created_at, id`, ana)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			out = append(out, s)
		}
		return out
	}

	// Members and editors may not moderate.
	for _, c := range []*apptest.Client{anaC, editor} {
		if st, _, _ := act(c, "post", post, "hide", nil); st != http.StatusForbidden {
			t.Fatalf("non-moderator hide: %d", st)
		}
		if res := c.Do("GET", "/api/admin/moderation", nil); res.Status != http.StatusForbidden {
			t.Fatalf("non-moderator queue: %d", res.Status)
		}
	}
	// A moderator hides at once, without reports.
	st, row, msg := act(mod, "post", post, "hide", map[string]string{"reason": "Conteúdo enganoso"})
	if st != http.StatusOK || row.State != moderation.StateHidden || row.ID != "post:"+post || row.Author == nil || row.Author.ID != ana ||
		row.Excerpt != "Publicação polêmica" || len(row.Log) != 1 || row.Log[0].Actor == nil || row.Log[0].Actor.ID != modID ||
		row.Log[0].Reason != "Conteúdo enganoso" || row.AuthorHistory.Posts != 1 {
		t.Fatalf("hide: %d %q %+v", st, msg, row)
	}
	if e.visible("post", post) {
		t.Fatal("hidden post visible")
	}
	// Repeating the current state changes nothing.
	if st, row, _ := act(mod, "post", post, "hide", nil); st != http.StatusOK || len(row.Log) != 1 {
		t.Fatalf("hide again: %d %+v", st, row)
	}
	if st, row, _ := act(boss, "post", post, "restore", nil); st != http.StatusOK || row.State != moderation.StatePublished || len(row.Log) != 2 {
		t.Fatalf("restore: %d %+v", st, row)
	}
	if !e.visible("post", post) {
		t.Fatal("restored post hidden")
	}
	// After a moderator's restore, reports no longer hide it.
	for i := range 2 {
		c, _ := e.veteran(fmt.Sprintf("r%d@example.com", i))
		report(c, "post", post, "Spam")
	}
	if !e.visible("post", post) {
		t.Fatal("two reports after a restore hid the post")
	}
	if st, row, _ := act(mod, "post", post, "remove", map[string]string{"reason": "Desinformação"}); st != http.StatusOK || row.State != moderation.StateRemoved || row.Link != "" {
		t.Fatalf("remove: %d %+v", st, row)
	}
	if st, _, msg := act(mod, "post", post, "restore", nil); st != http.StatusConflict || msg != moderation.MsgBadTransition {
		t.Fatalf("restore a removed post: %d %q", st, msg)
	}
	if st, _, _ := act(mod, "post", post, "remove", nil); st != http.StatusOK {
		t.Fatalf("remove again: %d", st)
	}
	if st, _, _ := act(mod, "post", post, "approve", nil); st != http.StatusUnprocessableEntity {
		t.Fatalf("unknown action: %d", st)
	}
	if got := notices(); !slices.Equal(got, []string{"Conteúdo ocultado", "Conteúdo restaurado", "Conteúdo removido"}) {
		t.Fatalf("author notices %v", got)
	}
	if n := e.count(`SELECT count(*) FROM notifications WHERE user_id = $1 AND message LIKE '%Motivo: Desinformação'`, ana); n != 1 {
		t.Fatalf("removal reason not told (%d)", n)
	}

	// Removing a comment deletes it, and the post's count follows; the row
	// keeps what it said.
	other := e.post(ana, "Outra")
	comment := e.comment(bruno, other, "Texto a remover")
	if n := e.count(`SELECT comments FROM engagement_counters WHERE item_id = $1`, other); n != 1 {
		t.Fatalf("counter %d", n)
	}
	st, row, msg = act(mod, "comment", comment, "remove", nil)
	if st != http.StatusOK || row.State != moderation.StateRemoved || row.Excerpt != "Texto a remover" || row.ItemID == nil || *row.ItemID != other {
		t.Fatalf("remove comment: %d %q %+v", st, msg, row)
	}
	if n := e.count(`SELECT count(*) FROM engagement_comments WHERE id = $1`, comment); n != 0 {
		t.Fatal("removed comment still stored")
	}
	if n := e.count(`SELECT comments FROM engagement_counters WHERE item_id = $1`, other); n != 0 {
		t.Fatalf("counter %d after removal", n)
	}
	if n := e.count(`SELECT count(*) FROM notifications WHERE user_id = $1 AND message LIKE 'Seu comentário foi removido%'`, bruno); n != 1 {
		t.Fatalf("comment author told %d times", n)
	}

	// The queue: ra-data-simple-rest and the contract's parameters.
	res := mod.Do("GET", `/api/admin/moderation?filter={"state":"removido"}&range=[0,9]&sort=["updated_at","DESC"]`, nil)
	var rows []moderation.Row
	_ = jsonUnmarshal(res.Body, &rows)
	if res.Status != http.StatusOK || res.Header.Get("Content-Range") != "moderation 0-1/2" || len(rows) != 2 || rows[0].ID != "comment:"+comment {
		t.Fatalf("queue: %d %q %s", res.Status, res.Header.Get("Content-Range"), res.Body)
	}
	if rows[0].AuthorHistory.Removed != 1 || rows[1].AuthorHistory.Removed != 1 || rows[1].AuthorHistory.Posts != 2 || len(rows[1].Reports) != 2 ||
		rows[1].Reports[0].Reporter == nil || rows[1].Reports[0].Reason != "Spam" || rows[1].ReportCount != 2 {
		t.Fatalf("queue rows %+v", rows)
	}
	res = boss.Do("GET", "/api/admin/moderation?state=oculto&_start=0&_end=10", nil)
	if res.Status != http.StatusOK || res.Header.Get("Content-Range") != "moderation 0-0/0" || strings.TrimSpace(string(res.Body)) != "[]" {
		t.Fatalf("hidden queue: %d %q %s", res.Status, res.Header.Get("Content-Range"), res.Body)
	}
	if res := mod.Do("GET", "/api/admin/moderation?state=apagado", nil); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("bad state: %d", res.Status)
	}
	res = mod.Do("GET", "/api/admin/moderation/comment:"+comment, nil)
	var one moderation.Row
	_ = jsonUnmarshal(res.Body, &one)
	if res.Status != http.StatusOK || one.ID != "comment:"+comment || len(one.Log) != 1 {
		t.Fatalf("one row: %d %s", res.Status, res.Body)
	}

	// The log is append-only and the state graph is enforced in SQL.
	if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE moderation_actions SET reason = 'x'`); err == nil {
		t.Fatal("log line updated")
	}
	if _, err := e.srv.App.Pool.Exec(e.ctx, `DELETE FROM moderation_actions`); err == nil {
		t.Fatal("log line deleted")
	}
	if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE moderation_targets SET state = 'publicado' WHERE target_id = $1`, post); err == nil {
		t.Fatal("removido → publicado accepted")
	}
	// Deleting a moderator's account keeps the log (actor becomes null).
	if _, err := e.srv.App.Pool.Exec(e.ctx, `DELETE FROM users WHERE id = $1`, modID); err != nil {
		t.Fatalf("deleting a moderator: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM moderation_actions WHERE actor_id IS NULL`); n != 3 {
		t.Fatalf("%d anonymous log lines", n)
	}
}

// TestFreshAccountsCannotHide: accounts made a moment ago (or unconfirmed)
// weigh nothing, however many; reports then stay in the queue.
func TestFreshAccountsCannotHide(t *testing.T) {
	e := start(t)
	_, ana := e.user("ana@example.com")
	post := e.post(ana, "Caso clínico")
	for i := range 3 {
		c, _ := e.user(fmt.Sprintf("novo%d@example.com", i))
		if st, hidden, msg := report(c, "post", post, "Spam"); st != http.StatusCreated || hidden {
			t.Fatalf("fresh report %d: %d %v %s", i, st, hidden, msg)
		}
	}
	if !e.visible("post", post) {
		t.Fatal("3 accounts made in a second hid a post")
	}
	// Old but unconfirmed accounts neither.
	for i := range 3 {
		_, id := e.veteran(fmt.Sprintf("antigo%d@example.com", i))
		if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE users SET email_confirmed_at = NULL WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		c, _ := e.srv.SignedIn(t, fmt.Sprintf("antigo%d@example.com", i))
		report(c, "post", post, "Spam")
	}
	if !e.visible("post", post) {
		t.Fatal("unconfirmed accounts hid a post")
	}
	if n := e.count(`SELECT open_reports FROM moderation_targets WHERE target_id = $1`, post); n < 3 {
		t.Fatalf("reports not kept for the queue: %d", n)
	}
}

// TestRestoredStaysUpUntilAModeratorHides: after a moderator restores a
// target, any number of reports leave it up; a moderator still hides it.
func TestRestoredStaysUpUntilAModeratorHides(t *testing.T) {
	e := start(t)
	_, ana := e.user("ana@example.com")
	mod, _ := e.user("moderadora@example.com", core.RoleModerador)
	post := e.post(ana, "Caso")
	for i := range 3 {
		c, _ := e.veteran(fmt.Sprintf("a%d@example.com", i))
		report(c, "post", post, "Spam")
	}
	if e.visible("post", post) {
		t.Fatal("3 weighty reporters did not hide the post")
	}
	if st, _, msg := act(mod, "post", post, "restore", nil); st != http.StatusOK {
		t.Fatalf("restore: %d %s", st, msg)
	}
	for i := range 4 {
		c, _ := e.veteran(fmt.Sprintf("b%d@example.com", i))
		if st, hidden, _ := report(c, "post", post, "Spam"); st != http.StatusCreated || hidden {
			t.Fatalf("report after restore %d: %d %v", i, st, hidden)
		}
	}
	if !e.visible("post", post) {
		t.Fatal("reports hid a post a moderator restored")
	}
	if st, row, _ := act(mod, "post", post, "hide", nil); st != http.StatusOK || row.State != moderation.StateHidden {
		t.Fatalf("a moderator hides it: %d %+v", st, row)
	}
}

// TestReporterAccuracyAndRateLimit: reporters whose reports moderators
// rejected weigh less, so three of them no longer hide; and a member's
// reports are rate limited with a pt-BR 429.
func TestReporterAccuracyAndRateLimit(t *testing.T) {
	e := start(t)
	_, ana := e.user("ana@example.com")
	mod, _ := e.user("moderadora@example.com", core.RoleModerador)
	var crowd []*apptest.Client
	for i := range 3 {
		c, _ := e.veteran(fmt.Sprintf("c%d@example.com", i))
		crowd = append(crowd, c)
	}
	first := e.post(ana, "Primeira")
	for _, c := range crowd {
		report(c, "post", first, "Spam")
	}
	if _, _, msg := act(mod, "post", first, "restore", map[string]string{"reason": "Denúncia sem fundamento"}); msg != "" {
		t.Fatalf("restore: %s", msg)
	}
	second := e.post(ana, "Segunda")
	for _, c := range crowd {
		report(c, "post", second, "Spam")
	}
	if !e.visible("post", second) {
		t.Fatal("reporters whose last reports were rejected still hide at full weight")
	}
	if w := moderation.ReportWeight(moderation.Reporter{CreatedAt: time.Now().Add(-30 * 24 * time.Hour), Confirmed: true}, time.Now(), 0, 1); w != 0.5 {
		t.Errorf("weight after one rejected report: %v", w)
	}
	if w := moderation.ReportWeight(moderation.Reporter{CreatedAt: time.Now().Add(-3 * 24 * time.Hour), Confirmed: true}, time.Now(), 0, 0); w != 0.5 {
		t.Errorf("weight of a 3-day-old account: %v", w)
	}

	spammer, _ := e.veteran("spammer@example.com")
	var last int
	var msg string
	for i := range moderation.DefaultReportRule.Max + 1 {
		last, _, msg = report(spammer, "post", e.post(ana, fmt.Sprintf("Post %d", i)), "Spam")
	}
	if last != http.StatusTooManyRequests || msg != moderation.MsgReportRate {
		t.Fatalf("report %d: %d %q, want 429", moderation.DefaultReportRule.Max+1, last, msg)
	}
}

// TestReportCategoriesAndReporterFeed: a category replaces the free text
// (required only for "outro"), the queue shows it, and the reported post
// leaves the reporter's own feed only.
func TestReportCategoriesAndReporterFeed(t *testing.T) {
	e := start(t)
	anaC, ana := e.user("ana@example.com")
	bia, _ := e.user("bia@example.com")
	mod, _ := e.user("moderadora@example.com", core.RoleModerador)
	post := e.post(ana, "Caso com foto")
	do := func(category, reason string) (int, string) {
		res := bia.Do("POST", "/api/reports", map[string]string{"target_type": "post", "target_id": post, "category": category, "reason": reason})
		return res.Status, res.ErrorMessage()
	}
	if st, msg := do("bobagem", ""); st != http.StatusUnprocessableEntity || msg != moderation.MsgBadCategory {
		t.Fatalf("unknown category: %d %q", st, msg)
	}
	if st, msg := do("outro", " "); st != http.StatusUnprocessableEntity || msg != moderation.MsgReasonRequired {
		t.Fatalf("'outro' without text: %d %q", st, msg)
	}
	feedHas := func(c *apptest.Client) bool {
		res := c.Do("GET", "/api/community/feed", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("feed: %d %s", res.Status, res.Body)
		}
		return strings.Contains(string(res.Body), post)
	}
	if !feedHas(bia) {
		t.Fatal("the post is not in the feed before the report (the test would prove nothing)")
	}
	if st, msg := do("desinformacao", ""); st != http.StatusCreated {
		t.Fatalf("category only: %d %q", st, msg)
	}
	if feedHas(bia) {
		t.Error("the reported post is still in the reporter's feed")
	}
	if !feedHas(anaC) {
		t.Error("the post left another member's feed")
	}
	res := mod.Do("GET", "/api/admin/moderation/post:"+post, nil)
	var row moderation.Row
	_ = jsonUnmarshal(res.Body, &row)
	if len(row.Reports) != 1 || row.Reports[0].Category != "desinformacao" || row.Reports[0].Reason != "" {
		t.Fatalf("queue row: %d %s", res.Status, res.Body)
	}
}

func TestVisibleSQL(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	ids := map[string]string{}
	for _, state := range []string{"publicado", "oculto", "removido"} {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO moderation_targets (target_type, target_id, state) VALUES ('post', gen_random_uuid(), $1)
			RETURNING target_id::text`, state).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[state] = id
	}
	ids["sem registro"] = "5f0c1a64-3b0e-4a56-9d59-0e3d7f6a2b11"
	for name, id := range ids {
		var post, comment bool
		err := pool.QueryRow(ctx, `SELECT `+moderation.VisibleSQL("post", "t.id")+`, `+moderation.VisibleSQL("comment", "t.id")+`
			FROM (SELECT $1::uuid AS id) t`, id).Scan(&post, &comment)
		if err != nil {
			t.Fatal(err)
		}
		if want := name == "publicado" || name == "sem registro"; post != want || !comment {
			t.Fatalf("%s: post visible %v, comment visible %v", name, post, comment)
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("unknown target type accepted")
		}
	}()
	moderation.VisibleSQL("post' OR true --", "t.id")
}
