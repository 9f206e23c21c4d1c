package content_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

func TestEveryChannelWritesARevisionAndRestoreAppends(t *testing.T) {
	f := newFixture(t)
	importer := content.Actor{Channel: content.ChannelImport}
	it, _, err := f.store.Create(f.ctx, importer, "noticias", newsInput("Leptospirose em alta"), "")
	if err != nil {
		t.Fatal(err)
	}
	api := content.Actor{UserID: f.user, Channel: content.ChannelAPI}
	changed := newsInput("Leptospirose em alta no Sul")
	changed.Fields["category"] = "mercado"
	changed.Fields["reading_time"] = 4
	f.advance(time.Minute)
	if it, err = f.store.Update(f.ctx, api, it.ID, it.Version, changed); err != nil {
		t.Fatal(err)
	}
	plugin := content.Actor{Channel: content.ChannelPlugin}
	if it, err = f.store.Publish(f.ctx, plugin, it.ID, it.Version); err != nil {
		t.Fatal(err)
	}
	system := content.Actor{Channel: content.ChannelSystem}
	if it, err = f.store.Transition(f.ctx, system, content.Transition{ID: it.ID, To: content.StatusArchived, Effect: content.EffectUnpublish}); err != nil {
		t.Fatal(err)
	}

	diff, err := f.store.Diff(f.ctx, it.ID, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"title":        {`"Leptospirose em alta"`, `"Leptospirose em alta no Sul"`},
		"summary":      {`"Resumo de Leptospirose em alta"`, `"Resumo de Leptospirose em alta no Sul"`},
		"body":         {`"Corpo da notícia Leptospirose em alta, com texto suficiente."`, `"Corpo da notícia Leptospirose em alta no Sul, com texto suficiente."`},
		"category":     {`"clinica"`, `"mercado"`},
		"reading_time": {`null`, `4`},
	}
	if len(diff) != len(want) {
		t.Fatalf("diff %+v", diff)
	}
	for _, c := range diff {
		w, ok := want[c.Field]
		if !ok || string(c.Before) != w[0] || string(c.After) != w[1] {
			t.Fatalf("change %s: %s → %s", c.Field, c.Before, c.After)
		}
	}
	if diff[0].Field != "title" || diff[0].Label != "Título" || diff[3].Label != "Categoria" {
		t.Fatalf("diff order or labels: %+v", diff)
	}

	// Restoring revision 1 appends revision 5 with revision 1's content.
	f.advance(time.Minute)
	editor := f.editor()
	restored, err := f.store.RestoreRevision(f.ctx, editor, it.ID, it.Version, 1)
	if err != nil {
		t.Fatal(err)
	}
	if restored.Version != 5 || restored.Title != "Leptospirose em alta" || restored.Status != content.StatusDraft {
		t.Fatalf("restored: %+v", restored)
	}
	if d, err := f.store.Diff(f.ctx, it.ID, 1, 5); err != nil || len(d) != 0 {
		t.Fatalf("revision 5 differs from 1: %+v %v", d, err)
	}
	if d, err := f.store.Diff(f.ctx, it.ID, 4, 5); err != nil || len(d) != 6 || d[2].Field != "status" ||
		string(d[2].Before) != `"arquivado"` || string(d[2].After) != `"rascunho"` {
		t.Fatalf("restoring an archived item makes it a draft: %+v %v", d, err)
	}
	revs, err := f.store.Revisions(f.ctx, it.ID, 0, 10)
	if err != nil || len(revs) != 5 {
		t.Fatalf("revisions: %d %v", len(revs), err)
	}
	type row struct {
		action  string
		channel content.Channel
		author  string
	}
	wantRows := []row{{"restore", content.ChannelBackoffice, f.user}, {"unpublish", content.ChannelSystem, ""},
		{"publish", content.ChannelPlugin, ""}, {"update", content.ChannelAPI, f.user}, {"create", content.ChannelImport, ""}}
	for i, r := range revs {
		if (row{r.Action, r.Channel, r.AuthorID}) != wantRows[i] || r.Revision != 5-i {
			t.Fatalf("revision %d: %+v", r.Revision, r)
		}
	}
	if revs[0].RestoredFrom == nil || *revs[0].RestoredFrom != 1 || !revs[0].CreatedAt.Equal(f.now()) {
		t.Fatalf("restore revision: %+v", revs[0])
	}
	var fields map[string]json.RawMessage = revs[1].Snapshot.Fields
	if string(fields["reading_time"]) != "4" || revs[1].Snapshot.Status != content.StatusArchived {
		t.Fatalf("snapshot: %+v", revs[1].Snapshot)
	}
	if older, err := f.store.Revisions(f.ctx, it.ID, 3, 10); err != nil || len(older) != 2 || older[0].Revision != 2 {
		t.Fatalf("older page: %+v %v", older, err)
	}
	if _, err := f.store.RestoreRevision(f.ctx, editor, it.ID, restored.Version, 99); code(err) != core.ENOTFOUND {
		t.Fatalf("missing revision: %v", err)
	}
	// History is never rewritten.
	if _, err := f.pool.Exec(f.ctx, `UPDATE content_revisions SET action = 'update' WHERE item_id = $1`, it.ID); err == nil {
		t.Fatal("a revision was updated")
	}
}

