// Package scaffold creates a new, working plugin under plugins/<id>/ from
// a template in template/<kind>/: a form tool (KindTool) or a content type
// (KindContent). `make plugin-new ID=… [KIND=content]` runs it; `make
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

//go:embed template/tool/*.tmpl template/content/*.tmpl
var files embed.FS

// Create writes plugins/<id>/ under pluginsDir from the template of kind
// (sdk.KindTool or sdk.KindContent) and returns its path.
func Create(pluginsDir, id, kind string) (string, error) {
	if kind != sdk.KindTool && kind != sdk.KindContent {
		return "", fmt.Errorf("kind %q: use %s or %s", kind, sdk.KindTool, sdk.KindContent)
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
	entries, err := files.ReadDir("template/" + kind)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, e := range entries {
		raw, err := files.ReadFile("template/" + kind + "/" + e.Name())
		if err != nil {
			return "", err
		}
		tpl, err := template.New(e.Name()).Delims("[[", "]]").Parse(string(raw))
		if err != nil {
			return "", fmt.Errorf("template %s: %w", e.Name(), err)
		}
		var out bytes.Buffer
		if err := tpl.Execute(&out, data); err != nil {
			return "", err
		}
		name := strings.TrimSuffix(e.Name(), ".tmpl")
		if err := os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o644); err != nil {
			return "", err
		}
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
