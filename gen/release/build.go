package release

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/internal/proc"
)

// Target is one platform every release carries binaries for.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// dir is the folder under bin/ holding the target's build. windows/amd64 is the one
// build at the top of bin/: Windows hosts start bin\wda.exe and bin\wda-hook.exe
// directly, with no dispatch in between (docs/release.md, "Layout").
func (t Target) dir() string {
	if t == (Target{"windows", "amd64"}) {
		return ""
	}
	return t.OS + "-" + t.Arch
}

func (t Target) exe() string {
	if t.OS == "windows" {
		return ".exe"
	}
	return ""
}

// Targets are the platforms of a release.
var Targets = []Target{
	{"windows", "amd64"}, {"windows", "arm64"},
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
}

// ParseTarget reads "os/arch" and accepts only the release's targets.
func ParseTarget(s string) (Target, error) {
	for _, t := range Targets {
		if t.String() == s {
			return t, nil
		}
	}
	return Target{}, fmt.Errorf("target %q is not one of the release targets %v", s, Targets)
}

// binaries are the two programs of the payload: wda is the MCP server (and CLI),
// wda-hook the hooks.
var binaries = []struct{ name, pkg string }{{"wda", "./cmd/wda"}, {"wda-hook", "./cmd/wda-hook"}}

// buildFlags are the flags of every `go build` of a release. With CGO_ENABLED=0 and
// the explicit variables of buildEnv they make the output a function of the source
// commit and the Go version alone: -trimpath drops the build's paths, -buildid= the
// build ID, -s -w the symbol table and DWARF (size); -buildvcs=true records the source
// commit in the binary (`wda version`) and fails the build outside a checkout.
var buildFlags = []string{"build", "-trimpath", "-buildvcs=true", "-ldflags=-s -w -buildid="}

func buildEnv(t Target, toolchain string) []string {
	return []string{"GOOS=" + t.OS, "GOARCH=" + t.Arch, "CGO_ENABLED=0", "GOFLAGS=", "GOAMD64=v1",
		"GOARM64=v8.0", "GOEXPERIMENT=", "GOWORK=off", "GO111MODULE=on", "GOFIPS140=off", "GOTOOLCHAIN=" + toolchain}
}

// BuildCommand is how a release's binaries are built, as RELEASE.json records it.
func BuildCommand() string {
	return "CGO_ENABLED=0 GOAMD64=v1 GOARM64=v8.0 go " + strings.Join(buildFlags[:3], " ") + " '" + buildFlags[3] + "'"
}

// Layout of the distribution (docs/release.md). Each folder is the generated payload
// of the same name under the source commit's dist/ (gen's roots).
const (
	ManifestFile   = "RELEASE.json"
	ClaudeDir      = gen.ClaudeRoot
	CodexDir       = gen.CodexRoot
	AgentPluginDir = gen.AgentPluginRoot
	GeminiDir      = gen.GeminiRoot
	// MCPBDir holds the packed bundles, one per Windows architecture; RegistryDir the
	// MCP Registry's server.json filled with their hashes.
	MCPBDir     = gen.MCPBRoot
	RegistryDir = gen.RegistryRoot
	// PolicyDir holds the Group Policy templates (docs/policy.md, "Group Policy").
	PolicyDir = gen.PolicyRoot
	// Branch is the distribution repository's one branch, and the branch it is
	// published to.
	Branch = "dist"
)

// pluginFolders are the payloads that start a local binary, with the binaries their
// manifests start: each carries them in its own bin/ (a host copies only the plugin
// folder into its cache, so they cannot share one). Gemini CLI has no hooks.
var pluginFolders = []struct {
	dir      string
	binaries []string
}{
	{ClaudeDir, []string{"wda", "wda-hook"}},
	{CodexDir, []string{"wda", "wda-hook"}},
	{AgentPluginDir, []string{"wda", "wda-hook"}},
	{GeminiDir, []string{"wda"}},
}

