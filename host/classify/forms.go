package classify

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/tools"
)

// The allow-lists of docs/safety/shell-classifier.md, "Read-only forms" and
// "Reversible forms". A command is read-only or reversible only when it is one of these
// forms in full: every option is on its command's list, so an unknown or abbreviated
// option, or one that runs a program or writes a file elsewhere (-exec, --output, -o,
// --basetemp …), leaves it approval-required. Options are matched without regard to
// case, because the hosts' commands are; no list holds an option whose other-case
// spelling means something unsafe. Option values given as separate words are not
// consumed: each word is checked on its own, which can only reject more.
//
// The sets are "|"-separated strings so that they are plain data, built by no code at
// process start.

func in(set, name string) bool {
	return name != "" && !strings.Contains(name, "|") && strings.Contains(set, "|"+name+"|")
}

// versionTools answer <tool> --version / -version, and nothing else, read-only.
const versionTools = "|python|py|node|npm|git|gh|dotnet|cargo|rustc|go|java|winget|choco|scoop|"

const (
	gitStatusLong = "|short|branch|porcelain|long|verbose|untracked-files|ignored|ignore-submodules|column|no-column|" +
		"ahead-behind|no-ahead-behind|renames|no-renames|find-renames|show-stash|null|"
	// Options of git log, show and diff (the union: all only select or format output).
	// Absent on purpose: --output (writes a file), --ext-diff and --textconv (run
	// configured programs), --show-signature (runs gpg), -O (reads an order file).
	gitLogLong = "|patch|no-patch|unified|output-indicator-new|output-indicator-old|output-indicator-context|raw|" +
		"patch-with-raw|indent-heuristic|no-indent-heuristic|minimal|patience|histogram|anchored|diff-algorithm|" +
		"stat|stat-width|stat-name-width|stat-graph-width|stat-count|compact-summary|numstat|shortstat|dirstat|" +
		"cumulative|dirstat-by-file|summary|patch-with-stat|name-only|name-status|submodule|color|no-color|" +
		"color-moved|no-color-moved|color-moved-ws|no-color-moved-ws|word-diff|word-diff-regex|color-words|" +
		"no-renames|renames|rename-empty|no-rename-empty|check|ws-error-highlight|full-index|binary|abbrev|" +
		"no-abbrev|break-rewrites|find-renames|find-copies|find-copies-harder|irreversible-delete|diff-filter|" +
		"find-object|pickaxe-all|pickaxe-regex|skip-to|rotate-to|relative|no-relative|text|ignore-cr-at-eol|" +
		"ignore-space-at-eol|ignore-space-change|ignore-all-space|ignore-blank-lines|ignore-matching-lines|" +
		"inter-hunk-context|function-context|exit-code|quiet|no-ext-diff|no-textconv|ignore-submodules|" +
		"src-prefix|dst-prefix|no-prefix|default-prefix|line-prefix|ita-invisible-in-index|ita-visible-in-index|" +
		// diff
		"cached|staged|merge-base|no-index|base|ours|theirs|" +
		// log and show
		"oneline|pretty|format|abbrev-commit|no-abbrev-commit|encoding|expand-tabs|no-expand-tabs|notes|" +
		"no-notes|show-notes|standard-notes|no-standard-notes|relative-date|date|parents|children|left-right|" +
		"graph|show-linear-break|max-count|skip|since|after|until|before|since-as-filter|author|committer|" +
		"grep-reflog|grep|all-match|invert-grep|regexp-ignore-case|basic-regexp|extended-regexp|fixed-strings|" +
		"perl-regexp|remove-empty|merges|no-merges|min-parents|max-parents|no-min-parents|no-max-parents|" +
		"first-parent|exclude-first-parent-only|not|all|branches|tags|remotes|glob|exclude|exclude-hidden|" +
		"reflog|alternate-refs|single-worktree|ignore-missing|bisect|cherry-mark|cherry-pick|left-only|" +
		"right-only|cherry|walk-reflogs|merge|boundary|simplify-by-decoration|show-pulls|full-history|dense|" +
		"sparse|simplify-merges|ancestry-path|date-order|author-date-order|topo-order|reverse|no-walk|do-walk|" +
		"cc|dd|combined-all-paths|follow|decorate|no-decorate|decorate-refs|decorate-refs-exclude|" +
		"clear-decorations|source|mailmap|no-mailmap|use-mailmap|no-use-mailmap|full-diff|log-size|" +
		"diff-merges|no-diff-merges|remerge-diff|"
	// Single-letter git log/show/diff options (lower-cased), and those that may carry
	// an attached value (-U3, -M50%, -S<string>, -n5).
	gitLogShort    = "puszbmcdlgrawixntef"
	gitLogAttached = "umcblsgixn"
)

