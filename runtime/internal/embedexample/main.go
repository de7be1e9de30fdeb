// Command embedexample is the program README.md shows under "Embedding the tools in your
// own Go MCP server", byte for byte (runtime's TestReadmeEmbedding keeps the two equal),
// so `go vet ./...` compiles what the README tells an embedder to copy. It serves two of
// the ten tools over stdio next to the embedder's own.
package main

import (
	"context"
	"log"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all" // registers the ten tools
)

func main() {
	project, err := os.Getwd() // the project the tools are bound to
	if err != nil {
		log.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		log.Fatal(err)
	}
	chosen, err := tools.Default().Subset("env_inspect", "workflow_plan")
	if err != nil {
		log.Fatal(err) // a tool name this program does not register
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	// Your own tools go on srv as usual (mcp.AddTool); Mount does not touch them.
	instructions := runtime.Mount(srv, chosen, runtime.Options{
		DataDir:    filepath.Join(cache, "mine", "wda"), // the audit log and caches
		ProjectDir: project,
	})
	_ = instructions // empty for the generic host; merge a host adapter's into yours
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