// PluginDirs are the plugin folders of a distribution.
func PluginDirs() []string {
	var out []string
	for _, f := range pluginFolders {
		out = append(out, f.dir)
	}
	return out
}

// Manifest is RELEASE.json: what the distribution is and where it comes from.
type Manifest struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Repository   string   `json:"repository"`
	SourceCommit string   `json:"source_commit"`
	SourceDate   string   `json:"source_date"` // the source commit's committer date, UTC
	Go           string   `json:"go"`          // the toolchain the binaries were built with
	Build        string   `json:"build"`
	Targets      []string `json:"targets"`
}

// Tag is the tag a release is published under: dist/v<version>.
func (m Manifest) Tag() string { return Branch + "/v" + m.Version }

// file is one file of the distribution.
type file struct {
	path string // slash path under the distribution root
	exec bool
	data []byte
}

func (f file) mode() string {
	if f.exec {
		return "100755"
	}
	return "100644"
}

// Options say what Build builds.
type Options struct {
	// Source is a directory of the source repository.
	Source string
	// Commit is the source commit ("" is HEAD).
	Commit string
	// RequireClean refuses a source working tree with changes or untracked files
	// before anything is written: a release comes from a commit.
	RequireClean bool
	// Out is the distribution directory; it is replaced only when the build has
	// succeeded, and only if it is missing, empty or an earlier distribution.
	Out string
	// Targets defaults to Targets (tests build fewer).
	Targets []Target
	// Toolchain is GOTOOLCHAIN for the builds: "" is "local" (the go on PATH, whose
	// version is recorded); Verify passes the recorded version.
	Toolchain string
	// Log receives one line per step (nil discards).
	Log io.Writer
	// Runner starts every process (nil is proc.Exec{}).
	Runner proc.Runner
}

// Result is a finished distribution.
type Result struct {
	Dir      string
	Commit   string // the distribution commit
	Manifest Manifest
	Files    int
}

// ErrDirty is returned by Build when RequireClean finds changes.
var ErrDirty = errors.New("the working tree has changes; a release is built from a commit: commit or stash them first")

