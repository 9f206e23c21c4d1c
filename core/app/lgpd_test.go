package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
)

// lgpdMember is one member with data in every area the test can reach.
type lgpdMember struct {
	c          *apptest.Client
	id, email  string
	name       string
	post       string // the member's post id
	postText   string
	comment    string
	customerID string
}

func registerPosts(t *testing.T, srv *apptest.Server) {
	t.Helper()
	if _, ok := srv.App.Content.Registry.Get("posts"); ok {
		return
	}
	// The comunidade plugin's declaration, without starting the plugin.
	if err := srv.App.Content.Registry.Register(content.Type{ID: "posts", Singular: "Publicação", Plural: "Publicações",
		Workflow: content.WorkflowPublishOnCreate, Fields: []content.Field{
			{Name: "content", Label: "Texto", Kind: content.KindLongText, Searchable: true},
			{Name: "media", Label: "Imagens", Kind: content.KindTags}}}); err != nil {
		t.Fatal(err)
	}
}

// newLGPDMember signs up a member named after tag and gives them a post, a
// ledger entry, a notification, an AI conversation and a Stripe customer.
func newLGPDMember(t *testing.T, srv *apptest.Server, tag string) *lgpdMember {
	t.Helper()
	ctx := context.Background()
	email := "membro." + tag + "@exemplo.com.br"
	c, id := srv.SignedIn(t, email)
	m := &lgpdMember{c: c, id: id, email: email, name: tag + "nome " + tag + "sobrenome"}
	if res := c.Do("PUT", "/api/profile", map[string]any{"first_name": tag + "nome", "last_name": tag + "sobrenome"}); res.Status != http.StatusOK {
		t.Fatalf("profile %s: %d %s", tag, res.Status, res.Body)
	}
	m.postText = "Publicação exclusiva de " + tag
	res := c.Do("POST", "/api/community/posts", map[string]any{"content": m.postText})
	if res.Status != http.StatusCreated {
		t.Fatalf("post %s: %d %s", tag, res.Status, res.Body)
	}
	var post struct{ ID string }
	res.JSON(t, &post)
	m.post = post.ID
	if _, _, err := srv.App.Engagement.Points.Award(ctx, id, 25, points.KindPlugin, "teste-lgpd:"+tag, map[string]any{"origem": tag}); err != nil {
		t.Fatal(err)
	}
	if err := srv.App.Engagement.Notifications.NotifyLGPD(ctx, id, "teste-lgpd:"+tag, "Aviso de "+tag, "Mensagem de "+tag, "/"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.App.Pool.Exec(ctx, `INSERT INTO ai_conversations (user_id, title) VALUES ($1, $2)`, id, "Conversa IA de "+tag); err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.App.ToolSchedule.Schedule(ctx, "prontuario-vet", id, "vacina:"+tag, time.Now().Add(48*time.Hour), "Lembrete de "+tag, "", ""); err != nil {
		t.Fatal(err)
	}
	// A real customer at the local fake Stripe, as checkout would make it.
	base := srv.App.Billing.Config().APIBase
	req, _ := http.NewRequest("POST", base+"/v1/customers", strings.NewReader(url.Values{"email": {email}, "name": {m.name}}.Encode()))
	req.Header.Set("Authorization", "Bearer sk_test_fake")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cus struct{ ID string }
	_ = json.NewDecoder(hres.Body).Decode(&cus)
	hres.Body.Close()
	if cus.ID == "" {
		t.Fatalf("fake Stripe customer: %d", hres.StatusCode)
	}
	m.customerID = cus.ID
	if _, err := srv.App.Pool.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, $2)`, id, cus.ID); err != nil {
		t.Fatal(err)
	}
	return m
}

func (m *lgpdMember) commentOn(t *testing.T, postID, text string) {
	t.Helper()
	res := m.c.Do("POST", "/api/community/posts/"+postID+"/comments", map[string]any{"content": text})
	if res.Status != http.StatusCreated {
		t.Fatalf("comment: %d %s", res.Status, res.Body)
	}
	m.comment = text
}

func waitExport(t *testing.T, c *apptest.Client) lgpd.Request {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var ov lgpd.Overview
		res := c.Do("GET", "/api/me/data", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("GET /api/me/data: %d %s", res.Status, res.Body)
		}
		res.JSON(t, &ov)
		for _, r := range ov.Requests {
			if r.Kind == "export" && r.Status == lgpd.StatusReady {
				return r
			}
			if r.Kind == "export" && r.Status == lgpd.StatusError {
				t.Fatalf("export failed: %+v", r)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("export not ready in 30 s")
	return lgpd.Request{}
}

func TestLGPDExportHasEachAreaOfItsMemberOnly(t *testing.T) {
	srv := apptest.Start(t, nil)
	registerPosts(t, srv)
	a := newLGPDMember(t, srv, "alfa")
	b := newLGPDMember(t, srv, "beta")
	a.commentOn(t, b.post, "Comentário de alfa na publicação de beta")
	b.commentOn(t, a.post, "Comentário de beta na publicação de alfa")

	res := a.c.Do("POST", "/api/me/data-exports", nil)
	if res.Status != http.StatusAccepted {
		t.Fatalf("request export: %d %s", res.Status, res.Body)
	}
	// One a day: the second request is refused in pt-BR.
	if res := a.c.Do("POST", "/api/me/data-exports", nil); res.Status != http.StatusTooManyRequests || res.ErrorMessage() != lgpd.MsgExportToday {
		t.Fatalf("second export the same day: %d %s", res.Status, res.Body)
	}
	ready := waitExport(t, a.c)
	if ready.DownloadURL == "" || ready.ExpiresAt == nil || time.Until(*ready.ExpiresAt) < 6*24*time.Hour {
		t.Fatalf("ready export: %+v", ready)
	}
	// The e-mail carries the link.
	msgs, err := srv.App.Mailbox.List(context.Background(), a.email, 50)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range msgs {
		if strings.Contains(m.Text, ready.DownloadURL) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no e-mail with the link %s among %d messages", ready.DownloadURL, len(msgs))
	}

	// Someone else's export, an unknown id and a malformed one: 404.
	for _, path := range []string{ready.DownloadURL, "/api/me/data-exports/00000000-0000-4000-8000-000000000000/download",
		"/api/me/data-exports/nao-e-um-id/download"} {
		if res := b.c.Do("GET", path, nil); res.Status != http.StatusNotFound {
			t.Fatalf("B downloads %s: %d", path, res.Status)
		}
	}
	if res := srv.Client(t).Do("GET", ready.DownloadURL, nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor downloads: %d", res.Status)
	}

	res = a.c.Do("GET", ready.DownloadURL, nil)
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("download: %d %s", res.Status, res.Header.Get("Content-Type"))
	}
	zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	// Each area holds A's rows, and none of B's.
	want := map[string]string{
		"conta.json":                     a.email,
		"perfil.json":                    "alfanome",
		"publicacoes.json":               a.postText,
		"comentarios_e_interacoes.json":  a.comment,
		"vetcoins.json":                  "teste-lgpd:alfa",
		"notificacoes.json":              "Aviso de alfa",
		"conversas_ia.json":              "Conversa IA de alfa",
		"lembretes_das_ferramentas.json": "Lembrete de alfa",
		"pagamentos.json":                a.customerID,
	}
	for name, s := range want {
		body, ok := files[name]
		if !ok {
			t.Errorf("the export has no %s (files: %v)", name, keys(files))
			continue
		}
		if !strings.Contains(body, s) {
			t.Errorf("%s lacks %q: %s", name, s, body)
		}
	}
	for name, body := range files {
		if name == "notificacoes.json" {
			// What A was told may name B ("betanome comentou…"): A's own notice.
			body = strings.ReplaceAll(body, "betanome betasobrenome", "")
		}
		for _, other := range []string{b.id, b.email, "betanome", b.postText, b.comment, "teste-lgpd:beta", "Conversa IA de beta", b.customerID} {
			if strings.Contains(body, other) {
				t.Errorf("%s holds B's %q", name, other)
			}
		}
	}
	for _, name := range []string{"LEIA-ME.json", "cursos_e_certificados.json", "conexoes.json", "assinatura.json", "ferramentas/sem-exportacao.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("the export has no %s (files: %v)", name, keys(files))
		}
	}
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ledgerBalances checks that every member's total equals their ledger and
// answers the ledger's sum.
func ledgerBalances(t *testing.T, pool *pgxpool.Pool) int64 {
	t.Helper()
	var bad int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM user_total_points t
		WHERE t.total_points <> (SELECT coalesce(sum(amount), 0) FROM points_ledger l WHERE l.user_id = t.user_id)`).Scan(&bad); err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Fatalf("%d members' totals differ from their ledger", bad)
	}
	var sum int64
	if err := pool.QueryRow(context.Background(), `SELECT coalesce(sum(amount), 0) FROM points_ledger`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// traces walks every column of every table of every schema that can hold
// text, a uuid or JSON, and answers where any needle appears.
func traces(t *testing.T, pool *pgxpool.Pool, needles ...string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg_toast%'
		AND (c.data_type IN ('text', 'character varying', 'character', 'uuid', 'json', 'jsonb', 'ARRAY', 'bytea'))`)
	if err != nil {
		t.Fatal(err)
	}
	type col struct{ schema, table, column string }
	cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (col, error) {
		var c col
		return c, r.Scan(&c.schema, &c.table, &c.column)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) < 100 {
		t.Fatalf("only %d columns walked", len(cols))
	}
	var out []string
	for _, c := range cols {
		ident := pgx.Identifier{c.schema, c.table}.Sanitize()
		colName := pgx.Identifier{c.column}.Sanitize()
		for _, n := range needles {
			var hits int
			q := fmt.Sprintf(`SELECT count(*) FROM %s WHERE strpos(lower(%s::text), lower($1)) > 0`, ident, colName)
			if err := pool.QueryRow(ctx, q, n).Scan(&hits); err != nil {
				t.Fatalf("%s.%s: %v", ident, colName, err)
			}
			if hits > 0 {
				out = append(out, fmt.Sprintf("%s.%s holds %q (%d rows)", ident, colName, n, hits))
			}
		}
	}
	return out
}

func TestLGPDDeletionLeavesNoTraceAndTheLedgerBalances(t *testing.T) {
	srv := apptest.Start(t, nil)
	registerPosts(t, srv)
	ctx := context.Background()
	a := newLGPDMember(t, srv, "zuleica")
	b := newLGPDMember(t, srv, "bartolomeu")
	a.commentOn(t, b.post, "Resposta de quem vai sair")
	b.commentOn(t, a.post, "Comentário que fica na publicação")
	// B is told about A (a like names A), A connects with B.
	if res := a.c.Do("PUT", "/api/community/posts/"+b.post+"/like", nil); res.Status >= 300 {
		t.Fatalf("like: %d %s", res.Status, res.Body)
	}
	if err := srv.App.Engagement.Notifications.NotifyLGPD(ctx, b.id, "teste-lgpd:sobre:"+a.id, "zuleicanome zuleicasobrenome curtiu", "zuleicanome zuleicasobrenome curtiu sua publicação", "/"); err != nil {
		t.Fatal(err)
	}
	// An export ZIP exists too: it goes with the account.
	if res := a.c.Do("POST", "/api/me/data-exports", nil); res.Status != http.StatusAccepted {
		t.Fatalf("export: %d", res.Status)
	}
	waitExport(t, a.c)
	sumBefore := ledgerBalances(t, srv.App.Pool)

	// Hostile: a wrong password, no confirmation at all.
	if res := a.c.Do("POST", "/api/me/account-deletion", map[string]any{"password": "errada#123"}); res.Status != http.StatusBadRequest && res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("wrong password: %d %s", res.Status, res.Body)
	} else if res.ErrorMessage() != lgpd.MsgWrongPassword {
		t.Fatalf("wrong password message: %s", res.Body)
	}
	if res := a.c.Do("POST", "/api/me/account-deletion", map[string]any{}); res.Status < 400 || res.Status >= 500 {
		t.Fatalf("no confirmation: %d", res.Status)
	}
	if res := a.c.Do("POST", "/api/me/account-deletion", map[string]any{"code": "000000"}); res.Status < 400 || res.Status >= 500 {
		t.Fatalf("code never sent: %d", res.Status)
	}
	res := a.c.Do("POST", "/api/me/account-deletion", map[string]any{"password": apptest.TestPassword})
	if res.Status != http.StatusAccepted {
		t.Fatalf("request deletion: %d %s", res.Status, res.Body)
	}
	var del lgpd.Request
	res.JSON(t, &del)
	if del.ScheduledFor == nil || time.Until(*del.ScheduledFor) < 29*24*time.Hour {
		t.Fatalf("deletion: %+v", del)
	}
	// Signed out everywhere.
	if res := a.c.Do("GET", "/api/me/data", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("after the request the session still works: %d", res.Status)
	}
	// Not due yet: nothing happens.
	if n, err := srv.App.LGPD.RunDueDeletions(ctx); err != nil || n != 0 {
		t.Fatalf("before the grace ends: %d %v", n, err)
	}
	// The grace ends.
	if _, err := srv.App.Pool.Exec(ctx, `UPDATE lgpd_requests SET scheduled_for = now() - interval '1 minute' WHERE id = $1`, del.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := srv.App.LGPD.RunDueDeletions(ctx); err != nil || n != 1 {
		t.Fatalf("run deletion: %d %v", n, err)
	}
	// Safe to run again.
	if n, err := srv.App.LGPD.RunDueDeletions(ctx); err != nil || n != 0 {
		t.Fatalf("second run: %d %v", n, err)
	}

	if found := traces(t, srv.App.Pool, a.id, a.email, "zuleicanome", "zuleicasobrenome"); len(found) > 0 {
		t.Fatalf("the deleted member is still named:\n%s", strings.Join(found, "\n"))
	}
	// B is intact.
	if found := traces(t, srv.App.Pool, b.id, b.email); len(found) == 0 {
		t.Fatal("the walk finds nothing of B: it does not look")
	}
	if sumAfter := ledgerBalances(t, srv.App.Pool); sumAfter != sumBefore {
		t.Fatalf("the ledger's sum moved from %d to %d", sumBefore, sumAfter)
	}
	var kept int
	if err := srv.App.Pool.QueryRow(ctx, `SELECT count(*) FROM points_ledger WHERE user_id IS NULL AND idempotency_key LIKE 'anonimizado:%'`).Scan(&kept); err != nil || kept == 0 {
		t.Fatalf("anonymised ledger entries: %d %v", kept, err)
	}
	// The post stays without an author; the thread keeps both comments.
	var author *string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT author_id::text FROM content_items WHERE id = $1`, a.post).Scan(&author); err != nil || author != nil {
		t.Fatalf("A's post: author %v, %v", author, err)
	}
	var comments int
	if err := srv.App.Pool.QueryRow(ctx, `SELECT count(*) FROM engagement_comments WHERE content IN ($1, $2)`, a.comment, b.comment).Scan(&comments); err != nil || comments != 2 {
		t.Fatalf("comments kept: %d %v", comments, err)
	}
	// Stripe: A's customer is gone, B's stays.
	for cus, want := range map[string]int{a.customerID: http.StatusNotFound, b.customerID: http.StatusOK} {
		req, _ := http.NewRequest("GET", srv.App.Billing.Config().APIBase+"/v1/customers/"+cus, nil)
		req.Header.Set("Authorization", "Bearer sk_test_fake")
		hres, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		hres.Body.Close()
		if hres.StatusCode != want {
			t.Fatalf("customer %s at Stripe: %d, want %d", cus, hres.StatusCode, want)
		}
	}
	// The report: counts per step, the request done.
	steps, err := srv.App.LGPD.Report(ctx, del.ID)
	if err != nil || len(steps) != len(srv.App.LGPD.DeletionSteps()) {
		t.Fatalf("report: %+v %v", steps, err)
	}
	var status string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT status FROM lgpd_requests WHERE id = $1`, del.ID).Scan(&status); err != nil || status != lgpd.StatusDone {
		t.Fatalf("request: %s %v", status, err)
	}
	// The backoffice lists it, for super admins only.
	admin, _ := srv.SignedIn(t, "chefe.lgpd@exemplo.com.br", "super_admin")
	res = admin.Do("GET", "/api/admin/lgpd-requests?filter="+url.QueryEscape(`{"kind":"deletion"}`), nil)
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), del.ID) || !strings.Contains(string(res.Body), `"step":"conta"`) {
		t.Fatalf("admin list: %d %s", res.Status, res.Body)
	}
	if res := b.c.Do("GET", "/api/admin/lgpd-requests", nil); res.Status != http.StatusForbidden {
		t.Fatalf("a member lists requests: %d", res.Status)
	}
}

func TestLGPDSigningInCancelsTheDeletion(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := context.Background()
	c, id := srv.SignedIn(t, "volta.logo@exemplo.com.br")
	res := c.Do("POST", "/api/me/account-deletion", map[string]any{"password": apptest.TestPassword})
	if res.Status != http.StatusAccepted {
		t.Fatalf("request deletion: %d %s", res.Status, res.Body)
	}
	var del lgpd.Request
	res.JSON(t, &del)
	login := srv.Client(t)
	res = login.Do("POST", "/api/auth/login", map[string]any{"email": "volta.logo@exemplo.com.br", "password": apptest.TestPassword})
	if res.Status != http.StatusOK {
		t.Fatalf("sign in: %d %s", res.Status, res.Body)
	}
	var ov lgpd.Overview
	res = login.Do("GET", "/api/me/data", nil)
	res.JSON(t, &ov)
	if ov.Deletion != nil {
		t.Fatalf("deletion still scheduled after signing in: %+v", ov.Deletion)
	}
	var status, detail string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT status, detail FROM lgpd_requests WHERE id = $1`, del.ID).Scan(&status, &detail); err != nil ||
		status != lgpd.StatusCancelled || detail != "login" {
		t.Fatalf("request after sign-in: %s %s %v", status, detail, err)
	}
	// The member is told in the app and by e-mail.
	var told int
	if err := srv.App.Pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND message = $2`, id, lgpd.MsgCancelledSignIn).Scan(&told); err != nil || told != 1 {
		t.Fatalf("in-app notice: %d %v", told, err)
	}
	// A cancelled deletion never runs, even past its date.
	if _, err := srv.App.Pool.Exec(ctx, `UPDATE lgpd_requests SET scheduled_for = now() - interval '1 day' WHERE id = $1`, del.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := srv.App.LGPD.RunDueDeletions(ctx); err != nil || n != 0 {
		t.Fatalf("cancelled deletion ran: %d %v", n, err)
	}
	if ok, err := srv.App.LGPD.RunDeletion(ctx, del.ID); err != nil || ok {
		t.Fatalf("cancelled deletion ran directly: %v %v", ok, err)
	}
	var exists bool
	if err := srv.App.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)`, id).Scan(&exists); err != nil || !exists {
		t.Fatalf("account gone: %v %v", exists, err)
	}
	// Nothing to cancel now: 404 in pt-BR.
	if res := login.Do("DELETE", "/api/me/account-deletion", nil); res.Status != http.StatusNotFound || res.ErrorMessage() != lgpd.MsgNoDeletion {
		t.Fatalf("cancel with nothing scheduled: %d %s", res.Status, res.Body)
	}
	_ = postgres.IsNoRows
}
