package classify

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

// The three names a host gives this server's tools: the direct (project .mcp.json)
// server key, the installed Claude plugin form mcp__plugin_<plugin>_<server>__, and
// Codex's underscore server key.
const (
	PrefixClaude       = "mcp__windows-dev-agent__"
	PrefixClaudePlugin = "mcp__plugin_windows-dev-agent_windows-dev-agent__"
	PrefixCodex        = "mcp__windows_dev_agent__"
)

// ShellTools are the host tool names whose tool_input.command is a shell command line.
var ShellTools = []string{"Bash", "PowerShell"}

// Spec is what a hook knows about one of this server's tools: the declarations of its
// definition (docs/architecture.md, "What a tool declares"). The hooks link a
// generated table of the shipped tools (Shipped), never the tools themselves, so a
// hook process starts without the tool packages and the MCP SDK.
type Spec struct {
	Name       string
	ProjectArg string
	Classes    tools.Classification
	Starts     tools.Cond
	PlanFirst  bool
	Statuses   []string
}

// SpecOf is t's Spec.
func SpecOf(t tools.Tool) Spec {
	return Spec{Name: t.Name(), ProjectArg: t.ProjectArg(), Classes: t.Classification(), Starts: t.Starts(),
		PlanFirst: t.PlanFirst(), Statuses: t.Statuses()}
}

// Specs are the tools a hook knows, by short name.
type Specs []Spec

// Lookup returns the spec of a short tool name.
func (s Specs) Lookup(short string) (Spec, bool) {
	for _, sp := range s {
		if sp.Name == short {
			return sp, true
		}
	}
	return Spec{}, false
}

// Find returns the spec behind a tool name with any of the three prefixes.
func (s Specs) Find(toolName string) (Spec, bool) {
	short, ok := ShortName(toolName)
	if !ok {
		return Spec{}, false
	}
	return s.Lookup(short)
}

// ShortName strips any of the three prefixes: ("env_inspect", true) for
// "mcp__windows_dev_agent__env_inspect"; ("", false) for a name that is not one of
// this server's tools.
func ShortName(toolName string) (string, bool) {
	for _, p := range []string{PrefixClaudePlugin, PrefixClaude, PrefixCodex} {
		if s, ok := strings.CutPrefix(toolName, p); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// IsShell reports whether toolName is Bash or PowerShell.
func IsShell(toolName string) bool { return toolName == "Bash" || toolName == "PowerShell" }

// Tool returns the safety class of a hook event's call. input is the decoded
// tool_input (nil for a non-object); decode it with json.Decoder.UseNumber so numbers
// reach the classification as they would after validation. The arguments are not
// validated: the classification tests values strictly (execute must be exactly true),
// so an argument the server would reject cannot lower the class, and an extra argument
// (a fake user_approved) is ignored. catalog is the capability catalog in force (the
// same one the server uses). A tool missing from specs is approval-required: the
// classifier fails closed.
func Tool(specs Specs, catalog tools.CatalogLookup, toolName string, input map[string]any) tools.Class {
	c, _ := Decide(specs, catalog, toolName, input)
	return c
}

// Decide is Tool with the reason, a sentence for hook messages: the shell classifier's
// (Explain) for Bash and PowerShell, otherwise which tool decided.
func Decide(specs Specs, catalog tools.CatalogLookup, toolName string, input map[string]any) (tools.Class, string) {
	return DecideWith(specs, tools.Oracles{Catalog: catalog}, toolName, input)
}

// DecideWith is Decide with every oracle of the classification: the catalog's classes
// and, when the caller has them, its argv (o.CatalogArgv), so extra arguments are
// classified after the capability's own argv as the server does. A command line in a
// tool's arguments (a rule's Command, extra arguments) goes through this package's
// shell classifier whatever o.Shell says.
func DecideWith(specs Specs, o tools.Oracles, toolName string, input map[string]any) (tools.Class, string) {
	if IsShell(toolName) {
		cmd, _ := input["command"].(string)
		return Explain(cmd)
	}
	sp, ok := specs.Find(toolName)
	if !ok {
		return tools.ApprovalRequired, fmt.Sprintf("%s is not a Windows Dev Agent tool this version knows", clip(toolName))
	}
	if input == nil {
		input = map[string]any{}
	}
	var forbidden string // the shell classifier's reason, when it forbids a command
	o.Shell = func(cmd string) tools.Class {
		c, why := Explain(cmd)
		if c == tools.Forbidden && forbidden == "" {
			forbidden = why
		}
		return c
	}
	c := sp.Classes.With(tools.Args(input), o)
	if c == tools.Forbidden && forbidden != "" {
		return c, fmt.Sprintf("%s would run a command the shell classifier forbids: %s", sp.Name, forbidden)
	}
	return c, fmt.Sprintf("%s declares this class for these arguments", sp.Name)
}

// Argv classifies an argument vector that starts a program without a shell (a catalog
// capability's argv, with any extra arguments) as the command line it becomes on
// Windows (tools.CommandLine), which is also the line cmd.exe or PowerShell parse again
// when the argv starts one of them.
func Argv(argv []string) (tools.Class, string) {
	return Explain(tools.CommandLine(argv))
}