// Build assembles the distribution for a source commit: it checks the commit out into
// a temporary clone, builds wda and wda-hook for every target there, lays out the
// plugin folders (Claude Code, Codex, Agent Plugins, Gemini CLI) with the three
// marketplaces and RELEASE.json, packs the MCPB bundles and fills the MCP Registry's
// server.json, and commits the tree as the single, parentless commit of branch dist
// with fixed metadata. The same commit always gives the same distribution commit id.
func Build(ctx context.Context, o Options) (*Result, error) {
	if o.Runner == nil {
		o.Runner = proc.Exec{}
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Targets == nil {
		o.Targets = Targets
	}
	// Always in the order of Targets, once each: RELEASE.json lists them that way.
	o.Targets = slices.DeleteFunc(slices.Clone(Targets), func(t Target) bool { return !slices.Contains(o.Targets, t) })
	if o.Toolchain == "" {
		o.Toolchain = "local"
	}
	logf := func(format string, a ...any) { fmt.Fprintf(o.Log, "release: "+format+"\n", a...) }
	src, err := NewGit(o.Source)
	if err != nil {
		return nil, err
	}
	src.Runner = o.Runner
	if o.RequireClean {
		st, err := src.Run(ctx, "status", "--porcelain=v1", "--untracked-files=normal")
		if err != nil {
			return nil, err
		}
		if lines := strings.Split(strings.TrimRight(st, "\n"), "\n"); st != "" {
			if len(lines) > 10 {
				lines = append(lines[:10], "…")
			}
			return nil, fmt.Errorf("%w:\n  %s", ErrDirty, strings.Join(lines, "\n  "))
		}
	}
	out, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, err
	}
	if err := replaceable(out); err != nil {
		return nil, err
	}
	rev := o.Commit
	if rev == "" {
		rev = "HEAD"
	}
	commit, err := src.Run(ctx, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("source commit %q: %w", rev, err)
	}
	commit = strings.TrimSpace(commit)
	when, err := src.Run(ctx, "show", "-s", "--format=%ct", commit)
	if err != nil {
		return nil, err
	}
	unix, err := strconv.ParseInt(strings.TrimSpace(when), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("commit date of %s: %v", commit, err)
	}
	gt, err := newGoTool(o.Runner)
	if err != nil {
		return nil, err
	}

	common, err := src.Run(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "wda-release-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // temporary clone and builds; nothing to report
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	// The tree is staged beside out so that putting it in place is a rename.
	stageParent, err := os.MkdirTemp(filepath.Dir(out), ".release-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(stageParent) }() // empty once the stage is in place
	checkout := filepath.Join(tmp, "src")
	logf("source %s (%s)", commit, time.Unix(unix, 0).UTC().Format(time.RFC3339))
	logf("check out %s into a temporary clone", commit[:12])
	// --shared borrows the objects instead of copying them; -c core.autocrlf=false and
	// the repository's .gitattributes keep every file's bytes as committed.
	if _, err := src.Run(ctx, "clone", "-q", "--shared", "--no-checkout", "--", strings.TrimSpace(common), checkout); err != nil {
		return nil, err
	}
	if _, err := src.In(checkout).Run(ctx, "-c", "core.autocrlf=false", "checkout", "-q", "--detach", commit); err != nil {
		return nil, err
	}
	goVersion, err := gt.run(ctx, checkout, gt.env("GOTOOLCHAIN="+o.Toolchain, "GOWORK=off"), "env", "GOVERSION")
	if err != nil {
		return nil, err
	}
	m := Manifest{Repository: Repository, SourceCommit: commit, SourceDate: time.Unix(unix, 0).UTC().Format(time.RFC3339),
		Go: strings.TrimSpace(goVersion), Build: BuildCommand()}
	if m.Name, m.Version, err = payloadVersion(checkout); err != nil {
		return nil, err
	}
	logf("%s %s, %s, %d targets", m.Name, m.Version, m.Go, len(o.Targets))

	stage := filepath.Join(stageParent, "dist")
	var files []file
	windowsServer := map[string][]byte{} // GOARCH → wda.exe, for the MCPB bundles
	for _, t := range o.Targets {
		m.Targets = append(m.Targets, t.String())
		for _, b := range binaries {
			rel := path.Join("bin", t.dir(), b.name+t.exe())
			logf("build %-13s %-8s -> bin/%s", t, b.name, strings.TrimPrefix(rel, "bin/"))
			dst := filepath.Join(tmp, "build", filepath.FromSlash(rel))
			args := append(slices.Clone(buildFlags), "-o", dst, b.pkg)
			if _, err := gt.run(ctx, checkout, gt.env(buildEnv(t, o.Toolchain)...), args...); err != nil {
				return nil, fmt.Errorf("%s for %s: %w", b.name, t, err)
			}
			data, err := os.ReadFile(dst)
			if err != nil {
				return nil, err
			}
			for _, f := range pluginFolders {
				if slices.Contains(f.binaries, b.name) {
					files = append(files, file{path: path.Join(f.dir, rel), exec: true, data: data})
				}
			}
			if t.OS == "windows" && b.name == "wda" {
				windowsServer[t.Arch] = data
			}
		}
	}
	payload, err := payloadFiles(checkout, m)
	if err != nil {
		return nil, err
	}
	files = append(files, payload...)
	bundles, err := mcpbFiles(checkout, m, windowsServer, unix, logf)
	if err != nil {
		return nil, err
	}
	files = append(files, bundles...)
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.path, b.path) })
	logf("assemble %d files: %s/ (plugin folders), %s/, %s/, the three marketplaces, %s", len(files),
		strings.Join(PluginDirs(), "/, "), MCPBDir, RegistryDir, ManifestFile)
	if err := writeTree(stage, files); err != nil {
		return nil, err
	}
	dist, err := commitTree(ctx, src.In(stage), files, m, unix)
	if err != nil {
		return nil, err
	}
	if err := replace(out, stage); err != nil {
		return nil, err
	}
	logf("commit %s (branch %s, tag %s) in %s", dist, Branch, m.Tag(), o.Out)
	return &Result{Dir: out, Commit: dist, Manifest: m, Files: len(files)}, nil
}

