package packageinstall

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
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

// Verify is the hint every plan and result carries.
const Verify = "Installer exit status is not proof that the package works. Next: env_inspect with force_refresh:true " +
	"(the cache was invalidated), or tool_discover with category \"runtimes\" or \"package_managers\" (or \"all\") to confirm " +
	"the installed executable and its version, then check the task that needed the package."

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
func Argv(source, id string) []string {
	switch source {
	case "chocolatey":
		return []string{"choco", "install", id, "-y"}
	case "scoop":
		return []string{"scoop", "install", id}
	default:
		return []string{"winget", "install", "--id", id, "--exact", "--source", "winget",
			"--accept-package-agreements", "--accept-source-agreements", "--disable-interactivity"}
	}
}

// ValidID reports whether id is an acceptable package_id: at most 256 characters, an
// ASCII letter or digit first, then letters, digits, '.', '_', '+', '-'. It can never
// look like an option or carry shell or argument syntax.
func ValidID(id string) bool {
	return len(id) <= MaxIDLength && idPattern().MatchString(id)
}

func refuse(status, msg string) Out {
	return Out{Status: tools.Status{Status: status, Error: msg}}
}

func (d Deps) handle(ctx context.Context, env *tools.Env, in In) Out {
	source := in.Source
	if source == "" {
		source = "winget"
	}
	exe, ok := managers[source]
	if !ok {
		return refuse("invalid_input", "source must be one of [winget chocolatey scoop]")
	}
	if !ValidID(in.PackageID) {
		return refuse("invalid_input", "package_id contains unsupported characters")
	}

	argv := Argv(source, in.PackageID)
	p := &Plan{PackageID: in.PackageID, Source: source, SafetyClass: string(tools.ApprovalRequired),
		RequiresHostApproval: true, Verify: Verify}
	path, resolved := d.Resolver(env.Lookup).Resolve(exe)
	var current proc.Identity
	if resolved {
		argv[0] = path
		p.Executable, p.ExecutableResolved = &path, true
		// Step 1: a resolved manager whose identity cannot be fingerprinted is unusable,
		// even for a plan: the plan could not be echoed.
		id, err := d.Fingerprint(path)
		if err != nil || !id.Valid() {
			p.Argv, p.Command = argv, plan.Command(argv)
			return Out{Status: tools.Status{Status: "unavailable", Error: "Package-manager executable identity could not be established"}, Plan: p}
		}
		current = id
		kind, sha := string(id.Kind), id.SHA256
		p.ExecutableIdentityKind, p.ExecutableIdentitySHA256 = &kind, &sha
	}
	p.Argv, p.Command = argv, plan.Command(argv)

	// Step 2: planning never invalidates the cache or runs anything.
	if !in.Execute {
		return Out{Status: tools.Status{Status: "planned"}, Plan: p}
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