// gitForm: git status, log, diff or show directly after git (no global options: -c
// and -C change what runs), then only listed options, positional arguments and, after
// --, paths.
func gitForm(args []word) (tools.Class, string) {
	if len(args) == 0 || args[0].quoted {
		return tools.ApprovalRequired, "git without a read-only subcommand"
	}
	verb := strings.ToLower(args[0].v)
	switch verb {
	case "status", "log", "diff", "show":
	default:
		return tools.ApprovalRequired, fmt.Sprintf("git %s is not a subcommand the shell classifier knows to be read-only", clip(args[0].v))
	}
	dashdash := false
	for _, a := range args[1:] {
		if a.glob {
			return tools.ApprovalRequired, unquotedGlob(a)
		}
		if dashdash || !isOption(a.v) {
			continue
		}
		if a.v == "--" {
			dashdash = true
			continue
		}
		if !gitOption(verb, strings.ToLower(a.v)) {
			return tools.ApprovalRequired, notListed("git "+verb, a.v, "read-only")
		}
	}
	return tools.ReadOnly, "git " + verb + " with read-only options only"
}

func gitOption(verb, o string) bool {
	if long, ok := strings.CutPrefix(o, "--"); ok {
		name, _, _ := strings.Cut(long, "=")
		if verb == "status" {
			return in(gitStatusLong, name)
		}
		return in(gitLogLong, name)
	}
	s := o[1:]
	if verb == "status" {
		switch s {
		case "u", "uno", "unormal", "uall":
			return true
		}
		return strings.Trim(s, "sbvz") == ""
	}
	if strings.Trim(s, "0123456789") == "" {
		return true // -5
	}
	if len(s) == 1 {
		return strings.IndexByte(gitLogShort, s[0]) >= 0
	}
	return strings.IndexByte(gitLogAttached, s[0]) >= 0
}

// Get-* cmdlets are read-only except these: Get-Credential prompts for a secret,
// Get-WindowsUpdateLog and Get-StorageDiagnosticInfo write files (the latter's
// -DestinationPath is mandatory: without it, it prompts).
const getDenied = "|get-credential|get-windowsupdatelog|get-storagediagnosticinfo|"

// cmdletForm: Get-<Noun>, Test-Path and Resolve-Path with literal arguments and
// parameters that do not set variables (-OutVariable and its relatives, whatever
// prefix abbreviates them) or open windows (Get-Help -Online, -ShowWindow).
func cmdletForm(name, display string, args []word) (tools.Class, string) {
	if in(getDenied, name) {
		return tools.ApprovalRequired, clip(display) + " is not treated as read-only (it prompts or writes)"
	}
	for _, a := range args {
		if a.quoted || !strings.HasPrefix(a.v, "-") || a.v == "-" || a.v == "--" {
			continue // a value: PowerShell never reads a quoted word as a parameter
		}
		p, _, _ := strings.Cut(strings.ToLower(a.v[1:]), ":")
		if strings.Trim(p, "abcdefghijklmnopqrstuvwxyz0123456789") != "" || p == "" {
			return tools.ApprovalRequired, fmt.Sprintf("%s parameter %s is not understood", clip(display), clip(a.v))
		}
		if setsVariable(p) || name == "get-help" && (prefixOf(p, "online", 2) || prefixOf(p, "showwindow", 2)) {
			return tools.ApprovalRequired, notListed(display, a.v, "read-only")
		}
		if what := paramEffect(name, p); what != "" {
			return tools.ApprovalRequired, fmt.Sprintf("%s parameter %s %s", clip(display), clip(a.v), what)
		}
	}
	return tools.ReadOnly, display + " with literal arguments"
}

// setsVariable: the common parameters that assign session variables, spelled out, as
// an alias, or abbreviated.
func setsVariable(p string) bool {
	switch p {
	case "ov", "ev", "wv", "iv", "pv":
		return true
	}
	for _, n := range []string{"outvariable", "errorvariable", "warningvariable", "informationvariable", "pipelinevariable"} {
		if prefixOf(p, n, 1) {
			return true
		}
	}
	return false
}