// payloadManifests are the source's generated manifests that name the payload and its
// version.
var payloadManifests = []string{
	"dist/claude/.claude-plugin/plugin.json", "dist/codex/.codex-plugin/plugin.json",
	"dist/agent-plugin/plugin.json", "dist/gemini/gemini-extension.json", "dist/mcpb/manifest.json",
}

// payloadVersion reads the name and version from the source's generated manifests,
// which must all agree: the version belongs to the source commit, not to this program.
func payloadVersion(checkout string) (name, version string, err error) {
	type manifest struct{ Name, Version string }
	var got []manifest
	var seen []string
	for _, p := range payloadManifests {
		raw, err := os.ReadFile(filepath.Join(checkout, filepath.FromSlash(p)))
		if err != nil {
			return "", "", fmt.Errorf("source commit lacks %s: %w", p, err)
		}
		var m manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", "", fmt.Errorf("%s: %v", p, err)
		}
		got = append(got, m)
		seen = append(seen, fmt.Sprintf("%s %s@%s", p, m.Name, m.Version))
	}
	for _, m := range got {
		if m != got[0] || m.Name == "" || !versionRE.MatchString(m.Version) {
			return "", "", fmt.Errorf("payload manifests disagree or are incomplete: %s", strings.Join(seen, ", "))
		}
	}
	return got[0].Name, got[0].Version, nil
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// sourcePayload reads the generated payload dist/<dir> of the checkout (slash paths
// under it), leaving out a developer's build outputs in bin/.
func sourcePayload(checkout, dir string) ([]file, error) {
	root, err := os.OpenRoot(filepath.Join(checkout, "dist", dir))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var files []file
	fsys := root.FS()
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == "bin" {
				return fs.SkipDir // build outputs of a developer's checkout never ship
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("dist/%s/%s: not a regular file", dir, p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, file{path: p, data: data})
		return nil
	})
	return files, err
}

// payloadFiles are the distribution's files other than the binaries and the bundles:
// the generated plugin folders of the source commit (dist/claude, dist/codex,
// dist/agent-plugin, dist/gemini) with their dispatch scripts, the Group Policy
// templates (dist/policy), the three marketplaces,
// RELEASE.json, a README and the license.
func payloadFiles(checkout string, m Manifest) ([]file, error) {
	var files []file
	for _, f := range pluginFolders {
		src, err := sourcePayload(checkout, f.dir)
		if err != nil {
			return nil, err
		}
		for _, s := range src {
			files = append(files, file{path: path.Join(f.dir, s.path), data: s.data})
		}
		for _, b := range f.binaries {
			files = append(files, file{path: path.Join(f.dir, "bin", b), exec: true, data: dispatchScript(b)})
		}
	}
	templates, err := sourcePayload(checkout, PolicyDir)
	if err != nil {
		return nil, err
	}
	for _, s := range templates {
		files = append(files, file{path: path.Join(PolicyDir, s.path), data: s.data})
	}
	license, err := os.ReadFile(filepath.Join(checkout, "LICENSE"))
	if err != nil {
		return nil, err
	}
	claudeMkt, err := distClaudeMarketplace(m)
	if err != nil {
		return nil, err
	}
	codexMkt, err := codexMarketplace(codexSource{Source: "local", Path: "./" + CodexDir})
	if err != nil {
		return nil, err
	}
	copilotMkt, err := renderCopilotMarketplace("./"+AgentPluginDir, m.Version)
	if err != nil {
		return nil, err
	}
	manifest, err := gen.MarshalJSON(m)
	if err != nil {
		return nil, err
	}
	return append(files,
		file{path: ClaudeMarketplacePath, data: claudeMkt},
		file{path: CodexMarketplacePath, data: codexMkt},
		file{path: CopilotMarketplacePath, data: copilotMkt},
		file{path: ManifestFile, data: manifest},
		file{path: "README.md", data: distReadme(m)},
		file{path: "LICENSE", data: license},
	), nil
}

