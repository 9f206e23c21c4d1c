// Command plugin-new scaffolds a form-tool plugin: plugin-new -id minha-ferramenta.
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
	flag.Parse()
	path, err := scaffold.Create(*dir, *id)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plugin-new:", err)
		os.Exit(1)
	}
	fmt.Printf("created %s\nnext: make plugins && make run, then open /ferramentas/%s\n", path, *id)
}
