package hostcheck

// Client is one pinned npm package a check runs: Bin is the name of its command in the
// package's "bin" field.
type Client struct {
	Package, Version, Bin string
}

// The pinned clients of these checks. The MCP Inspector runs the MCPB bundle's live
// comparison; the lead's own Inspector checks pin the same version.
var (
	Copilot   = Client{"@github/copilot", "1.0.102", "copilot"}
	MCPB      = Client{"@anthropic-ai/mcpb", "2.1.2", "mcpb"}
	Gemini    = Client{"@google/gemini-cli", "0.61.0", "gemini"}
	Inspector = Client{"@modelcontextprotocol/inspector", "2.12.0", "mcp-inspector"}
)

// NPMClients are installed by Install.
var NPMClients = []Client{Copilot, MCPB, Gemini, Inspector}

// The MCP Registry's publisher, built from its Go module by `go install`; the module's
// own validator is built from the same version (regvalidate.go.txt).
const (
	RegistryModule  = "github.com/modelcontextprotocol/registry"
	RegistryVersion = "v1.8.9"
	PublisherPkg    = RegistryModule + "/cmd/publisher"
)
