package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/gen"
)

// run fills the committed template from the bundles in a folder, and writes nothing
// when one is missing.
func TestRunFillsFromTheBundles(t *testing.T) {
	t.Parallel()
	tmpl := filepath.Join("..", "..", "..", "dist", filepath.FromSlash(gen.RegistryTemplatePath))
	assets, out := t.TempDir(), filepath.Join(t.TempDir(), "server.json")
	want := map[string]string{}
	for _, arch := range gen.MCPBArchs[:1] {
		body := []byte("bundle " + arch)
		if err := os.WriteFile(filepath.Join(assets, gen.MCPBAsset(arch)), body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		want[arch] = hex.EncodeToString(sum[:])
	}
	if err := run(tmpl, assets, out); err == nil {
		t.Fatal("filled with a bundle missing")
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("wrote a file although a bundle was missing")
	}
	for _, arch := range gen.MCPBArchs[1:] {
		body := []byte("bundle " + arch)
		if err := os.WriteFile(filepath.Join(assets, gen.MCPBAsset(arch)), body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		want[arch] = hex.EncodeToString(sum[:])
	}
	if err := run(tmpl, assets, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Packages []struct{ Identifier, FileSha256 string }
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Packages) != len(gen.MCPBArchs) {
		t.Fatalf("packages %+v", s.Packages)
	}
	for i, arch := range gen.MCPBArchs {
		p := s.Packages[i]
		if !strings.HasSuffix(p.Identifier, "/"+gen.MCPBAsset(arch)) || p.FileSha256 != want[arch] {
			t.Errorf("%s: package %+v, want sha %s", arch, p, want[arch])
		}
	}
}
