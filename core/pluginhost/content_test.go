package pluginhost_test

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/pluginhost"
)

// The news plugin, a real process, declares its type and takes part in
// writes: the core registers the type from the manifest, drops what an
// editor sends for the computed reading time, stores the plugin's value and
// shows the plugin's field errors.
func TestContentPluginDeclaresItsTypeAndAnswersHooks(t *testing.T) {
	reg := content.NewRegistry()
	h := start(t, install(t, "noticias", "fixture"), pluginhost.Options{ContentTypes: reg})
	news, ok := reg.Get("noticias")
	if !ok {
		t.Fatalf("the news type was not registered; logs:\n%s", h.logs.String())
	}
	if news.Route != "/noticias-veterinarias" || news.Singular != "Notícia" || reg.Owner("noticias") != "noticias" {
		t.Fatalf("registered type: %+v (owner %q)", news, reg.Owner("noticias"))
	}
	if f, ok := news.Field("reading_minutes"); !ok || !f.Computed {
		t.Fatalf("reading time not declared as computed: %+v", f)
	}
	// A content plugin is not a tool: it stays out of the tools catalogue.
	editor := h.newUser(t, core.RoleEditor)
	var catalogue struct{ Tools []struct{ ID string } }
	h.call(editor, "GET", "/api/tools", nil).decode(t, &catalogue)
	if len(catalogue.Tools) != 1 {
		t.Fatalf("catalogue: %+v", catalogue)
	}
	for _, tool := range catalogue.Tools {
		if tool.ID == "noticias" {
			t.Fatal("the news plugin is listed as a tool")
		}
	}

	store := content.New(h.pool, reg, content.Options{Hooks: h.m.ContentHooks()})
	actor := content.Actor{UserID: editor.UserID, Channel: content.ChannelBackoffice}
	body := strings.Repeat("O Conselho Federal publicou uma resolução sobre telemedicina veterinária. ", 50) // 450 words
	in := content.Input{Title: "Nova resolução sobre telemedicina", Summary: "O que muda para clínicas.", Fields: map[string]any{
		"body": body, "category": "legislacao", "source_url": "https://www.cfmv.gov.br/", "reading_minutes": 99,
	}}
	_, _, err := store.Create(t.Context(), actor, "noticias", in, "")
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.EINVALID || e.Fields["source_name"] != "Informe o nome da fonte junto com o link." {
		t.Fatalf("the plugin's field error: %v", err)
	}
	in.Fields["source_name"] = "CFMV"
	it, _, err := store.Create(t.Context(), actor, "noticias", in, "")
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(it.Fields, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["reading_minutes"] != 3.0 {
		t.Fatalf("reading time %v, want the plugin's 3 (not the editor's 99)", fields["reading_minutes"])
	}
}

// The content fixture's type, refusal and key-value record (internal/contentfixture).
const (
	lessonType         = "aulas-em-video"
	msgProcessing      = "O vídeo ainda está sendo processado."
	msgHookUnavailable = "O serviço que valida este tipo de conteúdo está indisponível no momento. Nada foi salvo; tente novamente em instantes."
)

type publication struct {
	ID        string `json:"id"`
	Version   int    `json:"version"`
	Status    string `json:"status"`
	Published bool   `json:"published"`
	Title     string `json:"title"`
}

// publications reads what the plugin's AfterPublish recorded for item id
// through the host API's key-value store.
func publications(t *testing.T, h *harness, plugin, id string) []publication {
	t.Helper()
	var raw []byte
	err := h.pool.QueryRow(t.Context(), `SELECT value FROM plugin_kv WHERE plugin_id = $1 AND key = $2`, plugin, "publicacoes/"+id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []publication
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return out
}

// editorialDesk is a content store and editorial workflow over the host's
// hooks, with an editor and a reviewer, on a clock the test moves.
type editorialDesk struct {
	store    *content.Store
	wf       *editorial.Workflow
	editor   content.Actor
	reviewer content.Actor
	// asEditor and asReviewer are the workflow roles each one acts with.
	asEditor, asReviewer []editorial.Role
	now                  time.Time
}

func newDesk(t *testing.T, h *harness, reg *content.Registry) *editorialDesk {
	t.Helper()
	d := &editorialDesk{now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
		asEditor: []editorial.Role{editorial.RoleEditor}, asReviewer: []editorial.Role{editorial.RoleRevisor}}
	clock := func() time.Time { return d.now }
	d.store = content.New(h.pool, reg, content.Options{Hooks: h.m.ContentHooks(), Now: clock})
	d.wf = editorial.New(d.store, editorial.Options{Now: clock})
	d.editor = content.Actor{UserID: h.newUser(t, core.RoleEditor).UserID, Channel: content.ChannelBackoffice}
	d.reviewer = content.Actor{UserID: h.newUser(t, string(editorial.RoleRevisor)).UserID, Channel: content.ChannelBackoffice}
	return d
}

// act takes action on it and fails the test when the workflow refuses.
func (d *editorialDesk) act(t *testing.T, a content.Actor, roles []editorial.Role, it content.Item, action editorial.Action) content.Item {
	t.Helper()
	next, err := d.wf.Act(t.Context(), a, roles, it.ID, it.Version, action, "")
	if err != nil {
		t.Fatalf("%s from %s: %v", action, it.Status, err)
	}
	return next
}

// approved takes a draft through review to aprovado.
func (d *editorialDesk) approved(t *testing.T, it content.Item) content.Item {
	t.Helper()
	it = d.act(t, d.editor, d.asEditor, it, editorial.ActionSubmit)
	return d.act(t, d.reviewer, d.asReviewer, it, editorial.ActionApprove)
}

// unchanged fails the test when item it moved or gained a revision since it
// was read as want.
func (d *editorialDesk) unchanged(t *testing.T, want content.Item) {
	t.Helper()
	got, err := d.store.Get(t.Context(), want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != want.Status || got.Version != want.Version || got.Published != want.Published || (got.PublishAt == nil) != (want.PublishAt == nil) {
		t.Fatalf("a refused move changed the item: %+v, was %+v", got, want)
	}
	revs, err := d.store.Revisions(t.Context(), want.ID, 0, 1)
	if err != nil || len(revs) != 1 || revs[0].Revision != want.Version {
		t.Fatalf("a refused move left a revision: newest %+v (%v), item at version %d", revs, err, want.Version)
	}
}

func lessonInput(fields map[string]any) content.Input {
	f := map[string]any{"video_url": "https://videos.exemplo.com.br/exame-fisico"}
	maps.Copy(f, fields)
	return content.Input{Title: "Exame físico do cão idoso", Summary: "Aula prática em vídeo.", Fields: f}
}

// A real plugin process gates the editorial workflow over gRPC: its
// BeforeTransition refuses to publish or schedule a lesson whose video is
// still processing, with its pt-BR reason as a 409 and the item untouched;
// once the field is fixed the same moves pass, and AfterPublish is told once
// per publish (now, and later by a fired schedule) with the item and the
// revision that went public.
func TestContentPluginRefusesTransitionsAndObservesPublishes(t *testing.T) {
	reg := content.NewRegistry()
	h := start(t, install(t, "fixture-content"), pluginhost.Options{ContentTypes: reg})
	if reg.Owner(lessonType) != "fixture-content" {
		t.Fatalf("lesson type not registered; logs:\n%s", h.logs.String())
	}
	d := newDesk(t, h, reg)
	ctx := t.Context()

	it, _, err := d.store.Create(ctx, d.editor, lessonType, lessonInput(map[string]any{"processing": true}), "")
	if err != nil {
		t.Fatal(err)
	}
	// Moves that do not publish pass while the video processes.
	it = d.approved(t, it)

	_, err = d.wf.Act(ctx, d.reviewer, d.asReviewer, it.ID, it.Version, editorial.ActionPublish, "")
	if core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != msgProcessing {
		t.Fatalf("publish while processing: %v", err)
	}
	d.unchanged(t, it)
	_, err = d.wf.Schedule(ctx, d.reviewer, d.asReviewer, it.ID, it.Version, d.now.Add(time.Hour))
	if core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != msgProcessing {
		t.Fatalf("schedule while processing: %v", err)
	}
	d.unchanged(t, it)
	if pubs := publications(t, h, "fixture-content", it.ID); len(pubs) != 0 {
		t.Fatalf("AfterPublish told of a refused publish: %+v", pubs)
	}

	// The video is ready: the edit sends the lesson through review again,
	// and then it publishes.
	if it, err = d.store.Update(ctx, d.editor, it.ID, it.Version, lessonInput(map[string]any{"processing": false})); err != nil {
		t.Fatal(err)
	}
	it = d.act(t, d.reviewer, d.asReviewer, d.approved(t, it), editorial.ActionPublish)
	if !it.Published || it.Status != content.StatusPublished {
		t.Fatalf("published: %+v", it)
	}
	var revision int
	if err := h.pool.QueryRow(ctx, `SELECT revision FROM content_published WHERE item_id = $1`, it.ID).Scan(&revision); err != nil {
		t.Fatal(err)
	}
	first := publication{ID: it.ID, Version: revision, Status: "publicado", Published: true, Title: "Exame físico do cão idoso"}
	if pubs := publications(t, h, "fixture-content", it.ID); len(pubs) != 1 || pubs[0] != first || revision != it.Version {
		t.Fatalf("AfterPublish records %+v, want once %+v (published revision %d, item version %d)", pubs, first, revision, it.Version)
	}

	// A second publish, by a fired schedule, is told once more with its
	// own revision.
	in := lessonInput(map[string]any{"processing": false})
	in.Title = "Exame físico do cão idoso (revisada)"
	if it, err = d.store.Update(ctx, d.editor, it.ID, it.Version, in); err != nil {
		t.Fatal(err)
	}
	it = d.approved(t, it)
	if it, err = d.wf.Schedule(ctx, d.reviewer, d.asReviewer, it.ID, it.Version, d.now.Add(time.Hour)); err != nil {
		t.Fatalf("schedule: %v", err)
	}
	if pubs := publications(t, h, "fixture-content", it.ID); len(pubs) != 1 {
		t.Fatalf("AfterPublish told of a schedule: %+v", pubs)
	}
	d.now = d.now.Add(2 * time.Hour)
	it, fired, err := d.wf.PublishScheduled(ctx, it.ID)
	if err != nil || !fired || !it.Published {
		t.Fatalf("scheduled publish: fired %v, %+v, %v", fired, it, err)
	}
	second := publication{ID: it.ID, Version: it.Version, Status: "publicado", Published: true, Title: in.Title}
	if pubs := publications(t, h, "fixture-content", it.ID); len(pubs) != 2 || pubs[0] != first || pubs[1] != second {
		t.Fatalf("AfterPublish records %+v, want %+v then %+v", pubs, first, second)
	}
}

// Hooks a plugin did not announce in Describe are never called, even when
// the process would answer them: the hostile content plugin answers
// ValidateContent with a field error, BeforeTransition with a refusal and
// AfterPublish with a key-value entry, and none of them shows.
func TestContentHooksNotAnnouncedAreNeverCalled(t *testing.T) {
	reg := content.NewRegistry()
	h := start(t, install(t, "hostile-content"), pluginhost.Options{ContentTypes: reg})
	if reg.Owner("hostile-content") != "hostile-content" {
		t.Fatalf("type not registered; logs:\n%s", h.logs.String())
	}
	d := newDesk(t, h, reg)
	it, _, err := d.store.Create(t.Context(), d.editor, "hostile-content", content.Input{Title: "Sem ganchos", Fields: map[string]any{"body": "Texto."}}, "")
	if err != nil {
		t.Fatalf("create (ValidateContent called?): %v", err)
	}
	it = d.act(t, d.reviewer, d.asReviewer, d.approved(t, it), editorial.ActionPublish)
	if !it.Published {
		t.Fatalf("not published: %+v", it)
	}
	var n int
	if err := h.pool.QueryRow(t.Context(), `SELECT count(*) FROM plugin_kv WHERE plugin_id = 'hostile-content'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("AfterPublish was called: %d entries, %v", n, err)
	}
}

// waitRestarted waits until plugin id runs in a process other than before.
func waitRestarted(t *testing.T, h *harness, id string, before int) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if pid := h.m.PID(id); pid != 0 && pid != before {
			return pid
		}
	}
	t.Fatalf("%s not restarted within 5s (pid %d); logs:\n%s", id, before, h.logs.String())
	return 0
}

// A gate fails closed: when the plugin hangs past the call timeout or its
// process dies during BeforeTransition, the move is refused with a pt-BR
// 503 and the item is untouched, the plugin is restarted, and the move
// passes once it answers again. A failing AfterPublish is logged and the
// publication stands.
func TestContentHooksFailClosedWhenThePluginCannotAnswer(t *testing.T) {
	reg := content.NewRegistry()
	h := start(t, install(t, "fixture-content"), pluginhost.Options{ContentTypes: reg, CallTimeout: time.Second})
	d := newDesk(t, h, reg)
	ctx := t.Context()
	refused := func(what string, it content.Item) {
		t.Helper()
		_, err := d.wf.Act(ctx, d.editor, d.asEditor, it.ID, it.Version, editorial.ActionSubmit, "")
		if core.ErrorCode(err) != core.EUNAVAILABLE || core.ErrorMessage(err) != msgHookUnavailable {
			t.Fatalf("submit while the plugin %s: %v", what, err)
		}
		d.unchanged(t, it)
	}

	it, _, err := d.store.Create(ctx, d.editor, lessonType, lessonInput(map[string]any{"hang": true}), "")
	if err != nil {
		t.Fatal(err)
	}
	pid := h.m.PID("fixture-content")
	began := time.Now()
	refused("hangs", it)
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("a hung hook held the move for %s (timeout 1s)", took)
	}
	pid = waitRestarted(t, h, "fixture-content", pid)

	if it, err = d.store.Update(ctx, d.editor, it.ID, it.Version, lessonInput(map[string]any{"crash": true})); err != nil {
		t.Fatal(err)
	}
	refused("crashes", it)
	waitRestarted(t, h, "fixture-content", pid)
	if alive(pid) {
		t.Errorf("crashed process %d still running", pid)
	}
	if logs := h.logs.String(); strings.Count(logs, "before transition hook failed") < 2 {
		t.Errorf("hook failures not logged:\n%s", logs)
	}

	// Answering again, the plugin lets the move through.
	if it, err = d.store.Update(ctx, d.editor, it.ID, it.Version, lessonInput(map[string]any{"fail_after_publish": true})); err != nil {
		t.Fatal(err)
	}
	it = d.approved(t, it)

	// AfterPublish fails: logged, and the publication stands.
	it = d.act(t, d.reviewer, d.asReviewer, it, editorial.ActionPublish)
	if got, err := d.store.Get(ctx, it.ID); err != nil || !got.Published || got.Status != content.StatusPublished {
		t.Fatalf("publication undone by a failing AfterPublish: %+v %v", got, err)
	}
	if !strings.Contains(h.logs.String(), "after publish hook failed") {
		t.Errorf("AfterPublish failure not logged:\n%s", h.logs.String())
	}

	// Killed between calls: whether the publish finds the plugin still down
	// or already restarted, a lesson still processing never goes public.
	other, _, err := d.store.Create(ctx, d.editor, lessonType, lessonInput(map[string]any{"processing": true}), "")
	if err != nil {
		t.Fatal(err)
	}
	other = d.approved(t, other)
	if err := syscall.Kill(h.m.PID("fixture-content"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, err = d.wf.Act(ctx, d.reviewer, d.asReviewer, other.ID, other.Version, editorial.ActionPublish, "")
	switch {
	case core.ErrorCode(err) == core.EUNAVAILABLE && core.ErrorMessage(err) == msgHookUnavailable:
	case core.ErrorCode(err) == core.ECONFLICT && core.ErrorMessage(err) == msgProcessing:
	default:
		t.Fatalf("publish while the plugin is killed: %v", err)
	}
	d.unchanged(t, other)
}

// The types of a plugin refused after declaring them (here its second type
// asks for a route already served) are not written unchecked: creating an
// item, and moving one written before, answer 503.
func TestContentTypeOfARefusedPluginIsNotWritten(t *testing.T) {
	reg := content.NewRegistry()
	if err := reg.Register(content.Type{ID: "ocupante", Singular: "Ocupante", Plural: "Ocupantes", Route: "/rota-ocupada"}); err != nil {
		t.Fatal(err)
	}
	h := start(t, install(t, "fixture-content-clash"), pluginhost.Options{ContentTypes: reg})
	if _, ok := h.m.Refused()["fixture-content-clash"]; !ok {
		t.Fatalf("the clashing plugin was loaded; logs:\n%s", h.logs.String())
	}
	d := newDesk(t, h, reg)
	ctx := t.Context()
	_, _, err := d.store.Create(ctx, d.editor, lessonType, lessonInput(nil), "")
	if reg.Owner(lessonType) == "" {
		// Registration became all or nothing: the type is simply unknown.
		if core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("create of an unregistered type: %v", err)
		}
		return
	}
	if core.ErrorCode(err) != core.EUNAVAILABLE || core.ErrorMessage(err) != msgHookUnavailable {
		t.Fatalf("create without the type's plugin: %v", err)
	}
	// An item written while the plugin still ran (a store without hooks
	// stands in for the earlier boot) cannot be published now.
	before := content.New(h.pool, reg, content.Options{})
	it, _, err := before.Create(ctx, d.editor, lessonType, lessonInput(map[string]any{"processing": true}), "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.store.Publish(ctx, d.reviewer, it.ID, it.Version)
	if core.ErrorCode(err) != core.EUNAVAILABLE || core.ErrorMessage(err) != msgHookUnavailable {
		t.Fatalf("publish without the type's plugin: %v", err)
	}
	d.unchanged(t, it)
}