// replaceable refuses to overwrite a directory that is not a distribution.
func replaceable(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); err != nil {
		return fmt.Errorf("%s exists and holds no %s: not replacing a folder that is not a distribution", out, ManifestFile)
	}
	return nil
}

// replace puts stage at out, removing an earlier distribution only after the new one
// is complete.
func replace(out, stage string) error {
	old := ""
	if _, err := os.Stat(out); err == nil {
		old = out + ".old"
		if err := os.RemoveAll(old); err != nil {
			return err
		}
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(stage, out); err != nil {
		if old != "" {
			_ = os.Rename(old, out) // best effort: the rename error is what to report
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

func writeTree(dir string, files []file) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		perm := os.FileMode(0o644)
		if f.exec {
			perm = 0o755
		}
		if err := os.WriteFile(p, f.data, perm); err != nil {
			return err
		}
		if err := os.Chmod(p, perm); err != nil { // WriteFile's mode is masked by umask
			return err
		}
	}
	return nil
}

// Distribution commit identity: fixed, so the commit id is a function of the tree and
// the source commit's date.
const (
	committerName  = "Windows Dev Agent release"
	committerEmail = "release@windows-dev-agent.invalid"
)

// commitTree makes dir a git repository whose branch dist is one parentless commit of
// exactly files: blobs are written without filters and entered into the index with
// their recorded modes (never the file system's), so neither the machine's git
// configuration nor its file system changes the commit.
func commitTree(ctx context.Context, g *Git, files []file, m Manifest, unix int64) (string, error) {
	date := strconv.FormatInt(unix, 10) + " +0000"
	g = g.hermetic("GIT_AUTHOR_NAME="+committerName, "GIT_AUTHOR_EMAIL="+committerEmail, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME="+committerName, "GIT_COMMITTER_EMAIL="+committerEmail, "GIT_COMMITTER_DATE="+date)
	if _, err := g.Run(ctx, "init", "-q", "--object-format=sha1", "--initial-branch="+Branch, "."); err != nil {
		return "", err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.FromSlash(f.path)
	}
	out, err := g.Run(ctx, append([]string{"hash-object", "-w", "--no-filters", "--"}, paths...)...)
	if err != nil {
		return "", err
	}
	shas := strings.Fields(out)
	if len(shas) != len(files) {
		return "", fmt.Errorf("git hash-object: %d ids for %d files", len(shas), len(files))
	}
	args := []string{"update-index", "--add"}
	for i, f := range files {
		args = append(args, "--cacheinfo", f.mode()+","+shas[i]+","+f.path)
	}
	if _, err := g.Run(ctx, args...); err != nil {
		return "", err
	}
	tree, err := g.Run(ctx, "write-tree")
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("%s %s\n\nBuilt from %s (%s) with %s by `go tool mage release`.\n",
		m.Name, m.Version, m.SourceCommit, m.Repository, m.Go)
	commit, err := g.Run(ctx, "commit-tree", "--no-gpg-sign", "-m", msg, strings.TrimSpace(tree))
	if err != nil {
		return "", err
	}
	commit = strings.TrimSpace(commit)
	if _, err := g.Run(ctx, "update-ref", "refs/heads/"+Branch, commit); err != nil {
		return "", err
	}
	if _, err := g.Run(ctx, "tag", m.Tag(), commit); err != nil {
		return "", err
	}
	// The index has no stat data yet; refreshing it makes `git status` clean at once.
	if _, err := g.Run(ctx, "update-index", "-q", "--refresh"); err != nil {
		return "", err
	}
	return commit, nil
}

// dispatchScript is bin/wda and bin/wda-hook: on Linux and macOS both hosts start
// these extension-less names (on Windows they resolve to the .exe beside them and never
// read this file), and the script replaces itself with this machine's build. A machine
// the release has no build for fails with a message; for Claude's PreToolUse hook
// (onFailure "block") that blocks the guarded call.
func dispatchScript(name string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/sh
# Windows Dev Agent: starts this machine's build of %[1]s from the folder beside
# this script (docs/release.md in the source repository). Windows never runs this
# file: there the hosts start %[1]s.exe directly. On Linux the machine is read from
# /proc (no extra process per hook call); elsewhere, or on an older kernel, from uname.
m=
[ -r /proc/sys/kernel/arch ] && read -r m </proc/sys/kernel/arch
case $m in
x86_64) t=linux-amd64 ;;
aarch64) t=linux-arm64 ;;
*)
	case "$(uname -sm)" in
	'Linux x86_64') t=linux-amd64 ;;
	'Linux aarch64' | 'Linux arm64') t=linux-arm64 ;;
	'Darwin x86_64') t=darwin-amd64 ;;
	'Darwin arm64') t=darwin-arm64 ;;
	*) echo "%[1]s: this release has no build for $(uname -sm)" >&2; exit 126 ;;
	esac
	;;
