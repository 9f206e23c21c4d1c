package eventos_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// pluginDir holds the real eventos plugin, built once for the package.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "eventos-plugin-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "eventos")
	cmd := exec.Command("go", "build", "-o", bin, "../../plugins/eventos")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("build plugin: %v", err))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  eventos\n"), 0o644); err != nil {
		panic(err)
	}
	pluginDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is a running app with the events plugin, an editor and a revisor.
type env struct {
	srv             *apptest.Server
	editor, revisor content.Actor
	sp              *time.Location
}

func newEnv(t *testing.T, vars map[string]string) *env {
	t.Helper()
	all := map[string]string{"PLUGINS_DIR": pluginDir}
	for k, v := range vars {
		all[k] = v
	}
	srv := apptest.Start(t, all)
	if _, ok := srv.App.Content.Registry.Get("eventos"); !ok {
		t.Fatal("the eventos plugin did not register its type")
	}
	_, ed := srv.SignedIn(t, "editora@teste.dev", "editor")
	_, rev := srv.SignedIn(t, "revisor@teste.dev", "revisor")
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	return &env{srv: srv, editor: content.Actor{UserID: ed, Channel: content.ChannelBackoffice},
		revisor: content.Actor{UserID: rev, Channel: content.ChannelBackoffice}, sp: sp}
}

// fields are a valid in-person event starting at start (São Paulo).
func (e *env) fields(start time.Time, max int) map[string]any {
	l := start.In(e.sp)
	f := map[string]any{"description": "Um evento de teste com descrição suficiente.", "event_type": "Workshop",
		"event_date": l.Format(time.DateOnly), "event_time": l.Format("15:04"), "time_zone": "America/Sao_Paulo",
		"location": "Sala 1, São Paulo", "instructor": "Dra. Teste", "price_text": "Gratuito"}
	if max > 0 {
		f["max_participants"] = max
	}
	return f
}

// publish creates and publishes an event through the editorial workflow
// (the plugin's hook runs on every save).
func (e *env) publish(t *testing.T, slug string, fields map[string]any) content.Item {
	t.Helper()
	ctx := context.Background()
	it, _, err := e.srv.App.Content.Store.Create(ctx, e.editor, "eventos", content.Input{Slug: slug, Title: "Evento " + slug, Summary: "Resumo", Fields: fields}, "")
	if err != nil {
		t.Fatalf("create %s: %v", slug, err)
	}
	return e.republish(t, it)
}

func (e *env) republish(t *testing.T, it content.Item) content.Item {
	t.Helper()
	wf := e.srv.App.Content.Workflow
	var err error
	for _, s := range []struct {
		a    content.Actor
		r    editorial.Role
		step editorial.Action
	}{{e.editor, editorial.RoleEditor, editorial.ActionSubmit}, {e.revisor, editorial.RoleRevisor, editorial.ActionApprove},
		{e.revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
		if it, err = wf.Act(context.Background(), s.a, []editorial.Role{s.r}, it.ID, it.Version, s.step, ""); err != nil {
			t.Fatalf("%s %s: %v", s.step, it.Slug, err)
		}
	}
	return it
}

// edit changes an event's fields and publishes the change.
func (e *env) edit(t *testing.T, id string, change map[string]any) content.Item {
	t.Helper()
	ctx := context.Background()
	it, err := e.srv.App.Content.Store.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{}
	if err := json.Unmarshal(it.Fields, &fields); err != nil {
		t.Fatal(err)
	}
	for k, v := range change {
		fields[k] = v
	}
	it, err = e.srv.App.Content.Store.Update(ctx, e.editor, id, it.Version, content.Input{Slug: it.Slug, Title: it.Title, Summary: it.Summary, Fields: fields})
	if err != nil {
		t.Fatalf("edit: %v", err)
	}
	return e.republish(t, it)
}

// users creates n accounts directly (no password hashing: seats only need ids).
func (e *env) users(t *testing.T, prefix string, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		if err := e.srv.App.Pool.QueryRow(context.Background(), `INSERT INTO users (email, email_confirmed_at) VALUES ($1, now()) RETURNING id`,
			fmt.Sprintf("%s%d@teste.dev", prefix, i)).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}
