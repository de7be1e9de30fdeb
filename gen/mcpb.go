package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/mcpb"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// MCPBRoot is the MCP Bundle payload (Claude Desktop, Windows' On-device Agent
// Registry; docs/hosts/mcpb.md). The release packs it, with bin/wda.exe, into one
// .mcpb per Windows architecture.
const MCPBRoot = "mcpb"

// MCPBManifestVersion is the bundle manifest version: 0.3 is the first with _meta
// (mcpb 2.1.2 rejects _meta under 0.2) and the one the MCPB spec calls current; 0.4
// only adds the experimental uv server type.
const MCPBManifestVersion = "0.3"

// WindowsMetaKey is the _meta namespace Windows reads a bundle's static responses from.
const WindowsMetaKey = "com.microsoft.windows"

type mcpbRepository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type mcpbCommand struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

type mcpbConfig struct {
	Command           string                 `json:"command"`
	Args              []string               `json:"args"`
	PlatformOverrides map[string]mcpbCommand `json:"platform_overrides"`
}

type mcpbServer struct {
	Type       string     `json:"type"`
	EntryPoint string     `json:"entry_point"`
	MCPConfig  mcpbConfig `json:"mcp_config"`
}

type mcpbTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type mcpbCompatibility struct {
	Platforms []string `json:"platforms"`
}

type mcpbManifest struct {
	Schema          string            `json:"$schema"`
	ManifestVersion string            `json:"manifest_version"`
	Name            string            `json:"name"`
	DisplayName     string            `json:"display_name"`
	Version         string            `json:"version"`
	Description     string            `json:"description"`
	LongDescription string            `json:"long_description"`
	Author          person            `json:"author"`
	Repository      mcpbRepository    `json:"repository"`
	Homepage        string            `json:"homepage"`
	License         string            `json:"license"`
	Keywords        []string          `json:"keywords"`
	Server          mcpbServer        `json:"server"`
	Tools           []mcpbTool        `json:"tools"`
	ToolsGenerated  bool              `json:"tools_generated"`
	Compatibility   mcpbCompatibility `json:"compatibility"`
	Meta            map[string]any    `json:"_meta"`
}

// MCPBProtocolVersion is the protocol version of the static initialize answer: the
// first MCP revision with tool titles and output schemas, which the static tools/list
// carries, and so the oldest that answer is true for. A host that serves it to a newer
// client negotiates down as MCP allows; the server itself answers a newer request
// with that newer version.
const MCPBProtocolVersion = "2025-06-18"

// StaticResponses are the answers Windows may serve for a bundle without starting it:
// exactly what `wda mcp --host mcpb` answers to an initialize asking for
// MCPBProtocolVersion, and then to tools/list.
type StaticResponses struct {
	Initialize json.RawMessage `json:"initialize"`
	ToolsList  json.RawMessage `json:"tools/list"`
}

// MCPBStaticResponses asks a server built from reg with the MCPB adapter, over an
// in-memory connection: the same runtime.NewServer, tool rendering and host schema
// adjustments `wda mcp --host mcpb` serves, so the manifest cannot drift from the
// server.
func MCPBStaticResponses(reg *tools.Registry) (StaticResponses, error) {
	ctx := context.Background()
	srv := runtime.NewServer(reg, runtime.Options{Host: mcpb.New(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return StaticResponses{}, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wda-gen", Version: wda.Version}, nil).Connect(ctx, ct,
		&mcp.ClientSessionOptions{ProtocolVersion: MCPBProtocolVersion})
	if err != nil {
		return StaticResponses{}, err
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return StaticResponses{}, err
	}
	if list.NextCursor != "" {
		return StaticResponses{}, fmt.Errorf("tools/list has more than one page")
	}
	var out StaticResponses
	if out.Initialize, err = json.Marshal(cs.InitializeResult()); err != nil {
		return out, err
	}
	out.ToolsList, err = json.Marshal(list)
	return out, err
}

func renderMCPB(reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	static, err := MCPBStaticResponses(reg)
	if err != nil {
		return err
	}
	var ts []mcpbTool
	for _, t := range reg.Tools() {
		ts = append(ts, mcpbTool{Name: t.Name(), Description: t.Description()})
	}
	m := mcpbManifest{
		Schema:          "https://raw.githubusercontent.com/modelcontextprotocol/mcpb/main/schemas/mcpb-manifest-v0.3.schema.json",
		ManifestVersion: MCPBManifestVersion,
		Name:            wda.ServerName,
		DisplayName:     displayName,
		Version:         wda.Version,
		Description:     "Windows development over MCP: environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits.",
		LongDescription: "Ten MCP tools for Windows development: tri-state environment discovery, tool discovery, capability routing and plan-first execution, WinGet/Chocolatey/Scoop search and install, WSL, Dev Container and Windows Sandbox isolation, ecosystem and MCP-config audits, and a metadata-only audit log. Project-scoped tools take the absolute path of the project folder; the host keeps approval and the server blocks forbidden calls.",
		Author:          person{Name: author, URL: homepage},
		Repository:      mcpbRepository{Type: "git", URL: homepage},
		Homepage:        homepage,
		License:         license,
		Keywords:        keywords,
		Server: mcpbServer{
			Type:       "binary",
			EntryPoint: "bin/wda.exe",
			// The bundle is built for Windows only (compatibility.platforms), so the
			// win32 override is what hosts run; the extensionless base command lets a
			// check start the same manifest with this machine's bin/wda.
			MCPConfig: mcpbConfig{
				Command:           "${__dirname}/bin/wda",
				Args:              []string{"mcp", "--host", "mcpb"},
				PlatformOverrides: map[string]mcpbCommand{"win32": {Command: "${__dirname}/bin/wda.exe"}},
			},
		},
		Tools:          ts,
		ToolsGenerated: false,
		Compatibility:  mcpbCompatibility{Platforms: []string{"win32"}},
		Meta:           map[string]any{WindowsMetaKey: map[string]any{"static_responses": static}},
	}
	b, err := MarshalJSON(m)
	if err != nil {
		return err
	}
	files[path.Join(MCPBRoot, "manifest.json")] = b
	return renderPayloadDocs(MCPBRoot, "MCPB", reg, all, files)
}
