// Command release checks the published release identity, or writes the index file for
// a new release.
//
//	go run ./gen/cmd/release check           # passes when no index is published
//	go run ./gen/cmd/release index <sha>     # writes .agents/plugins/marketplace.json
//
// To publish: commit the payload (P), run `index P`, and commit only the index file as
// the next commit (I). Development continues on top of I.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/windows-dev-agent/wda/gen/release"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 1 && args[0] == "check":
		g, err := release.NewGit(".")
		if err != nil {
			return err
		}
		if err := release.Check(context.Background(), g); err != nil {
			return err
		}
		fmt.Println("release identity: ok")
		return nil
	case len(args) == 2 && args[0] == "index":
		b, err := release.Index(args[1])
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(release.IndexPath), 0o755); err != nil {
			return err
		}
		tmp := release.IndexPath + ".tmp"
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, release.IndexPath)
	}
	return fmt.Errorf("usage: release check | release index <40-hex sha>")
}
