// Command gendist writes what go generate derives from the tool registry: the host
// payloads under a dist directory (every file Render returns, written atomically, and
// every other generated-looking file under the payload roots removed so a renamed
// output cannot linger; bin/ folders are left alone), and the hooks' table of the
// shipped tools (gen.ShippedTablePath).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

func main() {
	out := flag.String("out", "dist", "dist directory")
	table := flag.String("table", gen.ShippedTablePath, "path of the hooks' table of the shipped tools")
	flag.Parse()
	if err := run(*out, *table); err != nil {
		fmt.Fprintln(os.Stderr, "gendist:", err)
		os.Exit(1)
	}
}

func run(out, table string) error {
	files, err := gen.Render(tools.Default())
	if err != nil {
		return err
	}
	if err := gen.Write(out, files); err != nil {
		return err
	}
	cat, err := catalog.Shipped()
	if err != nil {
		return err
	}
	src, err := gen.ShippedTable(tools.Default(), cat)
	if err != nil {
		return err
	}
	return gen.WriteFile(table, src)
}
