package ecosystemscan

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/hiddentext"
)

// Hidden-text check limits (docs/tools/ecosystem_scan.md, "Hidden text"): files are
// read at most maxAgentDepth levels below a named folder (skills/a/b/c/SKILL.md).
const (
	MaxAgentFiles = 500
	maxAgentDepth = 4
)

// AgentFiles are the project's skill, agent, command and instructions files and folders
// checked for hidden text, in report order; folders are walked.
var AgentFiles = []string{"CLAUDE.md", "AGENTS.md", "GEMINI.md", ".github/copilot-instructions.md",
	".claude/skills", ".claude/agents", ".claude/commands", ".agents/skills",
	".github/prompts", ".github/instructions", ".github/agents", ".github/chatmodes",
	".gemini/commands", ".clinerules", ".roo/rules", ".continue/rules", ".continue/prompts"}

// textExt are the file name endings checked inside the folders; markdownExt also have
// their HTML comments read.
var (
	textExt     = []string{".md", ".mdc", ".markdown", ".txt", ".toml", ".yaml", ".yml", ".json"}
	markdownExt = []string{".md", ".mdc", ".markdown"}
)

// hiddenCheck runs hiddentext over the agent files of one scan.
type hiddenCheck struct {
	s       *scanner
	files   int
	seen    map[string]bool
	stopped bool
}

// textKind says whether a file is checked and whether it is markdown. A file named in
// AgentFiles is always checked; .clinerules as a file is markdown.
func textKind(name string, named bool) (check, markdown bool) {
	ext := strings.ToLower(filepath.Ext(name))
	markdown = hasAny(markdownExt, ext) || name == ".clinerules"
	return named || hasAny(textExt, ext), markdown
}

func hasAny(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (h *hiddenCheck) take(path string) bool {
	if h.seen[path] {
		return false
	}
	if h.files == MaxAgentFiles {
		h.stopped = true
		return false
	}
	h.seen[path] = true
	h.files++
	return true
}

func (h *hiddenCheck) check(path string, b []byte, markdown bool) {
	found, err := hiddentext.Scan(b, markdown)
	if err != nil {
		h.s.warn("Not checked for hidden text (not UTF-8): %s", path)
		return
	}
	for _, f := range found {
		f.File = path
		h.s.inv.Findings = append(h.s.inv.Findings, f)
	}
}

// project checks the project's agent files, walked from the held project directory
// without following any link (docs/safety/project-reads.md).
func (h *hiddenCheck) project(p *tools.Project) {
	root, err := guard.OpenRoot(p, guard.Shared)
	if err != nil {
		h.s.warn("%v", err)
		return
	}
	defer root.Close()
	for _, rel := range AgentFiles {
		parts := strings.Split(rel, "/")
		d, opened := root, []*guard.Dir{}
		for _, name := range parts[:len(parts)-1] {
			next, _, err := d.OpenDir(name)
			if err != nil {
				h.walkErr(d, name, err)
				d = nil
				break
			}
			opened = append(opened, next)
			d = next
		}
		if d != nil {
			h.entry(d, parts[len(parts)-1], 0, true)
		}
		for _, o := range opened {
			o.Close()
		}
	}
}

// walkErr turns a failed step into a warning; a missing name is no warning.
func (h *hiddenCheck) walkErr(d *guard.Dir, name string, err error) {
	path := filepath.Join(d.Path(), name)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, guard.ErrNotDir):
	case errors.Is(err, guard.ErrLink):
		h.s.warn("%v", &guard.LinkError{Path: path})
	default:
		h.s.warn("Could not read %s: %v", path, err)
	}
}

func (h *hiddenCheck) entry(d *guard.Dir, name string, depth int, named bool) {
	path := filepath.Join(d.Path(), name)
	info, err := d.Stat(name)
	if err != nil {
		h.walkErr(d, name, err)
		return
	}
	switch info.Kind {
	case guard.KindLink:
		h.s.warn("%v", &guard.LinkError{Path: path})
	case guard.KindDir:
		if depth >= maxAgentDepth {
			return
		}
		sub, _, err := d.OpenDir(name)
		if err != nil {
			h.walkErr(d, name, err)
			return
		}
		defer sub.Close()
		names, err := sub.Names()
		if err != nil {
			h.s.warn("Could not read %s: %v", path, err)
			return
		}
		for _, n := range names {
			h.entry(sub, n, depth+1, false)
		}
	case guard.KindFile:
		check, markdown := textKind(name, named)
		if !check || !h.take(path) {
			return
		}
		f, err := d.OpenFile(name)
		if err != nil {
			h.walkErr(d, name, err)
			return
		}
		defer f.Close()
		// The handle's own metadata decides: a second hard link may be a file outside.
		if fi := f.Info(); fi.Links > 1 {
			h.s.warn("%v", &guard.HardLinkError{Path: path})
			return
		}
		b, err := io.ReadAll(io.LimitReader(f, guard.Limit+1))
		switch {
		case err != nil:
			h.s.warn("Could not read %s: %v", path, err)
		case len(b) > guard.Limit:
			h.s.warn("Not checked for hidden text (larger than %d bytes): %s", guard.Limit, path)
		default:
			h.check(path, b, markdown)
		}
	}
}

// hostPaths are the user-level agent files and folders, in report order.
func hostPaths(env *tools.Env) []string {
	var out []string
	if h := home.Dir(env.Lookup); h != "" {
		for _, rel := range []string{".claude/CLAUDE.md", ".claude/skills", ".claude/agents", ".claude/commands",
			".gemini/GEMINI.md", ".gemini/commands"} {
			out = append(out, filepath.Join(h, filepath.FromSlash(rel)))
		}
	}
	if c := config.CodexHome(env.Lookup); c != "" && env.Host == "codex" {
		for _, rel := range []string{"AGENTS.md", "prompts", "skills"} {
			out = append(out, filepath.Join(c, rel))
		}
	}
	return out
}

// host checks the user-level agent files with plain reads; links are not followed
// (a linked skill folder is not entered).
func (h *hiddenCheck) host(env *tools.Env) {
	for _, root := range hostPaths(env) {
		fi, err := os.Lstat(root)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				h.s.warn("Could not read %s: %v", root, err)
			}
			continue
		}
		if fi.Mode().IsRegular() {
			h.hostFile(root, true)
			continue
		}
		if !fi.IsDir() {
			continue
		}
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				h.s.warn("Could not read %s: %v", path, err)
				return nil
			}
			if d.IsDir() && path != root && strings.Count(strings.TrimPrefix(path, root), string(filepath.Separator)) >= maxAgentDepth {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				h.hostFile(path, false)
			}
			return nil
		})
	}
}

func (h *hiddenCheck) hostFile(path string, named bool) {
	check, markdown := textKind(filepath.Base(path), named)
	if !check || !h.take(path) {
		return
	}
	b, err := guard.ReadHost(path)
	if err != nil {
		h.s.warn("Not checked for hidden text: %s: %v", path, err)
		return
	}
	h.check(path, b, markdown)
}
