// Package scaffold creates a new, working plugin under plugins/<id>/ from
// a template in template/<kind>/: a form tool ("tool"), a tool with its own
// page ("view": Go plus plugins/<id>/web/View.tsx) or a content type
// ("content"). `make plugin-new ID=… [KIND=view|content]` runs it; `make
// plugins` then builds it and `make run` loads it, with no change in core/,
// web/ or admin/.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/vetclube/vetclube/plugins/sdk"
)

//go:embed template/tool/*.tmpl template/content/*.tmpl template/view/*.tmpl template/view/web/*.tmpl
var files embed.FS

// Scaffold kinds: a form tool, a tool with its own page, a content type.
const (
	KindTool    = sdk.KindTool
	KindView    = "view"
	KindContent = sdk.KindContent
)

// Create writes plugins/<id>/ under pluginsDir from the template of kind
// (KindTool, KindView or KindContent) and returns its path.
func Create(pluginsDir, id, kind string) (string, error) {
	if kind != KindTool && kind != KindView && kind != KindContent {
		return "", fmt.Errorf("kind %q: use %s, %s or %s", kind, KindTool, KindView, KindContent)
	}
	// The SDK's rule, the one the plugin's own manifest is checked against.
	if !sdk.ValidID(id) {
		return "", fmt.Errorf("id %q: use %d to %d characters of lowercase words joined by dashes, e.g. minha-ferramenta", id, sdk.MinIDLength, sdk.MaxIDLength)
	}
	dir := filepath.Join(pluginsDir, id)
	if _, err := os.Stat(dir); err == nil {
		return "", fmt.Errorf("%s already exists", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	data := map[string]string{"ID": id, "Name": title(id)}
	root := "template/" + kind
	err := fs.WalkDir(files, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		tpl, err := template.New(d.Name()).Delims("[[", "]]").Parse(string(raw))
		if err != nil {
			return fmt.Errorf("template %s: %w", path, err)
		}
		var out bytes.Buffer
		if err := tpl.Execute(&out, data); err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(strings.TrimPrefix(path, root+"/"), ".tmpl")))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, out.Bytes(), 0o644)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// title turns "minha-ferramenta" into "Minha Ferramenta".
func title(id string) string {
	words := strings.Split(id, "-")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
