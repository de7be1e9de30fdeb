package discovery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// vswhere limits: a Microsoft-maintained locator that answers in well under a second.
const (
	vswhereTimeout     = 10 * time.Second
	vswhereStdoutLimit = 64 << 10
	vswhereStderrLimit = 16 << 10
)

// vswhereArgs is the default query: complete, launchable IDE instances only
// (Community/Professional/Enterprise; Build Tools alone reports false).
var vswhereArgs = []string{"-prerelease", "-latest", "-property", "installationPath"}

// visualStudio is the Visual Studio presence fact (docs/discovery.md,
// "Editors and Visual Studio"): devenv on the sanitized path, else the installer's
// locator run through the bounded runner. A missing locator gives nil (its absence does
// not prove VS is absent); a directory name is never evidence.
func visualStudio(ctx context.Context, sp searchPath, locators []string, run proc.Runner) (avail *bool, started bool, err error) {
	if IsTrue(sp.has("devenv")) {
		return True(), false, nil
	}
	exe := ""
	for _, c := range locators {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() && filepath.IsAbs(c) {
			exe = c
			break
		}
	}
	if exe == "" {
		return nil, false, nil
	}
	r := run.Run(ctx, proc.Request{
		Argv:        append([]string{exe}, vswhereArgs...),
		Dir:         filepath.Dir(exe),
		Timeout:     vswhereTimeout,
		StdoutLimit: vswhereStdoutLimit,
		StderrLimit: vswhereStderrLimit,
	})
	switch {
	case !r.ExecutionStarted:
		return nil, false, fmt.Errorf("Visual Studio Installer locator could not start: %s", r.Error)
	case r.TimedOut:
		return nil, true, fmt.Errorf("Visual Studio Installer locator timed out after %s", vswhereTimeout)
	case r.ReturnCode == nil:
		return nil, true, fmt.Errorf("Visual Studio Installer locator did not report an exit code: %s", firstNonEmpty(r.LifecycleError, r.Error))
	case *r.ReturnCode != 0:
		return nil, true, fmt.Errorf("Visual Studio Installer locator exited %d", *r.ReturnCode)
	case !r.StdoutWhole():
		return nil, true, fmt.Errorf("Visual Studio Installer locator output was incomplete or truncated")
	}
	for _, line := range strings.Split(r.Stdout, "\n") {
		if strings.TrimSpace(line) != "" {
			return True(), true, nil
		}
	}
	return False(), true, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return "unknown error"
}
