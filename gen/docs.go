package gen

import (
	"bytes"
	"embed"
	"path"
	"text/template"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

//go:embed templates/*
var templates embed.FS

type toolDoc struct {
	Name, Title, Safety string
}

type docData struct {
	Plugin, DisplayName, Version, Homepage, Host string
	Tools                                        []toolDoc
	Skills                                       []skills.Skill
}

// safetyLine says how a tool's calls are classified, from Classify itself: the class
// with default arguments and, when different, with everything switched on.
func safetyLine(t tools.Tool) string {
	plain, wide := t.Classify(tools.Args{}), t.MaxClass()
	for _, r := range t.Classification().Rules {
		if r.Catalog != nil {
			return string(plain) + " to plan; to run, the capability's class in the catalog (forbidden ones are blocked; extra arguments make it approval-required, and forbidden when they carry a forbidden command)"
		}
		if r.Command != "" {
			return string(plain) + " to plan; " + string(r.Class) + " to run, and a command the shell classifier forbids is blocked"
		}
	}
	if plain == wide {
		return string(plain)
	}
	return string(plain) + " by default; up to " + string(wide) + " with execute/host/extra arguments"
}

func renderDocs(reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	var tools []toolDoc
	for _, t := range reg.Tools() {
		tools = append(tools, toolDoc{t.Name(), t.Title(), safetyLine(t)})
	}
	base := docData{Plugin: wda.ServerName, DisplayName: displayName, Version: wda.Version, Homepage: homepage, Tools: tools, Skills: all}
	type out struct{ tmpl, dest, host string }
	for _, o := range []out{
		{"plan.md", ClaudeRoot + "/commands/plan.md", "Claude Code"},
		{"env.md", ClaudeRoot + "/commands/env.md", "Claude Code"},
		{"defrag.md", ClaudeRoot + "/commands/defrag.md", "Claude Code"},
		{"windows-orchestrator.md", ClaudeRoot + "/agents/windows-orchestrator.md", "Claude Code"},
		{"README.md", ClaudeRoot + "/README.md", "Claude Code"},
		{"README.md", CodexRoot + "/README.md", "Codex"},
		{"LICENSE", ClaudeRoot + "/LICENSE", ""},
		{"LICENSE", CodexRoot + "/LICENSE", ""},
	} {
		t, err := template.ParseFS(templates, path.Join("templates", o.tmpl))
		if err != nil {
			return err
		}
		d := base
		d.Host = o.host
		var buf bytes.Buffer
		if err := t.Execute(&buf, d); err != nil {
			return err
		}
		files[o.dest] = buf.Bytes()
	}
	return nil
}
