package packagesearch

import (
	"context"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Timeout is the search timeout, ListTimeout that of an installed list (a list of
// upgrades asks the sources about every installed package), ListStdoutLimit the stdout
// an installed list is read and parsed from, and ResultStdoutLimit the tail of it a
// result carries (docs/tools/package_search.md, "Limits").
const (
	Timeout           = 90 * time.Second
	ListTimeout       = 300 * time.Second
	ListStdoutLimit   = 1 << 20
	ResultStdoutLimit = proc.DefaultStdoutLimit
)

// managers maps a source to the executable name resolved on PATH.
var managers = map[string]string{"winget": "winget", "chocolatey": "choco", "scoop": "scoop"}

// Deps are the authorities package_search consults; tests pass fakes.
type Deps struct {
	Run                  func(context.Context, proc.Request) proc.Receipt
	Resolver             func(getenv func(string) string) proc.Resolver
	Timeout, ListTimeout time.Duration
}

// DefaultDeps are the real runner and resolver and the 90 s and 300 s timeouts.
func DefaultDeps() Deps {
	return Deps{Run: proc.Run, Timeout: Timeout, ListTimeout: ListTimeout,
		Resolver: func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) }}
}

const (
	errQuery       = "query must be 1-160 printable characters"
	errQueryOption = "query must not start with '-': the package manager would read it as an option"
	warnIncomplete = "package manager output is incomplete or truncated; matches were not parsed from it (narrow the query)"
)

// Argv is the search argv for source with the bare executable name as argv[0]
// (docs/tools/package_search.md, "Processes"). It never contains install or an agreement
// flag.
func Argv(source, query string) []string {
	switch source {
	case "chocolatey":
		return []string{"choco", "search", query, "--limit-output"}
	case "scoop":
		return []string{"scoop", "search", query}
	default:
		return []string{"winget", "search", "--query", query, "--source", "winget", "--disable-interactivity"}
	}
}

// validQuery checks the trimmed query: 1-160 characters, none of them control.
func validQuery(q string) (string, string) {
	q = strings.TrimSpace(q)
	if n := utf8.RuneCountInString(q); n < 1 || n > 160 || !utf8.ValidString(q) {
		return "", errQuery
	}
	for _, r := range q {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return "", errQuery
		}
	}
	if strings.HasPrefix(q, "-") {
		return "", errQueryOption
	}
	return q, ""
}

func (d Deps) handle(ctx context.Context, env *tools.Env, in In) Out {
	source := in.Source
	if source == "" {
		source = "winget"
	}
	exe, ok := managers[source]
	if !ok {
		return Out{Status: tools.Status{Status: "invalid_input", Error: "source must be one of [winget chocolatey scoop]"}}
	}
	// upgrades lists installed packages too: it implies installed.
	installed := in.Installed || in.Upgrades
	var query string
	if in.Query != "" || !installed {
		q, msg := validQuery(in.Query)
		if msg != "" {
			return Out{Status: tools.Status{Status: "invalid_input", Error: msg}, Source: source}
		}
		query = q
	}
	path, found := d.Resolver(env.Lookup).Resolve(exe)
	if !found {
		return Out{Status: tools.Status{Status: "unavailable", Error: exe + " is not installed"}, Query: query, Source: source,
			Installed: installed, Upgrades: in.Upgrades}
	}
	req := proc.Request{Dir: filepath.Dir(path), Timeout: d.Timeout, OnProgress: plan.Progress(env.Progress)}
	if installed {
		req.Argv, req.Timeout, req.StdoutLimit = ListArgv(source, in.Upgrades), d.ListTimeout, ListStdoutLimit
	} else {
		req.Argv = Argv(source, query)
	}
	req.Argv[0] = path
	r := d.Run(ctx, req)

	status := tools.StatusFailed
	switch {
	case r.Cancelled:
		status = tools.StatusCancelled
	case r.Succeeded:
		status = tools.StatusCompleted
	}
	out := Out{Status: plan.Merge(status, "", r), Query: query, Source: source, Installed: installed, Upgrades: in.Upgrades,
		Argv: r.Argv, Receipt: plan.FromReceipt(r)}
	if installed {
		// The whole list was read to be parsed; the result carries the tail a search
		// would, marked truncated when it is not all of it.
		var cut bool
		if out.Stdout, cut = tail(r.Stdout, ResultStdoutLimit); cut {
			out.StdoutTruncated = true
		}
	}
	if !r.StdoutWhole() {
		if r.Succeeded {
			out.Status.Status = "incomplete"
			out.Warning = warnIncomplete
		}
		return out
	}
	var p parsed
	if installed {
		p = parseInstalled(source, in.Upgrades, r.Stdout, r.Stderr)
		p.matches = filter(p.matches, query)
	} else {
		p = parse(source, r.Stdout, r.Stderr)
	}
	out.Matches, out.MatchesSkipped = p.matches, p.skipped
	out.Warning = p.warning()
	if !p.clean() && out.Status.Status == tools.StatusCompleted {
		// Text the parser did not understand (an error message, an unknown layout) may
		// hide results: a clean success would claim the list is whole.
		out.Status.Status = "incomplete"
	}
	return out
}