esac
d=${0%%/*}
[ "$d" = "$0" ] && d=.
exec "$d/$t/%[1]s" "$@"
`, name)
	return b.Bytes()
}

func distReadme(m Manifest) []byte {
	bundles := []string{}
	for _, arch := range gen.MCPBArchs {
		bundles = append(bundles, "`"+MCPBDir+"/"+gen.MCPBAssetName(m.Version, arch)+"`")
	}
	return fmt.Appendf(nil, `# Windows Dev Agent %[1]s: distribution

This commit is the published payload of Windows Dev Agent %[1]s, built from
%[2]s/commit/%[3]s by `+"`go tool mage release`"+`. Nothing here is edited by hand:
in a checkout of the source, `+"`go run ./gen/cmd/release verify DIR`"+` rebuilds every
file from that commit and compares.

It is a marketplace for Claude Code (`+"`.claude-plugin/marketplace.json`"+`), Codex
(`+"`.agents/plugins/marketplace.json`"+`) and the GitHub Copilot CLI
(`+"`.github/plugin/marketplace.json`"+`). `+"`%[4]s/`"+`, `+"`%[5]s/`"+`, `+"`%[8]s/`"+` (Agent Plugins:
Copilot CLI, VS Code, Cursor) and `+"`%[9]s/`"+` (a Gemini CLI extension) are the plugin
folders, each with `+"`wda`"+` (the MCP server) and, where the host runs hooks,
`+"`wda-hook`"+`, for %[6]s. %[10]s are the MCP Bundles (Claude Desktop, Windows) and
`+"`%[11]s/server.json`"+` the MCP Registry entry naming them. `+"`%[12]s/`"+` holds the
Group Policy templates of the managed policy (`+"`WindowsDevAgent.admx`"+` and
`+"`en-US/WindowsDevAgent.adml`"+`, for PolicyDefinitions).

From a clone of this commit:

    claude plugin marketplace add ./DIR
    claude plugin install %[7]s@%[7]s

    codex plugin marketplace add ./DIR
    codex plugin add %[7]s@%[7]s

    copilot plugin marketplace add ./DIR
    copilot plugin install %[7]s@%[7]s

    gemini extensions install ./DIR/%[9]s
`, m.Version, strings.TrimSuffix(m.Repository, ".git"), m.SourceCommit, ClaudeDir, CodexDir,
		strings.Join(m.Targets, ", "), m.Name, AgentPluginDir, GeminiDir, strings.Join(bundles, " and "), RegistryDir, PolicyDir)
}
