package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/pluginhost"
)

var pluginsDir string

// TestMain builds this plugin into a temporary plugin directory, so the
// tests run it as a real process behind a real core.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "swot-plugin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, Manifest.ID)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build plugin:", err)
		os.Exit(1)
	}
	if err := pluginhost.RecordChecksum(bin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginsDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type analysis struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Quadrants Quadrants `json:"quadrants"`
	Version   int       `json:"version"`
}

func TestSWOTIsSavedPerUser(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginsDir})
	ana, _ := srv.SignedIn(t, "ana@exemplo.com.br")
	bia, _ := srv.SignedIn(t, "bia@exemplo.com.br")
	const base = "/api/tools/analise-swot/analyses"

	res := ana.Do("POST", base, map[string]any{"title": "Clínica 2027", "quadrants": map[string]any{
		"strengths": []string{"Equipe experiente", "  ", "Boa localização"}, "threats": []string{"Concorrência"},
	}})
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	var a analysis
	res.JSON(t, &a)
	if a.Version != 1 || len(a.Quadrants.Strengths) != 2 || a.Quadrants.Weaknesses == nil {
		t.Fatalf("created %+v", a)
	}

	// Bia sees nothing of Ana's, by list or by id, and cannot change or delete it.
	var list struct{ Analyses []analysis }
	bia.Do("GET", base, nil).JSON(t, &list)
	if len(list.Analyses) != 0 {
		t.Fatalf("bia lists %+v", list.Analyses)
	}
	for _, method := range []string{"GET", "PUT", "DELETE"} {
		body := map[string]any{"title": "invadida", "version": 1}
		if method != "PUT" {
			body = nil
		}
		if res := bia.Do(method, base+"/"+a.ID, body); res.Status != 404 || res.ErrorMessage() != "Análise não encontrada." {
			t.Errorf("bia %s ana's analysis: %d %s", method, res.Status, res.Body)
		}
	}

	// Ana reorders items; the order is kept.
	a.Quadrants.Strengths = []string{"Boa localização", "Equipe experiente"}
	res = ana.Do("PUT", base+"/"+a.ID, map[string]any{"title": a.Title, "quadrants": a.Quadrants, "version": 1})
	var updated analysis
	res.JSON(t, &updated)
	if res.Status != 200 || updated.Version != 2 || updated.Quadrants.Strengths[0] != "Boa localização" {
		t.Fatalf("update: %d %s", res.Status, res.Body)
	}
	// A stale tab (still at version 1) is refused instead of overwriting.
	res = ana.Do("PUT", base+"/"+a.ID, map[string]any{"title": "Outra aba", "quadrants": a.Quadrants, "version": 1})
	if res.Status != 409 {
		t.Errorf("stale update: %d %s", res.Status, res.Body)
	}
	if res := ana.Do("POST", base, map[string]any{"title": "  "}); res.Status != 422 || res.ErrorMessage() != "Verifique os campos destacados." {
		t.Errorf("empty title: %d %s", res.Status, res.Body)
	}

	ana.Do("GET", base, nil).JSON(t, &list)
	if len(list.Analyses) != 1 || list.Analyses[0].Title != "Clínica 2027" {
		t.Fatalf("ana lists %+v", list.Analyses)
	}
	if res := ana.Do("DELETE", base+"/"+a.ID, nil); res.Status != 204 {
		t.Fatalf("delete: %d", res.Status)
	}
	if res := ana.Do("GET", base+"/"+a.ID, nil); res.Status != 404 {
		t.Errorf("after delete: %d", res.Status)
	}
}

func TestToolsRequireSignIn(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginsDir})
	visitor := srv.Client(t)
	if res := visitor.Do("GET", "/api/tools", nil); res.Status != 401 {
		t.Errorf("visitor GET /api/tools: %d", res.Status)
	}
	if res := visitor.Do("GET", "/api/tools/analise-swot/analyses", nil); res.Status != 401 {
		t.Errorf("visitor on a tool: %d", res.Status)
	}
	c, _ := srv.SignedIn(t, "carla@exemplo.com.br")
	var list struct {
		Tools []struct{ ID, UIKind string }
	}
	c.Do("GET", "/api/tools", nil).JSON(t, &list)
	if len(list.Tools) != 1 || list.Tools[0].ID != "analise-swot" {
		t.Errorf("tools = %+v", list.Tools)
	}
}

// NUL and other control characters cannot be stored (PostgreSQL refuses NUL
// in text and jsonb): the SDK refuses them while decoding, with the field.
func TestControlCharactersAreRefusedWithTheField(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginsDir})
	ana, _ := srv.SignedIn(t, "ana@exemplo.com.br")
	const base = "/api/tools/analise-swot/analyses"
	cases := []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"title": "Clínica\x002027"}, "title"},
		{map[string]any{"title": "Clínica 2027", "quadrants": map[string]any{"strengths": []string{"Equipe", "Boa\x00localização"}}}, "strengths"},
		{map[string]any{"title": "Clínica 2027", "quadrants": map[string]any{"threats": []string{"Concorrência\x1b[2J"}}}, "threats"},
	}
	for _, c := range cases {
		res := ana.Do("POST", base, c.body)
		var e struct {
			Error struct{ Fields map[string]string }
		}
		res.JSON(t, &e)
		if res.Status != 422 || e.Error.Fields[c.field] != "Este campo contém caracteres de controle não permitidos." {
			t.Errorf("%v: %d %s", c.body, res.Status, res.Body)
		}
	}
	// Nothing was saved, and text with line breaks is still accepted.
	res := ana.Do("POST", base, map[string]any{"title": "Clínica 2027", "quadrants": map[string]any{"strengths": []string{"Equipe\nexperiente"}}})
	if res.Status != 201 {
		t.Fatalf("line break refused: %d %s", res.Status, res.Body)
	}
	var list struct{ Analyses []analysis }
	ana.Do("GET", base, nil).JSON(t, &list)
	if len(list.Analyses) != 1 || list.Analyses[0].Quadrants.Strengths[0] != "Equipe\nexperiente" {
		t.Fatalf("saved %+v", list.Analyses)
	}
}
