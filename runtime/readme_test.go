package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadmeEmbedding (issue 25 §3): the program README.md gives embedders is
// internal/embedexample's, which go vet ./... compiles, so the README cannot show one
// that does not build (it showed a snippet without the tools/all import, which
// panicked when copied).
func TestReadmeEmbedding(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile(filepath.Join("internal", "embedexample", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Embedding the tools in your own Go MCP server")
	if !ok {
		t.Fatal("README.md has no embedding section")
	}
	_, block, ok := strings.Cut(section, "```go\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		t.Fatal("the embedding section has no Go block")
	}
	_, want, _ := strings.Cut(string(prog), "\npackage main\n")
	if diff := cmp.Diff("package main\n"+want, block); diff != "" {
		t.Errorf("README's embedding program differs from internal/embedexample/main.go (-file +README):\n%s", diff)
	}
}