// paramEffect names what a cmdlet parameter does that a read-only command must not,
// or "". PowerShell accepts any unique prefix of a parameter's name, so each is
// matched by prefix, as short as it can be without taking another common parameter:
//   - -Credential (any prefix) and -ProxyCredential prompt for a password;
//   - -ForceBootstrap installs a package provider from the network; on the
//     PackageManagement cmdlets (Get-Package, Get-PackageProvider, Get-PackageSource)
//     -Force does the same, so there any prefix of either is refused;
//   - -DestinationPath (and -Destination) writes files.
func paramEffect(cmdlet, p string) string {
	switch {
	case prefixOf(p, "credential", 1) || prefixOf(p, "proxycredential", 6):
		return "prompts for a password"
	case prefixOf(p, "forcebootstrap", 6) || strings.HasPrefix(cmdlet, "get-package") && prefixOf(p, "forcebootstrap", 1):
		return "installs a package provider from the network"
	case prefixOf(p, "destinationpath", 4):
		return "writes files"
	}
	return ""
}

func prefixOf(p, name string, min int) bool { return len(p) >= min && strings.HasPrefix(name, p) }

// whereForm: where / where.exe with literal patterns and /R /Q /F /T. (In PowerShell
// where is Where-Object, which does nothing without pipeline input.)
func whereForm(display string, args []word) (tools.Class, string) {
	for _, a := range args {
		if a.quoted {
			continue
		}
		if strings.HasPrefix(a.v, "/") {
			switch strings.ToLower(a.v) {
			case "/r", "/q", "/f", "/t", "/?":
				continue
			}
			return tools.ApprovalRequired, notListed(display, a.v, "read-only")
		}
		if isOption(a.v) {
			return tools.ApprovalRequired, notListed(display, a.v, "read-only")
		}
	}
	return tools.ReadOnly, display + " with literal arguments"
}

// tool describes one reversible command: its subcommand (or ""), its long and short
// options (lower case), which short options may carry an attached value, whether short
// flags may be bundled (-xvs), and what may follow "--".
type tool struct {
	sub      string
	long     string
	short    string
	attached string
	bundle   string // letters that may be bundled
	afterDD  *tool  // options after --; nil: -- is not allowed
	noSlash  bool   // a word starting with / is an MSBuild switch, not a path
	goFlags  bool   // Go's flag package: -name and --name alike, no short options
	special  func(name, value string) (ok, handled bool)
}

