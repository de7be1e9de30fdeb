// Command gendist writes the generated host payloads into a dist directory: every file
// Render returns, written atomically, and every other tracked-looking file under the
// payload roots removed so a renamed output cannot linger. bin/ folders (build
// outputs) are left alone.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

func main() {
	out := flag.String("out", "dist", "dist directory")
	flag.Parse()
	files, err := gen.Render(tools.Default())
	if err == nil {
		err = gen.Write(*out, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendist:", err)
		os.Exit(1)
	}
}
