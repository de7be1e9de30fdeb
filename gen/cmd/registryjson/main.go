// Command registryjson fills the MCP Registry template (dist/registry/server.json)
// with the SHA-256 of each packed .mcpb it names, for the release to publish:
//
//	go run ./gen/cmd/registryjson -assets DIR [-template dist/registry/server.json] -out server.json
//
// DIR holds the final bundles under their asset names (gen.MCPBAsset). It fails, and
// writes nothing, when an asset is missing or a placeholder would remain.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/windows-dev-agent/wda/gen"
)

func main() {
	tmpl := flag.String("template", filepath.Join("dist", filepath.FromSlash(gen.RegistryTemplatePath)), "server.json template")
	assets := flag.String("assets", "", "directory holding the packed .mcpb files")
	out := flag.String("out", "", "where to write the filled server.json")
	flag.Parse()
	if *assets == "" || *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: registryjson -assets DIR [-template FILE] -out FILE")
		os.Exit(2)
	}
	if err := run(*tmpl, *assets, *out); err != nil {
		fmt.Fprintln(os.Stderr, "registryjson:", err)
		os.Exit(1)
	}
}

func run(tmpl, assets, out string) error {
	src, err := os.ReadFile(tmpl)
	if err != nil {
		return err
	}
	filled, err := gen.FillServerJSON(src, func(asset string) (string, error) { return fileSHA256(filepath.Join(assets, asset)) })
	if err != nil {
		return err
	}
	return gen.WriteFile(out, filled)
}

func fileSHA256(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
