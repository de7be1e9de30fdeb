package runtime

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// NewServer builds an *mcp.Server named windows-dev-agent serving every tool of reg,
// with the host's initialize instructions.
func NewServer(reg *tools.Registry, opts Options) *mcp.Server {
	opts = opts.filled()
	s := mcp.NewServer(&mcp.Implementation{Name: wda.ServerName, Title: "Windows Dev Agent", Version: wda.Version},
		&mcp.ServerOptions{
			Instructions: instructions(opts),
			Logger:       opts.Logger,
			// The tool list never changes while serving: no listChanged promise.
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
		})
	Mount(s, reg, opts)
	return s
}

// Mount adds the tools of reg to s, each behind its own pipeline. Tools of s that are
// not in reg are not touched. It returns the initialize instructions (the host's, and the
// managed policy's line when one is in force), for an
// embedder to merge into its own server's (NewServer sets them itself).
func Mount(s *mcp.Server, reg *tools.Registry, opts Options) string {
	opts = opts.filled()
	for _, t := range reg.Tools() {
		r := schema.Of(t)
		s.AddTool(wireTool(t, r, opts.Host), (&pipeline{tool: t, schemas: r, opts: opts}).handle)
	}
	return instructions(opts)
}

// instructions are the host's initialize instructions and, when a managed policy is
// in force, one line saying so, where from and its hash (docs/policy.md, "What is
// shown"); nothing more when there is none.
func instructions(opts Options) string {
	text := opts.Host.Instructions()
	if line := opts.Policy.Summary(); line != "" {
		if text != "" {
			text += "\n"
		}
		text += line
	}
	return text
}

// MCPTool is the wire description of t as host h advertises it (nil: generic).
func MCPTool(t tools.Tool, h host.Host) *mcp.Tool {
	if h == nil {
		h = host.Generic{}
	}
	return wireTool(t, schema.Of(t), h)
}

func wireTool(t tools.Tool, r *schema.Rendered, h host.Host) *mcp.Tool {
	a := t.Annotations()
	in := r.InJSON
	if adv := h.AdvertisedSchema(t, r.In); adv != r.In {
		in = schema.Compact(adv)
	}
	return &mcp.Tool{
		Name:         t.Name(),
		Title:        t.Title(),
		Description:  t.Description(),
		InputSchema:  in,
		OutputSchema: r.OutJSON,
		// The title once: Tool.title (MCP 2025-06-18 and later) is what hosts show;
		// annotations.title would repeat it in every tools/list (issue 24).
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: new(a.Destructive),
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   new(a.OpenWorld),
		},
	}
}