var (
	pytestTool = tool{
		// Absent on purpose: -p (loads a plugin), -c, --rootdir, --confcutdir, -o and
		// --override-ini (move the cache and the rest anywhere), --basetemp (deleted
		// before use), --junitxml, --junit-xml, --log-file, --debug, --resultlog and
		// the coverage and HTML reports (write files anywhere), --pastebin (uploads).
		long: "|quiet|verbose|exitfirst|showlocals|tb|maxfail|lf|last-failed|ff|failed-first|nf|new-first|sw|" +
			"stepwise|sw-skip|stepwise-skip|co|collect-only|durations|durations-min|no-header|no-summary|" +
			"strict-markers|strict|disable-warnings|disable-pytest-warnings|runxfail|color|code-highlight|" +
			"doctest-modules|import-mode|setup-show|setup-only|setup-plan|fixtures|fixtures-per-test|markers|" +
			"version|help|full-trace|capture|show-capture|ignore|ignore-glob|deselect|" +
			"continue-on-collection-errors|lfnf|last-failed-no-failures|cache-show|cache-clear|verbosity|" +
			"log-level|log-cli-level|numprocesses|dist|timeout|pythonwarnings|no-cov|",
		short:    "qvxslhkmnrw",
		attached: "kmnrw",
		bundle:   "qvxsl",
	}
	ruffCheckTool = tool{
		sub: "check",
		// Absent: --fix and --add-noqa (rewrite sources), --watch, -o/--output-file,
		// --config and --cache-dir.
		long: "|select|ignore|extend-select|extend-ignore|per-file-ignores|extend-per-file-ignores|fixable|" +
			"unfixable|extend-fixable|output-format|statistics|show-fixes|no-show-fixes|no-fix|diff|quiet|silent|" +
			"exit-zero|exit-non-zero-on-fix|no-cache|target-version|preview|no-preview|line-length|" +
			"respect-gitignore|no-respect-gitignore|force-exclude|no-force-exclude|exclude|extend-exclude|" +
			"show-files|show-settings|isolated|verbose|ignore-noqa|no-unsafe-fixes|help|",
		short:  "qsenvh",
		bundle: "qsenv",
	}
	pylintTool = tool{
		// Absent: --rcfile, --init-hook and --load-plugins (run code), --output,
		// -f (a reporter may be any class); --output-format only with a built-in name.
		long: "|errors-only|disable|enable|jobs|score|reports|recursive|fail-under|fail-on|verbose|exit-zero|" +
			"py-version|ignore|ignore-patterns|ignore-paths|persistent|help|version|",
		short:    "edjsrvh",
		attached: "edjsr",
		special: func(name, value string) (bool, bool) {
			if name != "output-format" {
				return false, false
			}
			return in("|text|parseable|colorized|json|json2|msvs|github|", value), true
		},
	}
	eslintTool = tool{
		// Absent: --fix, -c/--config, --rulesdir, --plugin, --parser, -o/--output-file,
		// --cache-location, --resolve-plugins-relative-to, -f; --format only with a
		// built-in formatter.
		long: "|quiet|max-warnings|ext|no-eslintrc|no-config-lookup|cache|fix-dry-run|" +
			"no-error-on-unmatched-pattern|no-warn-ignored|report-unused-disable-directives|" +
			"report-unused-disable-directives-severity|color|no-color|no-inline-config|no-ignore|ignore-pattern|" +
			"exit-on-fatal-error|pass-on-no-patterns|stats|print-config|env-info|help|version|debug|global|env|",
		short: "hv",
		special: func(name, value string) (bool, bool) {
			if name != "format" {
				return false, false
			}
			return in("|stylish|compact|json|json-with-metadata|unix|tap|junit|checkstyle|visualstudio|html|"+
				"jslint-xml|table|", value), true
		},
	}
	dprintCheckTool = tool{
		sub: "check",
		// Absent: -c/--config and --plugins (plugins are fetched and run).
		long: "|staged|allow-no-files|incremental|excludes|allow-node-modules|log-level|verbose|" +
			"list-different|skip-stable-format|help|",
	}
	goTestTool = tool{
		sub: "test",
		// Go reads -flag and --flag alike. Absent: -exec and -toolexec (run a
		// program), -o, -c, -coverprofile, the profiles, -trace and -outputdir (write
		// files anywhere), -ldflags, -gcflags, -asmflags, -gccgoflags, -overlay, -pgo
		// and -modfile (change what is built and linked, -ldflags=-extld runs a
		// program), -C, -fuzz, -args (the rest goes to the test binary).
		// -mod only as -mod=readonly or -mod=vendor: -mod=mod downloads modules,
		// runs their tests' code and edits go.mod (and -mod mod, its value a word of
		// its own, cannot be checked).
		long: "|v|run|count|race|short|timeout|cover|covermode|coverpkg|bench|benchtime|benchmem|cpu|parallel|" +
			"failfast|json|list|skip|shuffle|tags|p|x|n|trimpath|vet|fullpath|a|work|buildvcs|",
		goFlags: true,
		special: func(name, value string) (bool, bool) {
			if name != "mod" {
				return false, false
			}
			return value == "readonly" || value == "vendor", true
		},
	}
	libtestTool = tool{
		// The test binary's options after --. Absent: --logfile (writes a file), -Z.
		long: "|nocapture|no-capture|test-threads|ignored|include-ignored|exact|quiet|skip|show-output|list|" +
			"color|format|report-time|shuffle|shuffle-seed|force-run-in-process|",
		short: "q",
	}
	cargoTestTool = tool{
		sub: "test",
		// Absent: --target-dir, --artifact-dir, --config (can set a runner), -Z,
		// --manifest-path, -C.
		long: "|release|profile|package|workspace|all|exclude|lib|bins|bin|examples|example|tests|test|benches|" +
			"bench|all-targets|doc|no-run|no-fail-fast|features|all-features|no-default-features|jobs|quiet|" +
			"verbose|offline|frozen|locked|color|message-format|target|keep-going|future-incompat-report|" +
			"ignore-rust-version|timings|",
		short:    "rpfjqv",
		attached: "pfj",
		bundle:   "qv",
		afterDD:  &libtestTool,
	}
	dotnetTool = tool{
		// dotnet build and dotnet test. Absent: -o/--output, --results-directory,
		// --diag, -s/--settings, --collect, --blame*, -a and --test-adapter-path,
		// --logger, -e/--environment, --source, --configfile, --artifacts-path,
		// --interactive, every MSBuild switch (-p:, -t:, -bl, /…) and "--".
		long: "|configuration|framework|verbosity|no-restore|no-build|no-dependencies|no-incremental|nologo|" +
			"filter|list-tests|runtime|arch|os|self-contained|no-self-contained|use-current-runtime|ucr|sc|help|",
		short:   "cfvrh",
		noSlash: true,
	}
)

