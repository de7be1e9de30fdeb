package discovery

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// nativeProducer establishes everything except the optional features with native
// APIs: RtlGetVersion and friends, the registry (64-bit view), the file system and the
// Dev Drive FSCTL. The only process it may start is vswhere.exe, through the runner.
type nativeProducer struct {
	reg          Registry
	runner       proc.Runner
	getenv       func(string) string
	cwd          func() (string, error)
	systemBinary func(string) (string, error)
	// docker probes the Docker engine; nil leaves docker_running unknown.
	docker func(context.Context) (*bool, error)
}

// Name implements Producer.
func (nativeProducer) Name() string { return "native" }

// Produce implements Producer.
func (p nativeProducer) Produce(ctx context.Context) Facts {
	var f Facts
	sys, err := systemFacts(p.reg)
	if err != nil {
		sys = System{OSName: UnknownOSName}
		f.Errors = append(f.Errors, "System information was not established: "+err.Error())
	}
	f.System = &sys

	wsl, errs := readWSLFacts(p.reg, func() (string, error) { return p.systemBinary("wsl.exe") })
	f.WSL = &wsl
	f.Errors = append(f.Errors, errs...)

	dd, errs := devDriveFacts()
	f.DevDrive = &dd
	f.Errors = append(f.Errors, errs...)

	tools := unknownTools()
	if cwd, err := p.cwd(); err != nil {
		f.Errors = append(f.Errors, "Executable search authority was not established: "+err.Error())
	} else {
		sp := newSearchPath(p.getenv, cwd, true)
		ev := editorEvidence{}
		pf, pfErr := windows.KnownFolderPath(windows.FOLDERID_ProgramFiles, 0)
		if pfErr == nil {
			ev.VSCodeFile = fileExists(filepath.Join(pf, "Microsoft VS Code", "Code.exe"))
			var jbErr error
			ev.Rider, ev.PyCharm, ev.CLion, jbErr = jetBrains(filepath.Join(pf, "JetBrains"))
			if jbErr != nil {
				f.Errors = append(f.Errors, "JetBrains editor presence was not established: "+jbErr.Error())
			}
		} else {
			f.Errors = append(f.Errors, "Program Files folder was not established: "+pfErr.Error())
		}
		var started bool
		ev.VisualStudio, started, err = visualStudio(ctx, sp, vswhereLocators(), p.runner)
		f.ExecutionStarted = started
		if err != nil {
			f.Errors = append(f.Errors, err.Error())
		}
		if p.docker != nil {
			var dErr error
			if ev.DockerRunning, dErr = p.docker(ctx); dErr != nil {
				f.Errors = append(f.Errors, dErr.Error())
			}
		}
		tools = presence(sp, ev)
	}
	f.Tools = &tools
	return f
}

// vswhereLocators are the installer's locator paths under the known Program Files
// folders (x86 first), never hard-coded drive letters.
func vswhereLocators() []string {
	var out []string
	for _, id := range []*windows.KNOWNFOLDERID{windows.FOLDERID_ProgramFilesX86, windows.FOLDERID_ProgramFiles} {
		if dir, err := windows.KnownFolderPath(id, 0); err == nil && dir != "" {
			out = append(out, filepath.Join(dir, "Microsoft Visual Studio", "Installer", "vswhere.exe"))
		}
	}
	return out
}

// fileExists is a tri-state Lstat: true when present, false when absent, nil on any
// other metadata error.
func fileExists(p string) *bool {
	_, err := os.Lstat(p)
	switch {
	case err == nil:
		return True()
	case errors.Is(err, fs.ErrNotExist):
		return False()
	}
	return nil
}

// jetBrains is the weak directory heuristic kept for presence only:
// <ProgramFiles>\JetBrains\Rider* (PyCharm*, CLion*).
func jetBrains(dir string) (rider, pycharm, clion *bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, err
	}
	has := func(prefix string) *bool {
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(strings.ToLower(e.Name()), prefix) {
				return True()
			}
		}
		return False()
	}
	return has("rider"), has("pycharm"), has("clion"), nil
}
