package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/tools"
)

// Kind is the JSON type of a setting, and with it its registry type and ADMX element
// (docs/policy.md, "Group Policy").
type Kind int

const (
	// List is an array of strings: a REG_SZ value per item in a subkey; an ADMX list.
	List Kind = iota
	// Bool is true or false: a REG_DWORD 0 or 1; an ADMX boolean policy.
	Bool
	// Enum is one string of Setting.Enum: a REG_SZ; an ADMX enum.
	Enum
	// Text is a string: a REG_SZ; an ADMX text box.
	Text
	// Pairs is an object of strings: a subkey whose value names are the keys; an ADMX
	// list with explicit value names.
	Pairs
	// Number is a whole number in [Min, Max]: a REG_DWORD; an ADMX decimal.
	Number
)

// Setting is one key of the policy document. The table Settings is the only
// definition: the parser accepts exactly these keys, the registry reader exactly these
// values, and gen renders the ADMX from them.
type Setting struct {
	// Path is the key in the JSON document, dotted for nested objects
	// ("packages.allowed_ids").
	Path string
	Kind Kind
	// Value names the registry value (or, for List and Pairs, the subkey) under the
	// policy key that sets this setting on its own.
	Value string
	// Enum are the accepted values of an Enum, or of each item of a List when set.
	Enum []string
	// Min and Max bound a Number.
	Min, Max int
	// Title and Help are what the ADMX shows (English) and docs/policy.md lists.
	Title, Help string
	// check validates one string (an item of a List, a Text, a Pairs key or value).
	check func(string) error
	set   func(*Policy, any)
}

// No regexp or net/url here: the hooks link this package, and their start-up is
// measured (docs/policy.md, "Sources"); the checks below are a few byte loops.
var (
	maxClasses     = []string{string(tools.ReadOnly), string(tools.Reversible), string(tools.Checkpoint), string(tools.ApprovalRequired)}
	projectTaskSet = []string{"allow", "ask", "deny"}
)

// Settings are the policy's keys, in document order.
var Settings = []Setting{
	{Path: "disabled_tools", Kind: List, Value: "DisabledTools", Title: "Disabled tools",
		Help:  "Windows Dev Agent tools (e.g. package_install) that refuse every call.",
		check: toolName, set: func(p *Policy, v any) { p.DisabledTools = v.([]string) }},
	{Path: "denied_capabilities", Kind: List, Value: "DeniedCapabilities", Title: "Denied capabilities",
		Help:  "Capability ids (catalog entries or project tasks such as npm:test) that capability_run refuses.",
		check: capabilityID, set: func(p *Policy, v any) { p.DeniedCapabilities = v.([]string) }},
	{Path: "allowed_capabilities", Kind: List, Value: "AllowedCapabilities", Title: "Allowed capabilities",
		Help:  "When set, the only catalog capability ids capability_run accepts (project tasks follow project_tasks). Not set: every capability.",
		check: capabilityID, set: func(p *Policy, v any) { s := v.([]string); p.AllowedCapabilities = &s }},
	{Path: "max_execute_class", Kind: Enum, Value: "MaxExecuteClass", Enum: maxClasses, Title: "Highest safety class a call may have",
		Help: "Calls classified above this safety class are refused.",
		set:  func(p *Policy, v any) { p.MaxExecuteClass = tools.Class(v.(string)) }},
	{Path: "refuse_extra_args", Kind: Bool, Value: "RefuseExtraArgs", Title: "Refuse extra arguments",
		Help: "capability_run refuses calls with extra_args.",
		set:  func(p *Policy, v any) { p.RefuseExtraArgs = v.(bool) }},
	{Path: "project_tasks", Kind: Enum, Value: "ProjectTasks", Enum: projectTaskSet, Title: "Project tasks",
		Help: "Tasks a repository declares (npm scripts, VS Code tasks, Makefile, justfile, Taskfile): allow or ask (approval-required, as without a policy) or deny.",
		set:  func(p *Policy, v any) { p.ProjectTasks = v.(string) }},
	{Path: "packages.allowed_ids", Kind: List, Value: "PackagesAllowedIDs", Title: "Allowed package ids",
		Help:  "When set, the only package ids package_install accepts (letter case ignored).",
		check: packageID, set: func(p *Policy, v any) { s := v.([]string); p.Packages.AllowedIDs = &s }},
	{Path: "packages.allowed_sources", Kind: List, Value: "PackagesAllowedSources", Enum: []string{"winget", "chocolatey", "scoop"},
		Title: "Allowed package sources", Help: "When set, the only package managers package_install uses (winget, chocolatey, scoop).",
		set: func(p *Policy, v any) { s := v.([]string); p.Packages.AllowedSources = &s }},
	{Path: "packages.allow_uninstall", Kind: Bool, Value: "PackagesAllowUninstall", Title: "Allow uninstalling packages",
		Help: "false: package_install refuses action uninstall.",
		set:  func(p *Policy, v any) { b := v.(bool); p.Packages.AllowUninstall = &b }},
	{Path: "sandbox.allowed_routes", Kind: List, Value: "SandboxAllowedRoutes", Enum: []string{"wsl", "dev_container", "windows_sandbox"},
		Title: "Allowed sandbox routes", Help: "When set, the only environments sandbox_run uses (wsl, dev_container, windows_sandbox); auto is accepted only when all three are listed.",
		set: func(p *Policy, v any) { s := v.([]string); p.Sandbox.AllowedRoutes = &s }},
	{Path: "audit.otlp.endpoint", Kind: Text, Value: "AuditOTLPEndpoint", Title: "Audit export: OTLP endpoint",
		Help:  "The OpenTelemetry collector the audit log is exported to (http:// or https:// URL).",
		check: endpoint, set: func(p *Policy, v any) { otlp(p).Endpoint = v.(string) }},
	{Path: "audit.otlp.protocol", Kind: Enum, Value: "AuditOTLPProtocol", Enum: []string{"http/protobuf", "grpc"},
		Title: "Audit export: OTLP protocol", Help: "http/protobuf or grpc.",
		set: func(p *Policy, v any) { otlp(p).Protocol = v.(string) }},
	{Path: "audit.otlp.headers", Kind: Pairs, Value: "AuditOTLPHeaders", Title: "Audit export: OTLP headers",
		Help:  "Headers sent with every export (name and value).",
		check: headerText, set: func(p *Policy, v any) { otlp(p).Headers = v.(map[string]string) }},
	{Path: "audit.otlp.timeout_seconds", Kind: Number, Value: "AuditOTLPTimeoutSeconds", Min: 1, Max: 300,
		Title: "Audit export: timeout in seconds", Help: "How long one export may take (1-300).",
		set: func(p *Policy, v any) { otlp(p).Timeout = time.Duration(v.(int)) * time.Second }},
}

