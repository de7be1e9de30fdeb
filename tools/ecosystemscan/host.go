package ecosystemscan

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
)

// Host inventory limits (docs/tools/ecosystem_scan.md, "Limits").
const (
	CodeTimeout       = 20 * time.Second
	WingetTimeout     = 90 * time.Second
	WingetStdoutLimit = 64 << 10
	MaxPackageLines   = 300
)

// Warnings with contractual wording.
const (
	WarnCodeIncomplete   = "VS Code extension inventory output was incomplete or truncated"
	WarnCodeFailed       = "VS Code extension inventory failed"
	WarnCodeMissing      = "VS Code CLI (code) is not available"
	WarnWingetIncomplete = "winget list output was incomplete or truncated"
	WarnWingetFailed     = "winget list failed"
	WarnWingetMissing    = "winget is not available"
)

// WingetListArgs follow the executable in the winget list argv.
var WingetListArgs = []string{"list", "--source", "winget", "--disable-interactivity"}

// vscodeExtensions runs `code --list-extensions`; only a whole, successful output
// counts as the installed list.
func (s *scanner) vscodeExtensions() {
	code, ok := s.deps.Resolve(s.env, "code")
	if !ok {
		s.warn(WarnCodeMissing)
		return
	}
	// The program runs in its own directory, never the project: a project must not be
	// able to plant files a program loads from its working directory.
	r := s.deps.Run(s.ctx, proc.Request{Argv: []string{code, "--list-extensions"}, Dir: filepath.Dir(code), Timeout: CodeTimeout})
	s.started = s.started || r.ExecutionStarted
	switch {
	case !r.Succeeded:
		s.warn(WarnCodeFailed)
	case !r.StdoutWhole():
		s.warn(WarnCodeIncomplete)
	default:
		for _, l := range strings.Split(r.Stdout, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				s.inv.VSCode.Installed = append(s.inv.VSCode.Installed, l)
			}
		}
	}
}

// packages runs winget list with a 64 KiB stdout cap and keeps the first 300 lines of
// a whole, successful output.
func (s *scanner) packages() {
	s.inv.Packages.Queried = true
	winget, ok := s.deps.Resolve(s.env, "winget")
	if !ok {
		s.warn(WarnWingetMissing)
		return
	}
	argv := append([]string{winget}, WingetListArgs...)
	r := s.deps.Run(s.ctx, proc.Request{Argv: argv, Dir: filepath.Dir(winget), Timeout: WingetTimeout, StdoutLimit: WingetStdoutLimit})
	s.started = s.started || r.ExecutionStarted
	switch {
	case !r.Succeeded:
		s.warn(WarnWingetFailed)
	case !r.StdoutWhole():
		s.warn(WarnWingetIncomplete)
	default:
		for _, l := range pkgtable.Lines(r.Stdout) {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if len(s.inv.Packages.Items) == MaxPackageLines {
				break
			}
			s.inv.Packages.Items = append(s.inv.Packages.Items, l)
		}
	}
}

// claudePlugins lists ~/.claude/plugins child names, sorted; ~ is home.Dir's, the same
// home the host adapters expand ~ with (docs/platform.md).
func (s *scanner) claudePlugins() {
	h := home.Dir(s.env.Lookup)
	if h == "" {
		return
	}
	dir := filepath.Join(h, ".claude", "plugins")
	names, err := childNames(dir, false)
	if err != nil {
		s.warn("Could not read %s: %v", dir, err)
		return
	}
	s.inv.ClaudePlugins = names
}

// childNames lists the names in dir, sorted ([] when dir is missing). With dirsOnly,
// only directories count (a link to a directory included).
func childNames(dir string, dirsOnly bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, e := range entries {
		if dirsOnly && !e.IsDir() {
			if e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			if fi, err := os.Stat(filepath.Join(dir, e.Name())); err != nil || !fi.IsDir() {
				continue
			}
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names, nil
}
