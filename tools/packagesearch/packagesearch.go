// Package packagesearch is the package_search tool: the package-identity producer. It
// runs the selected package manager's search (WinGet bound to the winget source,
// Chocolatey with --limit-output, Scoop), or its list of what is installed (installed)
// or of the installed packages it has an upgrade for (upgrades), returns the runner
// receipt and, when stdout was captured whole, the matches parsed from it with their
// exact ids (for an installed list, with the installed version and the available
// upgrade where the manager printed one).
//
// It never installs and never passes agreement flags: search accepts no source or
// package agreement on the user's behalf (WinGet's --disable-interactivity makes a
// pending agreement fail instead of prompting on a closed stdin). Matches are only
// ever text the manager printed; a row whose id was cut off by the manager's column
// width is dropped and counted in matches_skipped, never completed by guesswork.
//
// Deliberate decisions (docs/tools/package_search.md, "Decisions"):
//   - The query is trimmed; it is refused when it starts with '-', because Chocolatey
//     and Scoop take it as a bare argument and would read it as an option (for example
//     --source=<url>). DEL and C1 control characters count as control characters too.
//   - The manager runs with its own directory as the working directory, never the
//     project (a project must not be able to plant files a manager loads from its cwd).
//   - WinGet omits its Source column when the search is bound to one source; matches
//     then carry source "winget", which the argv fixed. Chocolatey matches carry
//     "chocolatey"; Scoop matches carry the bucket that Scoop printed (or "scoop").
//   - Matches are parsed whenever stdout is whole, even from a failed run (WinGet exits
//     non-zero with "No package found matching input criteria.": matches is then []).
//   - Every line of output is a result, a message the parser knows, or a line it did not
//     understand; the last never becomes a match, is quoted in the warning and makes a
//     completed run "incomplete" (an error next to "No matches found." is not a clean
//     empty answer). Scoop results from buckets that are not added are counted, not
//     listed.
//   - An installed list is read from up to 1 MiB of stdout (a machine's list is longer
//     than a search's 8,000-byte tail) and filtered by the query here, never by the
//     manager (Scoop reads its list filter as a regular expression); the result carries
//     the usual tail. WinGet's list of upgrades is bound to the winget source, as
//     package_install is; its list of what is installed is not, because WinGet's
//     --source does not narrow that list and hides the Source column that tells the
//     packages apart.
package packagesearch

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/tools"
)

// In is the input of package_search.
type In struct {
	Query     string `json:"query,omitempty" jsonschema:"minLength=1,maxLength=160"`
	Source    string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,default=winget"`
	Installed bool   `json:"installed,omitempty"`
	Upgrades  bool   `json:"upgrades,omitempty" jsonschema:"description=Installed ones with an upgrade."`
}

// Out is the result of package_search: status, query and source, then the runner receipt
// merged in, then what was parsed from stdout (docs/tools/package_search.md, "Output").
type Out struct {
	tools.Status
	Query     string   `json:"query,omitempty"`
	Source    string   `json:"source,omitempty"`
	Installed bool     `json:"installed,omitempty" jsonschema:"description=The matches are installed packages (installed or upgrades was true); version is the installed version."`
	Upgrades  bool     `json:"upgrades,omitempty" jsonschema:"description=The matches are installed packages the manager has an upgrade for."`
	Argv      []string `json:"argv,omitempty" jsonschema:"description=The argv that ran; argv[0] is the resolved absolute path of the package manager."`
	*plan.Receipt
	Warning string `json:"warning,omitempty"`
	// Matches is present only when stdout was captured whole.
	Matches []Match `json:"matches,omitzero" jsonschema:"description=Packages parsed from the manager's output; present only when stdout was captured whole. Use id verbatim with package_install."`
	// MatchesSkipped counts result rows left out because their id was cut off or the row
	// did not line up with the table's columns.
	MatchesSkipped int `json:"matches_skipped,omitempty"`
}

// Match is one package the manager listed.
type Match struct {
	Name             string `json:"name"`
	ID               string `json:"id"`
	Version          string `json:"version,omitempty" jsonschema:"description=The version the manager printed; absent when it printed none (a table without a Version column)."`
	Source           string `json:"source"`
	NameTruncated    bool   `json:"name_truncated,omitempty" jsonschema:"description=The manager cut the name to fit its column (it ends in …)."`
	VersionTruncated bool   `json:"version_truncated,omitempty"`
	Available        string `json:"available,omitempty" jsonschema:"description=Installed packages: the newer version the manager offers\\, as it printed it; absent when it printed none."`
	Pinned           bool   `json:"pinned,omitempty" jsonschema:"description=Installed packages: the manager holds this package at its version (a Chocolatey pin\\, a held Scoop app)."`
}

// Statuses are the words of a package_search result's status.
var Statuses = []string{tools.StatusCompleted, tools.StatusFailed, tools.StatusUnavailable, "incomplete", tools.StatusCancelled}

// New returns the package_search tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "package_search",
		Order:       5,
		Title:       "Search packages",
		Description: "Find packages and exact ids (WinGet, Chocolatey, Scoop), or list installed ones. Never installs.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true},
		// Always approval-required: it executes an external program that may contact a
		// remote source.
		Classes:  tools.Classification{Base: tools.ApprovalRequired},
		Starts:   tools.AlwaysCond,
		Statuses: Statuses,
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return d.handle(ctx, env, in), nil
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }
