package scaffold_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/plugins/scaffold"
)

func TestCreateRefusesBadOrTakenIDs(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"", "Minha", "minha_ferramenta", "-x", "a--b", "x", strings.Repeat("a", 41)} {
		if _, err := scaffold.Create(dir, id, "tool"); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
	if _, err := scaffold.Create(dir, "ok", "tool"); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.Create(dir, "ok", "tool"); err == nil {
		t.Error("existing plugin overwritten")
	}
	if _, err := scaffold.Create(dir, "outro", "widget"); err == nil {
		t.Error("unknown kind accepted")
	}
}

// copyRepo copies the Go module (not git, web, admin, builds or data) so the
// test can add a plugin without touching the real tree.
func copyRepo(t *testing.T, from, to string) {
	t.Helper()
	// The top level's web/, admin/ and builds are not the Go module's; a
	// plugin's own web/ folder (and the scaffold's view template) is.
	topSkip := map[string]bool{"web": true, "admin": true, "bin": true, ".data": true}
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() && (topSkip[rel] || d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestScaffoldedToolWorksWithoutCoreOrWebEdits does what a plugin author
// does: make plugin-new (a form tool, and a tool with its own page), make
// plugins, start the core, call the tools through the HTTP API. Only files
// under plugins/<id>/ are added: the page, too, is plugins/<id>/web/View.tsx,
// which the PWA's build finds by itself (web/src/features/ferramentas).
func TestScaffoldedToolWorksWithoutCoreOrWebEdits(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	copyRepo(t, root, repo)
	before := treeDigest(t, repo)

	run(t, repo, "make", "--no-print-directory", "plugin-new", "ID=minha-ferramenta")
	run(t, repo, "make", "--no-print-directory", "plugin-new", "ID=meu-painel", "KIND=view")
	after := treeDigest(t, repo)
	for _, line := range strings.Split(after, "\n") {
		if line != "" && !strings.Contains(before, line) &&
			!strings.HasPrefix(line, filepath.Join(repo, "plugins", "minha-ferramenta")+"/") &&
			!strings.HasPrefix(line, filepath.Join(repo, "plugins", "meu-painel")+"/") {
			t.Fatalf("the scaffold wrote outside the new plugins' folders: %s", line)
		}
	}
	view, err := os.ReadFile(filepath.Join(repo, "plugins", "meu-painel", "web", "View.tsx"))
	if err != nil || !strings.Contains(string(view), "export default function View({ tool }: ToolViewProps)") ||
		!strings.Contains(string(view), "toolFetch<{ message: string }>(tool.id, 'saudacao')") {
		t.Fatalf("the view's page: %v\n%s", err, view)
	}
	run(t, repo, "go", "test", "-count=1", "./plugins/minha-ferramenta/", "./plugins/meu-painel/")
	run(t, repo, "make", "--no-print-directory", "plugins")

	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": filepath.Join(repo, "bin", "plugins")})
	c, _ := srv.SignedIn(t, "dev@exemplo.com.br")
	var list struct {
		Tools []struct {
			ID, Slug, Name string
			UIKind         string `json:"ui_kind"`
			UISchema       struct {
				Forms []struct{ Action string }
			} `json:"ui_schema"`
		}
	}
	c.Do("GET", "/api/tools", nil).JSON(t, &list)
	found, seen := 0, map[string]bool{}
	for _, tool := range list.Tools {
		// A plugin may list further pages (Manifest.Pages): a slug is one entry.
		if seen[tool.Slug] {
			t.Errorf("slug %s listed twice", tool.Slug)
		}
		seen[tool.Slug] = true
		switch tool.ID {
		case "minha-ferramenta":
			found++
			if tool.Slug != "minha-ferramenta" || tool.Name != "Minha Ferramenta" || tool.UIKind != "form" || len(tool.UISchema.Forms) != 1 {
				t.Errorf("listed as %+v", tool)
			}
		case "meu-painel":
			found++
			if tool.Slug != "meu-painel" || tool.Name != "Meu Painel" || tool.UIKind != "custom" {
				t.Errorf("listed as %+v", tool)
			}
		}
	}
	if found != 2 || !seen["calculadoras"] {
		t.Fatalf("tools = %+v, want the in-tree tools, minha-ferramenta and meu-painel", list.Tools)
	}
	var greeting struct{ Message string }
	if res := c.Do("GET", "/api/tools/meu-painel/saudacao", nil); res.Status != 200 {
		t.Fatalf("saudacao: %d %s", res.Status, res.Body)
	} else if res.JSON(t, &greeting); !strings.HasPrefix(greeting.Message, "Olá, ") {
		t.Errorf("saudacao = %q", greeting.Message)
	}
	res := c.Do("POST", "/api/tools/minha-ferramenta/calculo", map[string]any{"peso": 2.5})
	var out struct {
		Values []struct {
			Number  float64
			Display string
		}
	}
	res.JSON(t, &out)
	if res.Status != 200 || len(out.Values) != 1 || out.Values[0].Number != 2500 || out.Values[0].Display != "2.500 g" {
		t.Fatalf("calculo: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/tools/minha-ferramenta/calculo", map[string]any{"peso": -1})
	if res.Status != 422 || res.ErrorMessage() != "Verifique os campos destacados." {
		t.Errorf("invalid input: %d %s", res.Status, res.Body)
	}
}

func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b.WriteString(path + " " + info.ModTime().String() + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A content type scaffolded from the template appears in the backoffice's
// types and in the public list API, and goes through the editorial workflow,
// with no edit under core/ (nor web/ or admin/: the scaffold writes only
// plugins/<id>/, checked below).
func TestScaffoldedContentTypeWorksWithoutEdits(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	copyRepo(t, root, repo)
	before := treeDigest(t, repo)

	run(t, repo, "make", "--no-print-directory", "plugin-new", "ID=boletins", "KIND=content")
	after := treeDigest(t, repo)
	for _, line := range strings.Split(after, "\n") {
		if line != "" && !strings.Contains(before, line) && !strings.HasPrefix(line, filepath.Join(repo, "plugins", "boletins")+"/") {
			t.Fatalf("the scaffold wrote outside plugins/boletins: %s", line)
		}
	}
	run(t, repo, "go", "test", "-count=1", "./plugins/boletins/")
	run(t, repo, "make", "--no-print-directory", "plugins")

	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": filepath.Join(repo, "bin", "plugins")})
	editor, _ := srv.SignedIn(t, "editora@exemplo.com.br", "editor")
	revisor, _ := srv.SignedIn(t, "revisor@exemplo.com.br", "revisor")
	var types []struct{ ID, Route string }
	editor.Do("GET", "/api/admin/content/types", nil).JSON(t, &types)
	found := false
	for _, ty := range types {
		found = found || (ty.ID == "boletins" && ty.Route == "/boletins")
	}
	if !found {
		t.Fatalf("backoffice types: %+v", types)
	}

	res := editor.Do("POST", "/api/admin/content/boletins", map[string]any{"title": "Primeiro boletim", "summary": "Resumo",
		"fields": map[string]any{"body": "Lorem ipsum dolor sit amet, texto de exemplo.", "category": "geral"}})
	if res.Status != 422 || !strings.Contains(string(res.Body), "Substitua o texto de exemplo") {
		t.Fatalf("the plugin's hook did not refuse the placeholder: %d %s", res.Status, res.Body)
	}
	res = editor.Do("POST", "/api/admin/content/boletins", map[string]any{"title": "Primeiro boletim", "summary": "Resumo",
		"fields": map[string]any{"body": "Notícias da semana para a equipe da clínica.", "category": "geral"}})
	var it struct {
		ID      string
		Version int
	}
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &it)
	for _, step := range []struct {
		c      *apptest.Client
		action string
	}{{editor, "submit"}, {revisor, "approve"}, {revisor, "publish"}} {
		res := step.c.Do("POST", "/api/admin/content/boletins/"+it.ID+"/actions/"+step.action, map[string]any{"version": it.Version})
		if res.Status != 200 {
			t.Fatalf("%s: %d %s", step.action, res.Status, res.Body)
		}
		res.JSON(t, &it)
	}
	var page struct{ Items []struct{ Title string } }
	srv.Client(t).Do("GET", "/api/content/boletins", nil).JSON(t, &page)
	if len(page.Items) != 1 || page.Items[0].Title != "Primeiro boletim" {
		t.Fatalf("public list: %+v", page)
	}
}