func TestPruneKeeps180DaysOrTheNewest100(t *testing.T) {
	f := newFixture(t)
	// Item A: 120 revisions 200 days old, then 30 recent ones. The newest 100
	// are 51..150; of the rest, all are past 180 days: 1..50 go.
	a := f.create(t, newsInput("Item A"))
	f.advance(-200 * 24 * time.Hour)
	if _, err := f.pool.Exec(f.ctx, `UPDATE content_items SET version = 1 WHERE id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	old := f.now()
	if _, err := f.pool.Exec(f.ctx, `DELETE FROM content_revisions WHERE item_id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO content_revisions (item_id, revision, action, channel, snapshot, created_at)
		SELECT $1, n, 'update', 'import', '{}', $2 FROM generate_series(1, 119) n`, a.ID, old); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(f.ctx, `UPDATE content_items SET version = 119 WHERE id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	it, _ := f.store.Get(f.ctx, a.ID)
	it, err := f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Item A, revisão 120"))
	if err != nil {
		t.Fatal(err)
	}
	f.advance(200 * 24 * time.Hour)
	for range 30 {
		if it, err = f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Item A")); err != nil {
			t.Fatal(err)
		}
	}
	// Item B: 130 revisions, all 10 days old: none go (younger than 180 days).
	b := f.create(t, newsInput("Item B"))
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO content_revisions (item_id, revision, action, channel, snapshot, created_at)
		SELECT $1, n, 'update', 'import', '{}', $2 FROM generate_series(2, 130) n`, b.ID, f.now().Add(-10*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Item C: 40 revisions, all 300 days old: none go (within the newest 100).
	c := f.create(t, newsInput("Item C"))
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO content_revisions (item_id, revision, action, channel, snapshot, created_at)
		SELECT $1, n, 'update', 'import', '{}', $2 FROM generate_series(2, 40) n`, c.ID, f.now().Add(-300*24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	deleted, err := f.store.PruneRevisions(f.ctx, f.now())
	if err != nil || deleted != 50 {
		t.Fatalf("deleted %d, want 50 (err %v)", deleted, err)
	}
	var minA, countA, countB, countC int
	if err := f.pool.QueryRow(f.ctx, `SELECT
			(SELECT min(revision) FROM content_revisions WHERE item_id = $1), (SELECT count(*) FROM content_revisions WHERE item_id = $1),
			(SELECT count(*) FROM content_revisions WHERE item_id = $2), (SELECT count(*) FROM content_revisions WHERE item_id = $3)`,
		a.ID, b.ID, c.ID).Scan(&minA, &countA, &countB, &countC); err != nil {
		t.Fatal(err)
	}
	if minA != 51 || countA != 100 || countB != 130 || countC != 40 {
		t.Fatalf("kept A from %d (%d), B %d, C %d", minA, countA, countB, countC)
	}
	if again, err := f.store.PruneRevisions(f.ctx, f.now()); err != nil || again != 0 {
		t.Fatalf("second prune deleted %d (err %v)", again, err)
	}
}
