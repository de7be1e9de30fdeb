package routing

import (
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

// Names of the tools a route can lead to (docs/tools/workflow_plan.md, "Other tools").
// The routing package cannot import the tools themselves; a test of the workflowplan
// package holds each name, argument object and class to the registered tool.
const (
	ToolCapabilityRun = "capability_run"
	ToolPackageSearch = "package_search"
	ToolEnvInspect    = "env_inspect"
	ToolToolDiscover  = "tool_discover"
	ToolSandboxRun    = "sandbox_run"
	ToolEcosystemScan = "ecosystem_scan"
	ToolLogsQuery     = "logs_query"
	ToolMCPAudit      = "mcp_audit"
)

// ProjectArgs names the project argument of each tool a route can lead to that is
// project-scoped; the workflowplan tool fills it with the bound project directory.
var ProjectArgs = map[string]string{ToolCapabilityRun: "cwd", ToolSandboxRun: "workspace_folder",
	ToolEcosystemScan: "cwd", ToolMCPAudit: "cwd"}

// NextTool is the call a route leads to: the tool, an argument object valid for its
// input schema (once Missing is supplied), the arguments the task did not give, and why.
type NextTool struct {
	Name      string         `json:"name" jsonschema:"required,enum=capability_run,enum=package_search,enum=env_inspect,enum=tool_discover,enum=sandbox_run,enum=ecosystem_scan,enum=logs_query,enum=mcp_audit,description=The tool to call next."`
	Arguments map[string]any `json:"arguments" jsonschema:"required,description=Its arguments; pass them unchanged after adding any named in missing."`
	// Missing are required arguments the task does not give (a command to run in WSL
	// when the task only says "this"): the caller asks for them; they are never invented.
	Missing []string `json:"missing,omitempty" jsonschema:"description=Required arguments of the tool the task does not give; ask for them rather than invent them."`
	Reason  string   `json:"reason" jsonschema:"required"`
	// Class is the safety class of the call the execute phase describes (for a
	// plan-first tool, its execute:true call).
	Class tools.Class `json:"-"`
	// weak: a subject the task names (MCP configuration, the AI setup) rather than a
	// question it asks; a code operation with evidence wins over it.
	weak bool
}

// words is a task split into lowercased words without surrounding punctuation, for
// the phrase rules of the other tools.
type words []string

func splitWords(task string) words {
	out, _ := splitBoth(task)
	return out
}

// splitBoth returns the words of task lowercased for matching, and as written (without
// surrounding punctuation, printable) at the same indices, for a query.
func splitBoth(task string) (words, []string) {
	var out words
	var written []string
	for _, f := range strings.Fields(task) {
		if n := norm(f); n != "" {
			out = append(out, n)
			written = append(written, printable(strings.TrimRight(strings.TrimLeft(f, trimLeft), trimSet)))
		}
	}
	return out, written
}

func (w words) has(any ...string) bool {
	return slices.ContainsFunc(w, func(x string) bool { return slices.Contains(any, x) })
}

// seq reports whether the phrase occurs as consecutive words.
func (w words) seq(phrase ...string) bool {
	for i := 0; i+len(phrase) <= len(w); i++ {
		if slices.Equal(w[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}

// after returns the words after the first occurrence of one of the given words.
func (w words) after(any ...string) words {
	for i, x := range w {
		if slices.Contains(any, x) {
			return w[i+1:]
		}
	}
	return nil
}

// envFacts are the things env_inspect reports presence of, by the words a task uses.
var envFacts = []string{"docker", "git", "python", "node", "nodejs", "node.js", "rust", "go", "golang", "dotnet",
	".net", "winget", "choco", "chocolatey", "scoop", "vscode", "wsl", "wsl2", "hyper-v", "hyperv",
	"sandbox", "virtualization", "devdrive", "vs code", "visual studio", "dev drive", "windows sandbox"}

// discoverGroups are tool_discover's groups, by the words a task uses for their tools.
var discoverGroups = map[string]string{
	"python": "runtimes", "py": "runtimes", "node": "runtimes", "nodejs": "runtimes", "node.js": "runtimes",
	"cargo": "runtimes", "rust": "runtimes", "rustc": "runtimes", "go": "runtimes", "golang": "runtimes",
	"dotnet": "runtimes", ".net": "runtimes", "java": "runtimes", "runtime": "runtimes", "runtimes": "runtimes",
	"vscode": "editors", "devenv": "editors", "rider": "editors", "pycharm": "editors",
	"editor": "editors", "editors": "editors", "ide": "editors", "ides": "editors",
	"winget": "package_managers", "choco": "package_managers", "chocolatey": "package_managers",
	"scoop": "package_managers", "pip": "package_managers", "uv": "package_managers", "npm": "package_managers",
	"git": "vcs", "gh": "vcs", "git-lfs": "vcs",
}

// presenceWords end a question about whether something is on the machine.
var presenceWords = []string{"installed", "available", "enabled", "running", "present", "on", "setup", "configured"}

// otherTool reads a task whose answer is another tool of this server
// (docs/tools/workflow_plan.md, "Other tools"). It returns nil when the task is not
// such a question. route is the capability routing of the same task, used only to
// give sandbox_run the command of the capability the task names.
func otherTool(task string, route *Route, cat catalogArgv) *NextTool {
	w := splitWords(withoutIdioms(task))
	if len(w) == 0 {
		return nil
	}
	for _, rule := range []func(words, string, *Route, catalogArgv) *NextTool{sandboxIntent, logsIntent, searchIntent, machineIntent, mcpIntent, ecosystemIntent} {
		if nt := rule(w, task, route, cat); nt != nil {
			return nt
		}
	}
	return nil
}

// catalogArgv gives a capability's first configured argv.
type catalogArgv func(id string) []string

// sandboxIntent: "run this in Linux", "run the tests in WSL", "try it in the dev
// container", "run the installer in Windows Sandbox".
func sandboxIntent(w words, task string, route *Route, cat catalogArgv) *NextTool {
	requirement, where := "", ""
	for i, x := range w {
		if !slices.Contains([]string{"in", "on", "inside", "under", "within", "using", "via"}, x) {
			continue
		}
		rest := w[i+1:]
		for len(rest) > 0 && slices.Contains([]string{"a", "an", "the", "my", "our"}, rest[0]) {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			continue
		}
		switch {
		case slices.Contains([]string{"linux", "wsl", "wsl2", "ubuntu", "debian"}, rest[0]):
			requirement, where = "linux_compatibility", "Linux (WSL)"
		case rest[0] == "devcontainer" || rest[0] == "container" || len(rest) > 1 && rest[0] == "dev" && (rest[1] == "container" || rest[1] == "containers"):
			requirement, where = "project_reproducibility", "the project's Dev Container"
		case rest[0] == "sandbox" || len(rest) > 1 && rest[0] == "windows" && rest[1] == "sandbox":
			requirement, where = "untrusted_windows", "Windows Sandbox"
		}
		if requirement != "" {
			break
		}
	}
	if requirement == "" {
		return nil
	}
	nt := &NextTool{Name: ToolSandboxRun, Arguments: map[string]any{"isolation_requirement": requirement},
		Class: tools.ApprovalRequired}
	switch cmd := quoted(task); {
	case cmd != "":
		nt.Arguments["command"] = cmd
		nt.Reason = "The task runs the quoted command in " + where + ": sandbox_run plans it there (execute:false), and runs it once the plan is reviewed."
	case route != nil && route.MatchedCandidate != nil && cat != nil && len(cat(route.MatchedCandidate.Capability)) > 0:
		id := route.MatchedCandidate.Capability
		nt.Arguments["command"] = shellJoin(cat(id))
		nt.Reason = "The task runs capability " + id + " in " + where + ": sandbox_run plans its command there (execute:false), and runs it once the plan is reviewed."
	default:
		nt.Missing = []string{"command"}
		nt.Reason = "The task runs something in " + where + " without saying what: ask for the command, then plan it with sandbox_run (execute:false)."
	}
	return nt
}

// quoted returns the first text between backticks or double quotes in task, trimmed.
func quoted(task string) string {
	for _, q := range []string{"`", "\""} {
		i := strings.Index(task, q)
		if i < 0 {
			continue
		}
		j := strings.Index(task[i+1:], q)
		if j < 0 {
			continue
		}
		if s := strings.TrimSpace(printable(task[i+1 : i+1+j])); s != "" {
			return s
		}
	}
	return ""
}

// shellJoin writes argv as one sh command line, single-quoting what sh would read
// differently.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		plain := a != ""
		for _, c := range []byte(a) {
			if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && strings.IndexByte("_-./=:,+@%", c) < 0 {
				plain = false
				break
			}
		}
		if plain {
			parts[i] = a
		} else {
			parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(parts, " ")
}

// logsIntent: "show the audit log", "what failed earlier", "what did you install".
func logsIntent(w words, _ string, _ *Route, _ catalogArgv) *NextTool {
	past := w.has("earlier", "before", "previously", "recent", "recently", "today", "yesterday", "last", "history") ||
		w.seq("what", "did", "you") || w.seq("what", "have", "you") || w.seq("did", "you") || w.seq("have", "you")
	failed := w.has("failed", "fail", "failures", "failure", "denied", "blocked", "refused", "errors")
	trigger := w.has("logs_query") || w.has("audit") && w.has("log", "logs", "trail", "history", "events", "records") ||
		failed && past || w.seq("what", "did", "you") || w.seq("what", "have", "you") ||
		w.has("calls") && w.has("tool", "recent", "which", "what", "your", "past") ||
		w.has("approvals", "approved", "approval") && (past || w.has("which", "what")) && w.has("calls", "call", "tools", "needed", "asked", "were", "was") ||
		(w.seq("did", "you") || w.seq("have", "you")) && w.has("what", "which") ||
		w.has("runs", "calls", "events", "activity") && past
	if !trigger {
		return nil
	}
	filter := "all"
	switch {
	case failed:
		filter = "failures"
	case w.has("approval", "approvals", "approved", "asked"):
		filter = "approvals"
	case w.has("sandbox"):
		filter = "sandbox"
	case w.has("install", "installed", "installs", "installations"):
		filter = "installs"
	}
	nt := &NextTool{Name: ToolLogsQuery, Arguments: map[string]any{}, Class: tools.ReadOnly,
		Reason: "The task asks what this server's tools did: logs_query returns the audit log's records (metadata only)."}
	if filter != "all" {
		nt.Arguments["filter"] = filter
		nt.Reason = "The task asks what this server's tools did: logs_query returns the audit log's records (metadata only), filtered to " + filter + "."
	}
	return nt
}

// packageWords name a package or a machine package manager in a search task.
var packageWords = []string{"package", "packages", "winget", "choco", "chocolatey", "scoop"}

// searchIntent: "find a package for ripgrep", "search winget for 7zip", "is there a
// scoop package for jq".
func searchIntent(w words, task string, _ *Route, _ catalogArgv) *NextTool {
	verb := w.has("find", "search", "lookup", "locate") || w.seq("look", "up") || w.seq("look", "for") || w.seq("is", "there")
	manager := slices.ContainsFunc(w, func(x string) bool { return machineManagers[x] != "" })
	named := w.after("package", "packages").has("for", "named", "called")
	if !verb || !manager && !named {
		return nil
	}
	source := ""
	for _, x := range w {
		if m := machineManagers[x]; m != "" && source == "" {
			source = m
		}
	}
	// The object: after the last "for", "named" or "called", else after the package word.
	var object words
	for i := len(w) - 1; i >= 0 && object == nil; i-- {
		if slices.Contains([]string{"for", "named", "called", "of"}, w[i]) {
			object = w[i+1:]
		}
	}
	if len(object) == 0 {
		object = w.after(packageWords...)
	}
	if len(object) == 0 {
		// "look up Git.Git on winget": the words after the verb.
		object = w.after("find", "search", "lookup", "locate", "up", "there")
	}
	_, written := splitBoth(withoutIdioms(task))
	var q []string
	for i, x := range object {
		if objectFillers[x] || slices.Contains(packageWords, x) || slices.Contains([]string{"on", "in", "with", "from", "using", "for", "is", "there", "id"}, x) || machineManagers[x] != "" {
			continue
		}
		q = append(q, written[len(w)-len(object)+i])
	}
	nt := &NextTool{Name: ToolPackageSearch, Arguments: map[string]any{}, Class: tools.ApprovalRequired}
	if source != "" {
		nt.Arguments["source"] = source
	}
	query := boundQuery(strings.Join(q, " "))
	if strings.HasPrefix(query, "-") {
		query = ""
	}
	if query == "" {
		nt.Missing = []string{"query"}
		nt.Reason = "The task searches for a package without saying which: ask for its name, then call package_search."
		return nt
	}
	nt.Arguments["query"] = query
	nt.Reason = "The task searches for a package: package_search returns the matches with their exact ids; it never installs."
	return nt
}

// machineIntent: questions about this machine. "which Python do I have", "what
// version of node is installed", "where is git" and "what tools do I have" go to
// tool_discover (which one, which version); "is docker installed", "do I have WSL",
// "what's installed" and "what Windows version is this" go to env_inspect (is it
// there), unless the thing asked about is one only tool_discover knows (uv, pip, gh).
func machineIntent(w words, _ string, _ *Route, _ catalogArgv) *NextTool {
	groups := map[string]bool{}
	for _, x := range w {
		if g := discoverGroups[x]; g != "" {
			groups[g] = true
		}
	}
	if w.seq("package", "managers") || w.seq("package", "manager") {
		groups["package_managers"] = true
	}
	notAI := !w.has("ai", "agent", "agents", "mcp")
	toolsAsked := notAI && w.has("tools", "toolchain", "toolchains", "sdks") && w.has("what", "which", "list", "show") &&
		(w.has("have", "installed", "available", "got") || w.seq("on", "path"))
	version := w.has("version", "versions") && len(groups) > 0
	which := w.has("which", "what") && len(groups) > 0 && w.has("have", "installed", "using", "got", "available")
	where := w.seq("where", "is") && len(groups) > 0
	subject, presence := presenceQuestion(w)
	if !toolsAsked && !version && !which && !where && presence && !slices.Contains(envFacts, subject) && discoverGroups[subject] != "" {
		groups = map[string]bool{discoverGroups[subject]: true}
		which = true
	}
	if toolsAsked || version || which || where {
		category := "all"
		if len(groups) == 1 && !toolsAsked {
			for g := range groups {
				category = g
			}
		}
		return &NextTool{Name: ToolToolDiscover, Arguments: map[string]any{"category": category}, Class: tools.ApprovalRequired,
			Reason: "The task asks which developer tools are on PATH, where and at which version: tool_discover finds them and runs each one's version flag."}
	}
	installed := w.seq("what's", "installed") || w.seq("whats", "installed") || w.seq("what", "is", "installed") ||
		w.seq("what", "do", "i", "have", "installed") || w.seq("what", "have", "i", "got")
	machine := (w.has("windows", "os") && w.has("version", "build", "edition")) ||
		w.has("environment", "machine", "system") && w.has("my", "this", "dev", "development") &&
			w.has("what", "what's", "whats", "show", "describe", "inspect", "check", "about") &&
			!w.has("virtual", "venv", "ai", "mcp", "agent", "agents")
	if !installed && !machine && (!presence || !slices.Contains(envFacts, subject)) {
		return nil
	}
	return &NextTool{Name: ToolEnvInspect, Arguments: map[string]any{}, Class: tools.ReadOnly,
		Reason: "The task asks what this machine has: env_inspect reports the OS, virtualization (WSL, Hyper-V, Windows Sandbox), package managers, runtimes, Docker and editors, without starting a developer tool."}
}

// presenceQuestion finds "is X installed", "X is enabled", "do I have X" and returns
// X (one of envFacts, two-word ones included, or of tool_discover's tools).
func presenceQuestion(w words) (string, bool) {
	known := func(x string) bool { return slices.Contains(envFacts, x) || discoverGroups[x] != "" }
	for i, x := range w {
		if x == "have" && i >= 2 && (w[i-2] == "do" || w[i-2] == "have") && w[i-1] == "i" || x == "got" && i >= 1 && w[i-1] == "i" {
			for _, y := range w[i+1:] {
				if known(y) {
					return y, true
				}
			}
		}
		if !slices.Contains(presenceWords, x) {
			continue
		}
		// A form of "to be" and the subject within the four words before it.
		window := w[max(0, i-4):i]
		if !window.has("is", "are", "be", "isn't", "aren't") {
			continue
		}
		for j := len(window) - 1; j >= 0; j-- {
			if known(window[j]) {
				return window[j], true
			}
		}
	}
	for _, phrase := range [][]string{{"vs", "code"}, {"visual", "studio"}, {"dev", "drive"}, {"windows", "sandbox"}} {
		if w.seq(phrase...) && w.has(presenceWords...) && w.has("is", "are", "do", "have") {
			return strings.Join(phrase, " "), true
		}
	}
	return "", false
}

// hostWords widen an audit or scan beyond the project to the user's own configuration.
var hostWords = []string{"user", "user-level", "global", "globally", "host", "claude", "codex", "everywhere", "machine", "installed"}

// mcpIntent: "check my MCP config", "which MCP servers are configured".
func mcpIntent(w words, _ string, _ *Route, _ catalogArgv) *NextTool {
	if !w.has("mcp", "mcp.json", ".mcp.json", "mcp_audit", "mcp-servers", "mcpservers") {
		return nil
	}
	nt := &NextTool{Name: ToolMCPAudit, Arguments: map[string]any{}, Class: tools.ReadOnly, weak: true,
		Reason: "The task is about MCP server configuration: mcp_audit summarises the project's MCP configs structurally, never returning commands, URLs or secrets."}
	if w.has(hostWords...) {
		nt.Arguments["include_host"] = true
		nt.Class = tools.ApprovalRequired
		nt.Reason = "The task is about the user's MCP server configuration: mcp_audit with include_host also reads the user-level configs, structurally, never returning commands, URLs or secrets."
	}
	return nt
}

// ecosystemIntent: "scan my AI setup", "which VS Code extensions are recommended".
func ecosystemIntent(w words, _ string, _ *Route, _ catalogArgv) *NextTool {
	ai := w.has("ai", "agent", "agents", "agents.md", "claude.md", "copilot", "copilot-instructions.md", "gemini.md", "llm") &&
		w.has("setup", "config", "configs", "configuration", "configurations", "files", "instructions", "tools", "scan", "ecosystem", "inventory", "tooling")
	ext := w.has("extensions", "extension", "plugins", "plugin") && !w.has("build", "test", "compile", "package", "publish")
	if !ai && !ext && !w.has("ecosystem", "ecosystem_scan") {
		return nil
	}
	nt := &NextTool{Name: ToolEcosystemScan, Arguments: map[string]any{}, Class: tools.ReadOnly, weak: true,
		Reason: "The task is about the project's AI and editor setup: ecosystem_scan inventories VS Code recommendations, MCP configs and agent configuration files."}
	if w.has(hostWords...) {
		nt.Arguments["include_host"] = true
		nt.Class = tools.ApprovalRequired
		nt.Reason = "The task is about the user's own AI and editor setup: ecosystem_scan with include_host also lists installed VS Code extensions and Claude or Codex plugins."
	}
	return nt
}