// DocumentValue is the registry value that holds the whole JSON document (REG_SZ), as
// Claude Code keeps its Settings.
const DocumentValue = "Policy"

func otlp(p *Policy) *OTLP {
	if p.Audit.OTLP == nil {
		p.Audit.OTLP = &OTLP{}
	}
	return p.Audit.OTLP
}

func toolName(s string) error {
	if _, ok := classify.Shipped.Lookup(s); !ok {
		return fmt.Errorf("%q is not a Windows Dev Agent tool", s)
	}
	return nil
}

func capabilityID(s string) error {
	if s == "" || len(s) > 256 || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("%q is not a capability id (1-256 characters, no control characters)", s)
	}
	return nil
}

// isPackageID: package_install's pattern, ^[A-Za-z0-9][A-Za-z0-9._+-]*$.
func isPackageID(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || strings.IndexByte("._+-", c) < 0) {
			return false
		}
	}
	return s != ""
}

// isToken: an HTTP header name (RFC 9110 token).
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && strings.IndexByte("!#$%&'*+.^_`|~-", c) < 0 {
			return false
		}
	}
	return s != ""
}

func packageID(s string) error {
	if len(s) > 256 || !isPackageID(s) {
		return fmt.Errorf("%q is not a package id", s)
	}
	return nil
}

// endpoint: http:// or https://, a host, and no space or control character.
func endpoint(s string) error {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	host, _, _ := strings.Cut(rest, "/")
	host, _, _ = strings.Cut(host, "?")
	host, _, _ = strings.Cut(host, "#")
	if !ok || host == "" || strings.HasPrefix(host, ":") || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("%q is not an http:// or https:// URL", s)
	}
	return nil
}

// headerText checks a header name (key) or value; values may not hold line breaks.
func headerText(s string) error {
	if strings.ContainsAny(s, "\r\n\x00") {
		return fmt.Errorf("a header name or value must not contain a line break")
	}
	return nil
}

// lookup is the setting at path, or whether path is an object holding settings.
func lookup(path string) (s *Setting, group bool) {
	for i := range Settings {
		if Settings[i].Path == path {
			return &Settings[i], false
		}
		if strings.HasPrefix(Settings[i].Path, path+".") {
			group = true
		}
	}
	return nil, group
}

// keysUnder are the keys accepted directly under the object at prefix ("" = root).
func keysUnder(prefix string) []string {
	var keys []string
	for _, s := range Settings {
		rest, ok := strings.CutPrefix(s.Path, prefix)
		if prefix != "" {
			rest, ok = strings.CutPrefix(s.Path, prefix+".")
		}
		if !ok {
			continue
		}
		k, _, _ := strings.Cut(rest, ".")
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
