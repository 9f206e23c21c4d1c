package jobs_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/jobs"
)

// pluginDir holds the real vagas plugin, built once for the package.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vagas-plugin-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "vagas")
	cmd := exec.Command("go", "build", "-o", bin, "../../plugins/vagas")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("build plugin: %v", err))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  vagas\n"), 0o644); err != nil {
		panic(err)
	}
	pluginDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is a running app with the vagas plugin, an editor and a revisor.
type env struct {
	srv             *apptest.Server
	editor, revisor content.Actor
	edClient        *apptest.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginDir})
	if _, ok := srv.App.Content.Registry.Get(jobs.TypeID); !ok {
		t.Fatal("the vagas plugin did not register its type")
	}
	edc, ed := srv.SignedIn(t, "editora@teste.dev", "editor")
	_, rev := srv.SignedIn(t, "revisor@teste.dev", "revisor")
	return &env{srv: srv, editor: content.Actor{UserID: ed, Channel: content.ChannelBackoffice},
		revisor: content.Actor{UserID: rev, Channel: content.ChannelBackoffice}, edClient: edc}
}

// fields are a valid job in state, applied to in VetClube, closing in 30 days.
func fields(state, city string) map[string]any {
	return map[string]any{"organization": "Clínica Patas", "city": city, "state": state, "workplace": "presencial",
		"contract": "clt", "area": "pequenos_animais", "specialty": "Clínica médica", "salary_min": 6000, "salary_max": 9000,
		"requirements": "CRMV ativo e dois anos de experiência em clínica.", "apply_kind": "vetclube",
		"closes_at": time.Now().AddDate(0, 0, 30).Format(time.DateOnly)}
}

// publish creates job title through the editorial workflow (the plugin's
// hooks run) and hands its change to core/jobs.
func (e *env) publish(t *testing.T, title string, f map[string]any) content.Item {
	t.Helper()
	ctx := context.Background()
	it, _, err := e.srv.App.Content.Store.Create(ctx, e.editor, jobs.TypeID, content.Input{Title: title, Summary: "Vaga de teste", Fields: f}, "")
	if err != nil {
		t.Fatalf("create %s: %v", title, err)
	}
	wf := e.srv.App.Content.Workflow
	for _, s := range []struct {
		a    content.Actor
		r    editorial.Role
		step editorial.Action
	}{{e.editor, editorial.RoleEditor, editorial.ActionSubmit}, {e.revisor, editorial.RoleRevisor, editorial.ActionApprove},
		{e.revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
		if it, err = wf.Act(ctx, s.a, []editorial.Role{s.r}, it.ID, it.Version, s.step, ""); err != nil {
			t.Fatalf("%s %s: %v", s.step, title, err)
		}
	}
	if _, err := e.srv.App.Jobs.SyncPending(ctx); err != nil {
		t.Fatal(err)
	}
	return it
}

// minimalPDF is a small valid PDF.
func minimalPDF(extra string) []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R " + extra + ">> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

// apply posts an application with message and, when cv is not nil, a CV.
func apply(t *testing.T, c *apptest.Client, idOrSlug, message string, cv []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("message", message); err != nil {
		t.Fatal(err)
	}
	if cv != nil {
		w, err := mw.CreateFormFile("cv", "curriculo.pdf")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(cv)
	}
	_ = mw.Close()
	req, err := http.NewRequest(http.MethodPost, c.URLFor("/api/vagas/"+idOrSlug+"/candidatura"), &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.Send(req)
}
