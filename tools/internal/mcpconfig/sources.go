package mcpconfig

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/tomlread"
)

// Source is one config file to summarise.
type Source struct {
	// Path is the absolute path reported as the summary's file.
	Path string
	// Project, when set, is the bound project the file lies in and Rel its path below
	// the project: the file is read through the project's held directory by the guarded
	// reader (no links, no hard links, nothing resolved by path again;
	// docs/safety/project-reads.md). Otherwise a plain bounded read of Path.
	Project *tools.Project
	Rel     string
	// TOML marks a Codex config.toml ([mcp_servers.*] tables).
	TOML bool
}

// ProjectFiles are the project-relative MCP configs, in report order.
var ProjectFiles = []string{".mcp.json", filepath.Join(".continue", "config.json")}

// ProjectSources returns the project configs of the bound project p.
func ProjectSources(p *tools.Project) []Source {
	out := make([]Source, len(ProjectFiles))
	for i, rel := range ProjectFiles {
		out[i] = Source{Path: filepath.Join(p.Path, rel), Project: p, Rel: rel}
	}
	return out
}

// HostSources returns the user-level configs: ~/.claude.json, then
// %APPDATA%\Claude\claude_desktop_config.json when APPDATA is set, then on Codex
// ${CODEX_HOME:-~/.codex}/config.toml. Locations come from the per-call environment
// only, read by the same rules as everywhere else: the home directory is
// internal/platform/home's (USERPROFILE first on Windows, docs/platform.md) and Codex's
// home is internal/config.CodexHome, the one the data directory is placed under.
func HostSources(env *tools.Env) []Source {
	var out []Source
	if h := home.Dir(env.Lookup); h != "" {
		out = append(out, Source{Path: filepath.Join(h, ".claude.json")})
	}
	if appdata := strings.TrimSpace(env.Lookup("APPDATA")); appdata != "" && filepath.IsAbs(appdata) {
		out = append(out, Source{Path: filepath.Join(appdata, "Claude", "claude_desktop_config.json")})
	}
	if env.Host == "codex" {
		if ch := config.CodexHome(env.Lookup); ch != "" {
			out = append(out, Source{Path: filepath.Join(ch, "config.toml"), TOML: true})
		}
	}
	return out
}

// ExplicitSource turns a caller's config_path into a source: ~ is expanded (home.Expand,
// the same ~ a project argument gets), a relative path is taken under the bound project
// p, and a path lexically inside the project (its bound path, or lexicalRoot — the
// project directory as named before links were resolved) is read through the project's
// held directory. Links are not resolved here: whether one is crossed is the guarded
// reader's decision.
func ExplicitSource(env *tools.Env, p *tools.Project, lexicalRoot, path string) Source {
	path = home.Expand(strings.TrimSpace(path), env.Lookup)
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.Path, path)
	}
	path = filepath.Clean(path)
	return Source{Path: path, TOML: strings.EqualFold(filepath.Ext(path), ".toml")}.Contained(p, lexicalRoot)
}

// Contained returns s set to be read through the bound project p when its path lies
// lexically inside p's path (or lexicalRoot, which names the same directory): paths
// lexically inside the project get the guarded reader, whichever list they came from
// (docs/tools/mcp_audit.md).
func (s Source) Contained(p *tools.Project, lexicalRoot string) Source {
	if s.Project != nil || p == nil {
		return s
	}
	for _, root := range []string{p.Path, lexicalRoot} {
		if rel, ok := contain.Rel(root, s.Path); ok && root != "" {
			s.Project, s.Rel = p, rel
			return s
		}
	}
	return s
}

// AppendUnique appends s unless a source with the same path is already listed.
func AppendUnique(list []Source, s Source) []Source {
	for _, o := range list {
		if contain.Within(o.Path, s.Path) && contain.Within(s.Path, o.Path) {
			return list
		}
	}
	return append(list, s)
}

// Read reads and summarises one source. ok is false when the file does not exist
// (missing files are omitted from reports); any other failure is a Config with Error.
func Read(s Source) (c Config, ok bool) {
	p, ok := load(s, false)
	return p.cfg, ok
}

// load reads one source and keeps what the findings pass needs besides the summary:
// the decoded document and, with index (a findings pass follows), for JSON where its
// servers are.
func load(s Source, index bool) (parsed, bool) {
	var b []byte
	var err error
	if s.Project != nil {
		b, err = guard.ReadProject(s.Project, s.Rel)
	} else {
		b, err = guard.ReadHost(s.Path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return parsed{}, false
	}
	if err != nil {
		return parsed{cfg: Config{File: s.Path, Error: err.Error(), Servers: []Server{}}}, true
	}
	if s.TOML {
		doc, err := tomlread.Parse(b)
		if err != nil {
			return parsed{cfg: Config{File: s.Path, Error: "invalid TOML: " + err.Error(), Servers: []Server{}}, read: true}, true
		}
		return parsed{cfg: Summarize(s.Path, doc, "mcp_servers"), doc: doc, key: "mcp_servers", read: true}, true
	}
	doc, err := guard.DecodeObject(b)
	if err != nil {
		return parsed{cfg: Config{File: s.Path, Error: err.Error(), Servers: []Server{}}, read: true}, true
	}
	p := parsed{cfg: Summarize(s.Path, doc, "mcpServers"), doc: doc, key: "mcpServers", read: true}
	if index {
		p.lines = jsonLines(b, "mcpServers")
	}
	return p, true
}

// ReadAll reads every source in order, omitting missing files.
func ReadAll(sources []Source) []Config {
	configs, _ := audit(sources, nil)
	return configs
}

// Audit reads every source in order like ReadAll and also returns the risk findings
// (docs/tools/mcp_audit.md, "Findings"), in report order. Nothing is started, sent or
// written; a finding names a rule, a server, a file and a line, never a value.
func Audit(sources []Source) ([]Config, []Finding) {
	return audit(sources, defaultPerms)
}

// audit reads sources; with perms it also runs the findings pass.
func audit(sources []Source, perms permChecker) ([]Config, []Finding) {
	configs := []Config{}
	var all []parsed
	for _, s := range sources {
		p, ok := load(s, perms != nil)
		if !ok {
			continue
		}
		configs = append(configs, p.cfg)
		if perms != nil && p.read {
			p.writable, _ = perms.othersCanWrite(s.Path, s.Project != nil)
		}
		all = append(all, p)
	}
	if perms == nil {
		return configs, nil
	}
	return configs, findings(all)
}
