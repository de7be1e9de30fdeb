package tooldiscover

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// ProbeTimeout bounds each version probe.
const ProbeTimeout = 5 * time.Second

// parallel bounds concurrent probes: enough to keep 20 probes of up to 5 s short,
// few enough not to load a developer machine.
const parallel = 4

// Groups is the fixed candidate table, in report order.
var Groups = []struct {
	Name  string
	Tools []string
}{
	{"runtimes", []string{"python", "py", "node", "cargo", "go", "dotnet", "java"}},
	{"editors", []string{"code", "devenv", "rider", "pycharm"}},
	{"package_managers", []string{"winget", "choco", "scoop", "pip", "uv", "npm"}},
	{"vcs", []string{"git", "gh", "git-lfs"}},
}

// guiTools are never launched; their version is read from file metadata.
var guiTools = map[string]bool{"devenv": true, "rider": true, "pycharm": true}

// VersionArg is the version argument of a tool.
func VersionArg(name string) string {
	switch name {
	case "go", "git-lfs":
		return "version"
	case "java":
		return "-version"
	}
	return "--version"
}

// Prober discovers tools through injected seams.
type Prober struct {
	Resolver    proc.Resolver
	Runner      proc.Runner
	FileVersion func(path string) (string, error)
	// Dir is the working directory of version probes.
	Dir string
	// Progress, when set, hears of each finished probe.
	Progress func(tools.Progress)
}

// Discover probes the tools of category ("" or "all" for every group).
func (p Prober) Discover(ctx context.Context, category string) Out {
	var names []string
	for _, g := range Groups {
		if category == "" || category == "all" || category == g.Name {
			names = append(names, g.Tools...)
		}
	}
	entries := make([]Entry, len(names))
	started := make([]bool, len(names))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, begin := 0, time.Now()
	for i, n := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			entries[i], started[i] = p.probe(ctx, n)
			if p.Progress != nil {
				// Reported under the lock, so the counts arrive in order and each is sent:
				// a sink drops a count that does not grow.
				mu.Lock()
				done++
				p.Progress(tools.Progress{Elapsed: time.Since(begin), Done: done, Total: len(names),
					Message: fmt.Sprintf("probed %d of %d tools (%s)", done, len(names), n)})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	by := map[string]Entry{}
	for i, n := range names {
		by[n] = entries[i]
	}
	out := Out{Status: tools.Status{Status: "ok", ExecutionStarted: slices.Contains(started, true)}}
	has := func(g string) bool { return category == "" || category == "all" || category == g }
	if has("runtimes") {
		out.Runtimes = &Runtimes{Python: by["python"], Py: by["py"], Node: by["node"], Cargo: by["cargo"],
			Go: by["go"], Dotnet: by["dotnet"], Java: by["java"]}
	}
	if has("editors") {
		out.Editors = &Editors{Code: by["code"], Devenv: by["devenv"], Rider: by["rider"], Pycharm: by["pycharm"]}
	}
	if has("package_managers") {
		out.PackageManagers = &PackageManagers{Winget: by["winget"], Choco: by["choco"], Scoop: by["scoop"],
			Pip: by["pip"], UV: by["uv"], Npm: by["npm"]}
	}
	if has("vcs") {
		out.VCS = &VCS{Git: by["git"], Gh: by["gh"], GitLFS: by["git-lfs"]}
	}
	return out
}

// probe resolves one tool and establishes its version; started reports whether a
// process was started.
func (p Prober) probe(ctx context.Context, name string) (Entry, bool) {
	path, ok := p.Resolver.Resolve(name)
	if !ok {
		return Entry{Available: false}, false
	}
	e := Entry{Available: true, Path: path, VersionStatus: "unknown"}
	if guiTools[name] {
		e.VersionSource = "windows_file_version"
		if v, err := p.FileVersion(path); err == nil && v != "" {
			e.Version, e.VersionStatus = &v, "known"
		}
		return e, false
	}
	e.VersionSource = "command"
	rc := p.Runner.Run(ctx, proc.Request{Argv: []string{path, VersionArg(name)}, Dir: p.Dir, Timeout: ProbeTimeout})
	if text, ok := versionText(rc); ok {
		if v, note := VersionLine(text); note != "" {
			e.VersionNote = note
		} else {
			e.Version, e.VersionStatus = &v, "known"
		}
	}
	return e, rc.ExecutionStarted
}

// VersionLine picks the version out of a version probe's output
// (docs/tools/tool_discover.md, "Decision order"): the first non-blank line, unless it
// is a heading ending in ':' (Scoop prints "Current Scoop version:" first), in which case
// the next non-blank line. A line after a heading that is a one-line git log entry
// ("f5d7d5c0 (HEAD -> master, tag: v0.5.2) …", Scoop on a branch) gives its release tag,
// and no version when it has none (or a tag without a digit): a commit is not a release. A line without a digit is
// no version either. note says why no version was taken; it is "" when one was.
func VersionLine(text string) (version, note string) {
	lines := nonBlank(text)
	if len(lines) == 0 {
		return "", ""
	}
	line := lines[0]
	if strings.HasSuffix(line, ":") {
		if len(lines) < 2 {
			return "", fmt.Sprintf("the version output has a heading and no version: %q", clip(line))
		}
		line = lines[1]
		if hash, rest, ok := strings.Cut(line, " "); ok && commitHash(hash) {
			tag := releaseTag(rest)
			if !strings.ContainsAny(tag, "0123456789") {
				return "", fmt.Sprintf("the version output names a commit, not a release: %q", clip(line))
			}
			return tag, ""
		}
	}
	if !strings.ContainsAny(line, "0123456789") {
		return "", fmt.Sprintf("the version output was not understood: %q", clip(line))
	}
	return line, ""
}

func nonBlank(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// clip bounds a quoted line.
func clip(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}

// commitHash reports git's abbreviated or full object name: 7 to 40 hex digits.
func commitHash(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// releaseTag is the first "tag: <name>" of a git log decoration "(HEAD -> x, tag: v1,
// origin/x) subject", or "" when the line has no decoration or no tag in it.
func releaseTag(rest string) string {
	deco, found := strings.CutPrefix(rest, "(")
	if !found {
		return ""
	}
	deco, _, found = strings.Cut(deco, ")")
	if !found {
		return ""
	}
	for _, ref := range strings.Split(deco, ",") {
		if tag, ok := strings.CutPrefix(strings.TrimSpace(ref), "tag: "); ok && tag != "" && !strings.ContainsAny(tag, " \t") {
			return tag
		}
	}
	return ""
}

// versionText is stdout, or stderr when stdout is blank, and only when the probe
// succeeded and that stream is whole and not blank.
func versionText(rc proc.Receipt) (string, bool) {
	if !rc.Succeeded {
		return "", false
	}
	text, whole := rc.Stdout, rc.StdoutWhole()
	if strings.TrimSpace(text) == "" {
		text, whole = rc.Stderr, rc.StderrWhole()
	}
	if !whole || strings.TrimSpace(text) == "" {
		return "", false
	}
	return text, true
}