func isOption(v string) bool { return len(v) > 1 && v[0] == '-' }

func notListed(display, opt, class string) string {
	return fmt.Sprintf("%s option %s is not on the shell classifier's %s list", clip(display), clip(opt), class)
}

func unquotedGlob(a word) string {
	return fmt.Sprintf("the unquoted wildcard %s (the shell may expand it into options)", clip(a.v))
}

// clip keeps a piece of the command short enough for a hook message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// check holds args (after the command name) to t.
func (t *tool) check(display string, args []word) (tools.Class, string) {
	if t.sub != "" {
		if len(args) == 0 || args[0].quoted || !strings.EqualFold(args[0].v, t.sub) {
			return tools.ApprovalRequired, fmt.Sprintf("%s without %s is not on the shell classifier's reversible list", display, t.sub)
		}
		display += " " + t.sub
		args = args[1:]
	}
	cur := t
	for _, a := range args {
		if a.glob {
			return tools.ApprovalRequired, unquotedGlob(a)
		}
		if !isOption(a.v) {
			if cur.noSlash && strings.HasPrefix(a.v, "/") {
				return tools.ApprovalRequired, notListed(display, a.v, "reversible")
			}
			continue
		}
		if a.v == "--" {
			if cur.afterDD == nil {
				return tools.ApprovalRequired, notListed(display, a.v, "reversible")
			}
			cur = cur.afterDD
			continue
		}
		if !cur.option(strings.ToLower(a.v)) {
			return tools.ApprovalRequired, notListed(display, a.v, "reversible")
		}
	}
	return tools.Reversible, display + " with options the shell classifier knows"
}

// option reports whether the lower-cased option word o is on t's lists.
func (t *tool) option(o string) bool {
	if s, ok := strings.CutPrefix(o, "--"); ok || t.goFlags {
		if !ok {
			s = o[1:]
		}
		name, value, _ := strings.Cut(s, "=")
		if t.special != nil {
			if ok, handled := t.special(name, value); handled {
				return ok
			}
		}
		return in(t.long, name)
	}
	s := o[1:]
	switch {
	case strings.IndexByte(t.short, s[0]) < 0:
		return false
	case len(s) == 1, strings.IndexByte(t.attached, s[0]) >= 0:
		return true
	}
	return t.bundle != "" && strings.Trim(s, t.bundle) == ""
}

// understand classifies cmd by its structure: read-only or reversible when it is one
// of the allow-listed forms in full, otherwise approval-required with the reason.
func understand(cmd string) (tools.Class, string) {
	ws, why := splitWords(cmd)
	if why != "" {
		return tools.ApprovalRequired, "the shell classifier does not analyse " + why
	}
	if len(ws) == 0 {
		return tools.ApprovalRequired, "the command is empty"
	}
	if ws[0].quoted || ws[0].glob {
		return tools.ApprovalRequired, "the command name is quoted or a wildcard"
	}
	display, name, args := clip(ws[0].v), strings.ToLower(ws[0].v), ws[1:]
	if len(args) == 1 && !args[0].quoted && in(versionTools, name) {
		if v := strings.ToLower(args[0].v); v == "--version" || v == "-version" {
			return tools.ReadOnly, display + " " + args[0].v + " only prints a version"
		}
	}
	switch name {
	case "git":
		return gitForm(args)
	case "test-path", "resolve-path":
		return cmdletForm(name, display, args)
	case "where", "where.exe":
		return whereForm(display, args)
	case "pytest":
		return pytestTool.check(display, args)
	case "ruff":
		return ruffCheckTool.check(display, args)
	case "pylint":
		return pylintTool.check(display, args)
	case "eslint":
		return eslintTool.check(display, args)
	case "dprint":
		return dprintCheckTool.check(display, args)
	case "go":
		return goTestTool.check(display, args)
	case "cargo":
		return cargoTestTool.check(display, args)
	case "dotnet":
		if len(args) > 0 && !args[0].quoted && (strings.EqualFold(args[0].v, "build") || strings.EqualFold(args[0].v, "test")) {
			return dotnetTool.check(display+" "+args[0].v, args[1:])
		}
	}
	if noun, ok := strings.CutPrefix(name, "get-"); ok && noun != "" && strings.Trim(noun, "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
		return cmdletForm(name, display, args)
	}
	return tools.ApprovalRequired, fmt.Sprintf("%s is not a command the shell classifier knows to be read-only or reversible", clip(display))
}
