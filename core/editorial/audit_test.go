package editorial_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func TestAuditLogRecordsEveryWriteAndCannotBeAltered(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	reg := content.NewRegistry()
	if err := reg.Register(content.Type{ID: "noticias", Singular: "Notícia", Plural: "Notícias"}); err != nil {
		t.Fatal(err)
	}
	audit := editorial.NewAudit(pool)
	store := content.New(pool, reg, content.Options{Recorder: audit})
	wf := editorial.New(store, editorial.Options{})
	editorID, revisorID := newUser(t, pool), newUser(t, pool)
	editor := content.Actor{UserID: editorID, Channel: content.ChannelBackoffice, IP: "203.0.113.7"}
	revisor := content.Actor{UserID: revisorID, Channel: content.ChannelBackoffice, IP: "2001:db8::1"}
	importer := content.Actor{Channel: content.ChannelImport, IP: "not an ip"}
	eRoles, rRoles := []editorial.Role{editorial.RoleEditor}, []editorial.Role{editorial.RoleRevisor}

	it, _, err := store.Create(ctx, importer, "noticias", content.Input{Title: "Importada"}, "")
	if err != nil {
		t.Fatal(err)
	}
	must := func(next content.Item, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		it = next
	}
	must(store.Update(ctx, editor, it.ID, it.Version, content.Input{Title: "Importada e revisada"}))
	must(wf.Act(ctx, editor, eRoles, it.ID, it.Version, editorial.ActionSubmit, ""))
	must(wf.Act(ctx, revisor, rRoles, it.ID, it.Version, editorial.ActionRequestChanges, "Falta a fonte."))
	if _, err := wf.Act(ctx, revisor, rRoles, it.ID, it.Version, editorial.ActionPublish, ""); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("refused publish: %v", err)
	}
	must(wf.Act(ctx, editor, eRoles, it.ID, it.Version, editorial.ActionSubmit, ""))
	must(wf.Act(ctx, revisor, rRoles, it.ID, it.Version, editorial.ActionApprove, ""))
	must(wf.Schedule(ctx, revisor, rRoles, it.ID, it.Version, time.Now().Add(time.Hour)))
	// The timer fires once the moment has come (a clock an hour and a bit on).
	atTheMoment := editorial.New(store, editorial.Options{Now: func() time.Time { return time.Now().Add(61 * time.Minute) }})
	if _, ok, err := atTheMoment.PublishScheduled(ctx, it.ID); err != nil || !ok {
		t.Fatalf("scheduled publish: %v %v", ok, err)
	}

	events, total, err := audit.Timeline(ctx, it.ID, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		action, from, to, actor, ip, reason string
		channel                             content.Channel
	}
	want := []row{ // newest first
		{"scheduled_publish", "agendado", "publicado", "", "", "", content.ChannelSystem},
		{"schedule", "aprovado", "agendado", revisorID, "2001:db8::1", "", content.ChannelBackoffice},
		{"approve", "em_revisao", "aprovado", revisorID, "2001:db8::1", "", content.ChannelBackoffice},
		{"submit", "alteracoes_solicitadas", "em_revisao", editorID, "203.0.113.7", "", content.ChannelBackoffice},
		{"request_changes", "em_revisao", "alteracoes_solicitadas", revisorID, "2001:db8::1", "Falta a fonte.", content.ChannelBackoffice},
		{"submit", "rascunho", "em_revisao", editorID, "203.0.113.7", "", content.ChannelBackoffice},
		{"update", "rascunho", "rascunho", editorID, "203.0.113.7", "", content.ChannelBackoffice},
		{"create", "", "rascunho", "", "", "", content.ChannelImport},
	}
	if total != int64(len(want)) || len(events) != len(want) {
		t.Fatalf("%d events (total %d): %+v", len(events), total, events)
	}
	for i, e := range events {
		got := row{e.Action, string(e.From), string(e.To), e.ActorID, e.IP, e.Reason, e.Channel}
		if got != want[i] || e.Revision != len(want)-i || e.ItemType != "noticias" {
			t.Fatalf("event %d: %+v, want %+v", i, e, want[i])
		}
	}
	// One event per revision: the refused publish wrote neither.
	revs, _ := store.Revisions(ctx, it.ID, 0, 50)
	if len(revs) != len(events) {
		t.Fatalf("%d revisions, %d events", len(revs), len(events))
	}

	approvals, n, err := audit.List(ctx, editorial.AuditQuery{Action: "approve", ItemType: "noticias"})
	if err != nil || n != 1 || approvals[0].ActorID != revisorID {
		t.Fatalf("filtered list: %d %+v %v", n, approvals, err)
	}
	if _, n, err := audit.List(ctx, editorial.AuditQuery{ActorID: editorID, Offset: 10}); err != nil || n != 3 {
		t.Fatalf("past the end: total %d %v", n, err)
	}

	for _, sql := range []string{
		`UPDATE editorial_events SET reason = 'apagado'`,
		`DELETE FROM editorial_events`,
		`TRUNCATE editorial_events`,
	} {
		if _, err := pool.Exec(ctx, sql); err == nil {
			t.Fatalf("%s succeeded on the append-only log", sql)
		}
	}
	if _, n, _ := audit.List(ctx, editorial.AuditQuery{}); n != int64(len(want)) {
		t.Fatalf("events after the attempts: %d", n)
	}
}
