package videos_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/videos"
)

// pluginDir holds the real videos plugin, built once for the package.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "videos-plugin-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "videos")
	cmd := exec.Command("go", "build", "-o", bin, "../../plugins/videos")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("build plugin: %v", err))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  videos\n"), 0o644); err != nil {
		panic(err)
	}
	pluginDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is a running app with the videos plugin, an editor and a revisor.
type env struct {
	srv             *apptest.Server
	svc             *videos.Service
	editor, revisor content.Actor
	seq             atomic.Int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginDir})
	for _, typ := range []string{videos.TypeVideo, videos.TypeCategory} {
		if _, ok := srv.App.Content.Registry.Get(typ); !ok {
			t.Fatalf("the videos plugin did not register %s", typ)
		}
	}
	_, ed := srv.SignedIn(t, "editora@teste.dev", "editor")
	_, rev := srv.SignedIn(t, "revisor@teste.dev", "revisor")
	return &env{srv: srv, svc: srv.App.Videos, editor: content.Actor{UserID: ed, Channel: content.ChannelBackoffice},
		revisor: content.Actor{UserID: rev, Channel: content.ChannelBackoffice}}
}

func (e *env) create(t *testing.T, typ, title string, fields map[string]any) content.Item {
	t.Helper()
	it, _, err := e.srv.App.Content.Store.Create(context.Background(), e.editor, typ,
		content.Input{Slug: fmt.Sprintf("v-%d", e.seq.Add(1)), Title: title, Summary: "Resumo de " + title, Fields: fields}, "")
	if err != nil {
		t.Fatalf("create %s %q: %v", typ, title, err)
	}
	return it
}

// publish moves an item through the editorial workflow to published and
// returns the error of the first refused step.
func (e *env) publish(it content.Item) (content.Item, error) {
	wf := e.srv.App.Content.Workflow
	for _, s := range []struct {
		a    content.Actor
		r    editorial.Role
		step editorial.Action
	}{{e.editor, editorial.RoleEditor, editorial.ActionSubmit}, {e.revisor, editorial.RoleRevisor, editorial.ActionApprove},
		{e.revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
		next, err := wf.Act(context.Background(), s.a, []editorial.Role{s.r}, it.ID, it.Version, s.step, "")
		if err != nil {
			return it, err
		}
		it = next
	}
	return it, nil
}

func (e *env) publishNew(t *testing.T, typ, title string, fields map[string]any) string {
	t.Helper()
	it, err := e.publish(e.create(t, typ, title, fields))
	if err != nil {
		t.Fatalf("publish %s %q: %v", typ, title, err)
	}
	return it.ID
}

func (e *env) category(t *testing.T, name string, order int, hidden bool) string {
	t.Helper()
	return e.publishNew(t, videos.TypeCategory, name, map[string]any{"display_order": order, "hidden": hidden})
}

// video publishes a 10-minute YouTube video; extra fields override (nil
// removes).
func (e *env) video(t *testing.T, title, category string, extra map[string]any) string {
	t.Helper()
	f := map[string]any{"description": "Aula exclusiva sobre " + title + ".", "video_source": "youtube",
		"youtube_url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "duration": "10:00", "instructor": "Dra. Ana Souza"}
	if category != "" {
		f["category"] = category
	}
	for k, v := range extra {
		if v == nil {
			delete(f, k)
		} else {
			f[k] = v
		}
	}
	return e.publishNew(t, videos.TypeVideo, title, f)
}

// user creates a signed-in reader: "premium", "trial" or "basic".
func (e *env) user(t *testing.T, kind string) (*apptest.Client, string) {
	t.Helper()
	c, id := e.srv.SignedIn(t, fmt.Sprintf("leitor%d@teste.dev", e.seq.Add(1)))
	ctx := context.Background()
	subs := e.srv.App.Engagement.Subscriptions
	switch kind {
	case "premium":
		if err := subs.BecomePremium(ctx, id, "premium_monthly"); err != nil {
			t.Fatal(err)
		}
	case "trial":
		if err := subs.StartTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	return c, id
}

type apiError struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func errorOf(t *testing.T, r apptest.Response) apiError {
	t.Helper()
	var e apiError
	r.JSON(t, &e)
	return e
}

func list(t *testing.T, c *apptest.Client, query string) videos.Page {
	t.Helper()
	r := c.Do("GET", "/api/videos"+query, nil)
	if r.Status != 200 {
		t.Fatalf("GET /api/videos%s: %d %s", query, r.Status, r.Body)
	}
	var p videos.Page
	r.JSON(t, &p)
	return p
}

func ids(p videos.Page) []string {
	out := make([]string, len(p.Videos))
	for i, v := range p.Videos {
		out[i] = v.ID
	}
	return out
}
