// Package tooldiscover is the tool_discover tool: for a fixed table of developer tools
// it resolves each name from PATH (never the cwd, never PATHEXT) and reports the
// absolute path and version.
//
// Versions come from running the tool with its version flag (`go version`,
// `java -version`, `git-lfs version`, otherwise `--version`) through the bounded
// runner, 5 s each, from a neutral working directory (the OS temp dir) so project
// files such as go.mod toolchain lines or global.json cannot change what runs. A
// version is "known" only when the probe succeeded and the stream it was read from is
// whole, and only when the text is a version: a heading such as Scoop's "Current Scoop
// version:" is skipped, a git commit line without a release tag is no version, and
// neither is a line without a digit (VersionLine; version_note says why). The GUI programs devenv, rider and pycharm are never launched: their version is
// the Windows file-version resource (tools/tooldiscover/internal/filever).
//
// `code` is probed by command (docs/tools/tool_discover.md, "Decisions"): the name is VS
// Code's command-line entry point, which prints its version and exits without opening a
// window, and probing by command works the same on every OS. On Windows the usual
// code.cmd shim is never a resolution candidate (.bat/.cmd are never run), so `code` is
// only found when an .exe, .com or .ps1 of that name is on PATH.
//
// It never runs anything but the resolved absolute executable with its fixed version
// argument.
package tooldiscover

import (
	"context"
	"encoding/json"
	"os"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/tooldiscover/internal/filever"
)

// In is the input of tool_discover.
type In struct {
	Category string `json:"category,omitempty" jsonschema:"enum=all,enum=runtimes,enum=editors,enum=package_managers,enum=vcs,default=all"`
}

// Entry is what is known about one tool. Its JSON says each thing once (MarshalJSON,
// docs/tools/tool_discover.md, "Output"): a missing tool is {available:false}; a found
// one has its path, and its version or version_status unknown.
type Entry struct {
	Available     bool    `json:"available" jsonschema:"required"`
	Path          string  `json:"path,omitempty" jsonschema:"description=Absolute resolved executable."`
	Version       *string `json:"version" jsonschema:"nullable,description=First line of the version output or the a.b.c.d file version; absent when not established."`
	VersionStatus string  `json:"version_status,omitempty" jsonschema:"enum=known,enum=unknown"`
	VersionSource string  `json:"version_source,omitempty" jsonschema:"enum=command,enum=windows_file_version"`
	VersionNote   string  `json:"version_note,omitempty" jsonschema:"description=Why a version the tool printed was not taken (the output was not understood); absent otherwise."`
}

// MarshalJSON leaves out what another field says (issue 24): version_status known (the
// version says it), version_source command (every tool but the GUI programs), and the
// version of a tool whose version was not established or that was not found.
func (e Entry) MarshalJSON() ([]byte, error) {
	type wire struct {
		Available     bool    `json:"available"`
		Path          string  `json:"path,omitempty"`
		Version       *string `json:"version,omitempty"`
		VersionStatus string  `json:"version_status,omitempty"`
		VersionSource string  `json:"version_source,omitempty"`
		VersionNote   string  `json:"version_note,omitempty"`
	}
	w := wire(e)
	if w.VersionStatus == "known" {
		w.VersionStatus = ""
	}
	if w.VersionSource == "command" {
		w.VersionSource = ""
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an entry back as MarshalJSON wrote it, the left-out words
// restored: encoding and decoding lose nothing.
func (e *Entry) UnmarshalJSON(b []byte) error {
	type plain Entry
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Available {
		if p.VersionStatus == "" && p.Version != nil {
			p.VersionStatus = "known"
		}
		if p.VersionSource == "" {
			p.VersionSource = "command"
		}
	}
	*e = Entry(p)
	return nil
}

// Runtimes is the runtimes group.
type Runtimes struct {
	Python Entry `json:"python" jsonschema:"required"`
	Py     Entry `json:"py" jsonschema:"required"`
	Node   Entry `json:"node" jsonschema:"required"`
	Cargo  Entry `json:"cargo" jsonschema:"required"`
	Go     Entry `json:"go" jsonschema:"required"`
	Dotnet Entry `json:"dotnet" jsonschema:"required"`
	Java   Entry `json:"java" jsonschema:"required"`
}

// Editors is the editors group.
type Editors struct {
	Code    Entry `json:"code" jsonschema:"required"`
	Devenv  Entry `json:"devenv" jsonschema:"required"`
	Rider   Entry `json:"rider" jsonschema:"required"`
	Pycharm Entry `json:"pycharm" jsonschema:"required"`
}

// PackageManagers is the package_managers group.
type PackageManagers struct {
	Winget Entry `json:"winget" jsonschema:"required"`
	Choco  Entry `json:"choco" jsonschema:"required"`
	Scoop  Entry `json:"scoop" jsonschema:"required"`
	Pip    Entry `json:"pip" jsonschema:"required"`
	UV     Entry `json:"uv" jsonschema:"required"`
	Npm    Entry `json:"npm" jsonschema:"required"`
}

// VCS is the vcs group.
type VCS struct {
	Git    Entry `json:"git" jsonschema:"required"`
	Gh     Entry `json:"gh" jsonschema:"required"`
	GitLFS Entry `json:"git-lfs" jsonschema:"required"`
}

// Out is the result of tool_discover: the requested groups (all four for "all") and
// whether any probe process started. Status is always ok: a missing tool is a fact,
// not a failure.
type Out struct {
	tools.Status
	Runtimes        *Runtimes        `json:"runtimes,omitempty"`
	Editors         *Editors         `json:"editors,omitempty"`
	PackageManagers *PackageManagers `json:"package_managers,omitempty"`
	VCS             *VCS             `json:"vcs,omitempty"`
}

// Deps are the authorities tool_discover consults; tests pass fakes.
type Deps struct {
	// Resolver finds executables on the call's PATH.
	Resolver func(getenv func(string) string) proc.Resolver
	Runner   proc.Runner
	// FileVersion reads a Windows executable's version resource.
	FileVersion func(path string) (string, error)
	// Dir is the neutral working directory of the probes.
	Dir func() string
}

// DefaultDeps are the real resolver, runner and file-version reader.
func DefaultDeps() Deps {
	return Deps{
		Resolver:    func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) },
		Runner:      proc.Exec{},
		FileVersion: filever.Version,
		Dir:         os.TempDir,
	}
}

// New returns the tool_discover tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "tool_discover",
		Order:       2,
		Title:       "Discover tools",
		Description: "Path and version of developer tools on PATH: runtimes, editors, package managers, VCS (runs each one's version flag).",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		// Probing executes external programs, so the host is asked even though nothing
		// is mutated.
		Classes:  tools.Classification{Base: tools.ApprovalRequired},
		Starts:   tools.AlwaysCond,
		Statuses: []string{"ok"},
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			p := Prober{Resolver: d.Resolver(env.Lookup), Runner: d.Runner, FileVersion: d.FileVersion, Dir: d.Dir(), Progress: env.Report}
			return p.Discover(ctx, in.Category), nil
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }
