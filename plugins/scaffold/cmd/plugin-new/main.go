// Command plugin-new scaffolds a plugin: plugin-new -id minha-ferramenta
// (a form tool), -kind view (a tool with its own page, web/View.tsx in its
// folder) or -kind content (a content type).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/vetclube/vetclube/plugins/scaffold"
)

func main() {
	id := flag.String("id", "", "plugin id, e.g. minha-ferramenta")
	dir := flag.String("dir", "plugins", "directory holding the plugins")
	kind := flag.String("kind", "tool", "tool (a form tool), view (a tool with its own page) or content (a content type)")
	flag.Parse()
	path, err := scaffold.Create(*dir, *id, *kind)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plugin-new:", err)
		os.Exit(1)
	}
	if *kind == "content" {
		fmt.Printf("created %s\nnext: make plugins && make run, then open /%s in the app and the backoffice\n", path, *id)
		return
	}
	fmt.Printf("created %s\nnext: make plugins && make run, then open /ferramentas/%s\n", path, *id)
}
