package packageinstall

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// Timeout is the installer timeout (docs/tools/package_install.md, "Limits").
const Timeout = 600 * time.Second

// MaxIDLength is the longest package_id accepted.
const MaxIDLength = 256

// idPattern is compiled on first use so hook processes, which link every tool, do not
// pay for it at start-up.
var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`) })

// managers maps a source to the executable name resolved on PATH.
var managers = map[string]string{"winget": "winget", "chocolatey": "choco", "scoop": "scoop"}

// Verify is the hint every install plan and result carries; VerifyUpgrade and
// VerifyUninstall are those of the other actions.
const (
	Verify = "Installer exit status is not proof that the package works. Next: env_inspect with force_refresh:true " +
		"(the cache was invalidated), or tool_discover with category \"runtimes\" or \"package_managers\" (or \"all\") to confirm " +
		"the installed executable and its version, then check the task that needed the package."
	VerifyUpgrade = "Upgrade exit status is not proof that the new version works. Next: env_inspect with force_refresh:true " +
		"(the cache was invalidated), or tool_discover with category \"runtimes\" or \"package_managers\" (or \"all\") to confirm " +
		"the executable now reports the new version, then check the task that needed the package."
	VerifyUninstall = "Uninstaller exit status is not proof that the package is gone. Next: package_search with installed:true " +
		"to confirm the manager no longer lists it, and env_inspect with force_refresh:true or tool_discover (the cache was " +
		"invalidated) to confirm its executable is no longer found."
)

// verifyFor is the verify hint of action.
func verifyFor(action string) string {
	switch action {
	case ActionUpgrade:
		return VerifyUpgrade
	case ActionUninstall:
		return VerifyUninstall
	}
	return Verify
}

// The actions (docs/tools/package_install.md, "Input").
const (
	ActionInstall   = "install"
	ActionUpgrade   = "upgrade"
	ActionUninstall = "uninstall"
)

// MaxVersionLength is the longest version accepted.
const MaxVersionLength = 128

// The refusals of action and version (docs/tools/package_install.md, "Errors").
const (
	errAction         = "action must be one of [install upgrade uninstall]"
	errVersion        = "version must be 1-128 characters: letters, digits, '.', '_', '+', '-', starting with a letter or digit"
	errVersionNuGet   = "version for chocolatey must be a NuGet version: 1 to 4 dot-separated numbers, optionally followed by -prerelease and +metadata (letters, digits, '.', '-')"
	errVersionRemove  = "version applies to install and upgrade only: uninstall removes the installed package whatever its version"
	errVersionScoopUp = "version cannot be used to upgrade with scoop: scoop update takes no version (uninstall, then install with the version)"
)

// Deps are the authorities package_install consults; tests pass fakes.
type Deps struct {
	Fingerprint func(string) (proc.Identity, error)
	// Invalidate drops the environment snapshot cache of a data dir.
	Invalidate func(dataDir string) error
	Run        func(context.Context, proc.Request) proc.Receipt
	Resolver   func(getenv func(string) string) proc.Resolver
	Timeout    time.Duration
}

// DefaultDeps are the real fingerprint, cache, runner and resolver, and the 600 s
// timeout.
func DefaultDeps() Deps {
	return Deps{Fingerprint: proc.Fingerprint, Invalidate: discovery.InvalidateCache, Run: proc.Run, Timeout: Timeout,
		Resolver: func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) }}
}

// Argv is the install argv for source with the bare executable name as argv[0]
// (docs/tools/package_install.md, "Processes").
func Argv(source, id string) []string { return ActionArgv(source, ActionInstall, id, "") }

// ActionArgv is the argv of action on package id for source, with the bare executable
// name as argv[0]; version, when not empty, is the exact version to install or upgrade
// to (docs/tools/package_install.md, "Processes"). Each form is the manager's own
// non-interactive one; WinGet is bound to the winget source and given only the agreement
// flags that command accepts (winget uninstall takes no --accept-package-agreements).
func ActionArgv(source, action, id, version string) []string {
	switch source {
	case "chocolatey":
		argv := []string{"choco", action, id, "-y"}
		if action == ActionUpgrade {
			// choco upgrade installs a package that is not installed; an upgrade must not.
			argv = append(argv, "--fail-on-not-installed")
		}
		if version != "" {
			argv = append(argv, "--version="+version)
		}
		return argv
	case "scoop":
		switch action {
		case ActionUpgrade:
			return []string{"scoop", "update", id}
		case ActionUninstall:
			return []string{"scoop", "uninstall", id}
		}
		if version != "" {
			id += "@" + version
		}
		return []string{"scoop", "install", id}
	}
	argv := []string{"winget", action, "--id", id, "--exact"}
	if version != "" {
		argv = append(argv, "--version", version)
	}
	argv = append(argv, "--source", "winget")
	if action != ActionUninstall {
		argv = append(argv, "--accept-package-agreements")
	}
	argv = append(argv, "--accept-source-agreements")
	if action != ActionInstall {
		argv = append(argv, "--silent")
	}
	return append(argv, "--disable-interactivity")
}

// checkVersion is the refusal of version for action with source, "" when it is
// acceptable (docs/tools/package_install.md, "Decision order"). It decides from the
// text alone: whether the manager offers that version for the id is for the manager to
// say when it runs, before it changes anything.
func checkVersion(source, action, version string) string {
	if version == "" {
		return ""
	}
	switch {
	case action == ActionUninstall:
		return errVersionRemove
	case source == "scoop" && action == ActionUpgrade:
		return errVersionScoopUp
	case !validVersion(version):
		return errVersion
	case source == "chocolatey" && !nugetVersion(version):
		return errVersionNuGet
	}
	return ""
}

// validVersion reports a version every manager can take as one argument: at most 128
// characters, an ASCII letter or digit first (so never an option), then letters,
// digits, '.', '_', '+', '-' (no space, no shell or argument syntax, no '@' or path
// separator that Scoop's app@version or a manager's folder names would read).
func validVersion(v string) bool {
	if len(v) == 0 || len(v) > MaxVersionLength || !alnum(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		if c := v[i]; !alnum(c) && c != '.' && c != '_' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// nugetVersion reports a version Chocolatey (NuGet.Versioning) parses: 1 to 4
// dot-separated numbers, then optionally -prerelease and +metadata, each one or more
// dot-separated identifiers of letters, digits and '-'.
func nugetVersion(v string) bool {
	v, meta, hasMeta := strings.Cut(v, "+")
	if hasMeta && !identifiers(meta) {
		return false
	}
	nums, pre, hasPre := strings.Cut(v, "-")
	if hasPre && !identifiers(pre) {
		return false
	}
	parts := strings.Split(nums, ".")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// identifiers reports one or more dot-separated non-empty runs of letters, digits, '-'.
func identifiers(s string) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		for i := 0; i < len(id); i++ {
			if !alnum(id[i]) && id[i] != '-' {
				return false
			}
		}
	}
	return true
}

// ValidID reports whether id is an acceptable package_id: at most 256 characters, an
// ASCII letter or digit first, then letters, digits, '.', '_', '+', '-'. It can never
// look like an option or carry shell or argument syntax.
func ValidID(id string) bool {
	return len(id) <= MaxIDLength && idPattern().MatchString(id)
}

func refuse(msg string) Out {
	return Out{Status: tools.Status{Status: "invalid_input", Error: msg}}
}

func (d Deps) handle(ctx context.Context, env *tools.Env, in In) Out {
	source := in.Source
	if source == "" {
		source = "winget"
	}
	exe, ok := managers[source]
	if !ok {
		return refuse("source must be one of [winget chocolatey scoop]")
	}
	if !ValidID(in.PackageID) {
		return refuse("package_id contains unsupported characters")
	}
	action := in.Action
	switch action {
	case "":
		action = ActionInstall
	case ActionInstall, ActionUpgrade, ActionUninstall:
	default:
		return refuse(errAction)
	}
	if msg := checkVersion(source, action, in.Version); msg != "" {
		return refuse(msg)
	}

	argv := ActionArgv(source, action, in.PackageID, in.Version)
	p := &Plan{PackageID: in.PackageID, Source: source, Action: action, Version: in.Version,
		SafetyClass: string(tools.ApprovalRequired), Verify: verifyFor(action)}
	path, resolved := d.Resolver(env.Lookup).Resolve(exe)
	var current proc.Identity
	if resolved {
		argv[0] = path
		p.Executable = &path
		// Step 1: a resolved manager whose identity cannot be fingerprinted is unusable,
		// even for a plan: the plan could not be echoed.
		id, err := d.Fingerprint(path)
		if err != nil || !id.Valid() {
			p.Argv = argv
			return Out{Status: tools.Status{Status: "unavailable", Error: "Package-manager executable identity could not be established"}, Plan: p}
		}
		current = id
		kind, sha := string(id.Kind), id.SHA256
		p.ExecutableIdentityKind, p.ExecutableIdentitySHA256 = &kind, &sha
	}
	p.Argv = argv
	if !resolved {
		p.ExecutableResolved = new(false)
	}

	// Step 2: planning never invalidates the cache or runs anything.
	if !in.Execute {
		out := Out{Status: tools.Status{Status: "planned"}, Plan: p}
		if resolved {
			exec := in
			exec.Source, exec.Action, exec.Execute = source, action, true
			exec.Identity = tools.Identity{ExpectedExecutable: path, ExpectedExecutableIdentityKind: string(current.Kind),
				ExpectedExecutableIdentitySHA: current.SHA256}
			out.ExecuteArguments = &exec
			// The identity is said once, where it is echoed from.
			p.Executable, p.ExecutableIdentityKind, p.ExecutableIdentitySHA256 = nil, nil, nil
		}
		return out
	}
	// Step 3.
	if !resolved {
		return Out{Status: tools.Status{Status: "unavailable", Error: exe + " is not installed"}, Plan: p}
	}
	// Steps 4-7: the echo of the reviewed plan.
	seal, refusal := plan.CheckEcho(in.Identity, path, current)
	if refusal != nil {
		return Out{Status: tools.Status{Status: refusal.Status, Error: refusal.Error}, Plan: p}
	}
	// Step 8: invalidate the environment cache first; without that, no installer.
	if err := d.Invalidate(env.DataDir); err != nil {
		return Out{Status: tools.Status{Status: "failed",
			Error: fmt.Sprintf("Environment cache could not be invalidated (%v); the installer was not started", err)},
			Plan: p, EnvironmentCacheInvalidated: new(false)}
	}
	// Step 9: run sealed to the echoed identity. From here the cache stays invalidated
	// whatever happens: a failed or timed-out installer may have changed the machine.
	r := d.Run(ctx, proc.Request{Argv: argv, Dir: filepath.Dir(path), Timeout: d.Timeout, Expected: seal,
		OnProgress: plan.Progress(env.Progress)})
	return Out{Status: plan.Merge(plan.RunStatus(r), "", r), Plan: p, Receipt: plan.FromReceipt(r), EnvironmentCacheInvalidated: new(true)}
}
