package routing

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxQuery is package_search's query bound.
const maxQuery = 160

// intent is what an install-like task asks for (docs/tools/workflow_plan.md,
// "Decision", step 1). The zero value means the task is not one.
type intent struct {
	// verb is the lowercased install verb: install, reinstall, uninstall or upgrade.
	verb string
	// manager is the package manager the task names (lowercased), "" when none.
	manager string
	// query is what to install as written, bounded and printable; "" when none.
	query string
	// deps: the object is the project's own dependencies, not a machine package.
	deps bool
}

var installVerbs = map[string]bool{"install": true, "reinstall": true, "uninstall": true, "upgrade": true}

// machineManagers are the managers package_install drives, by the words a task uses.
var machineManagers = map[string]string{"winget": "winget", "choco": "chocolatey", "chocolatey": "chocolatey", "scoop": "scoop"}

// languageManagers install project or language packages; no tool here plans them.
var languageManagers = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "pip": true, "pip3": true,
	"pipx": true, "uv": true, "poetry": true, "conda": true, "cargo": true, "go": true, "dotnet": true,
	"nuget": true, "gem": true, "composer": true, "vcpkg": true}

// leadWords may come before the verb without making the verb something else's object
// ("please install", "can you install", "how do I install").
var leadWords = map[string]bool{"please": true, "pls": true, "kindly": true, "can": true, "could": true,
	"would": true, "will": true, "you": true, "i": true, "we": true, "want": true, "need": true, "to": true,
	"let's": true, "lets": true, "let": true, "us": true, "me": true, "help": true, "how": true, "do": true,
	"now": true, "just": true, "first": true, "then": true, "and": true, "also": true, "sudo": true,
	"ahead": true, "run": true}

// objectFillers are dropped from the front of the object ("install the latest git").
var objectFillers = map[string]bool{"the": true, "a": true, "an": true, "latest": true, "newest": true,
	"current": true, "me": true, "all": true, "my": true, "our": true, "this": true, "its": true,
	"project's": true, "repo's": true, "project": true, "required": true, "missing": true, "needed": true}

// depsWords name the project's own dependencies as the object of an install.
var depsWords = map[string]bool{"dependencies": true, "dependency": true, "deps": true, "requirements": true,
	"requirements.txt": true, "packages": true, "package.json": true, "node_modules": true, "modules": true,
	"prerequisites": true}

// stopBefore ends the object: what follows says how or why, not what.
var stopBefore = map[string]bool{"with": true, "using": true, "via": true, "through": true, "and": true,
	"then": true, "so": true, "to": true, "please": true, "if": true, "because": true}

// projectDeps: the task installs (or reinstalls) the project's own dependencies: it
// names them ("install the dependencies", "install requirements.txt"), or runs a
// language manager's install without an object ("npm install"). Such a task is
// routed among the catalog's capabilities (restore-npm, restore-uv, …), never to
// package setup.
func (in intent) projectDeps() bool {
	return (in.verb == "install" || in.verb == "reinstall") && (in.deps || languageManagers[in.manager] && in.query == "")
}

// parseIntent reads an install-like task. The verb counts only as the task's own
// operation: first, or after lead words or a package manager ("winget install git"),
// never as an object ("test the install script").
func parseIntent(task string) intent {
	words := strings.Fields(task)
	var in intent
	start := -1
	for i, w := range words {
		n := norm(w)
		if installVerbs[n] {
			in.verb, start = n, i+1
			if i > 0 {
				if p := norm(words[i-1]); machineManagers[p] != "" || languageManagers[p] {
					in.manager = p
				}
			}
			break
		}
		if !leadWords[n] && machineManagers[n] == "" && !languageManagers[n] {
			return intent{}
		}
	}
	if start < 0 {
		return intent{}
	}
	var object []string
	for i := start; i < len(words); i++ {
		n := norm(words[i])
		// A leading dot belongs to the word (".NET"); a trailing one ends a sentence.
		w := printable(strings.TrimRight(strings.TrimLeft(words[i], trimLeft), trimSet))
		if n == "" || w == "" {
			continue
		}
		if stopBefore[n] || n == "for" && i+1 < len(words) && objectFillers[norm(words[i+1])] ||
			n == "on" && i+1 < len(words) && objectFillers[norm(words[i+1])] {
			// "with npm", "using winget": the manager is named after the object.
			for _, rest := range words[i+1:] {
				r := norm(rest)
				if in.manager == "" && (machineManagers[r] != "" || languageManagers[r]) {
					in.manager = r
				}
			}
			break
		}
		if len(object) == 0 && objectFillers[n] || strings.HasPrefix(w, "-") || strings.HasPrefix(n, "-") {
			continue // fillers, and flags ("winget install --id Git.Git -e")
		}
		object = append(object, w)
	}
	for i, w := range object {
		if depsWords[norm(w)] {
			in.deps = true
			// "install the npm packages": the manager is the word before.
			if p := norm(object[max(i-1, 0)]); in.manager == "" && languageManagers[p] {
				in.manager = p
			}
		}
	}
	in.query = boundQuery(strings.Join(object, " "))
	return in
}

// trimSet is punctuation around a word that is not part of it; trimLeft is the part
// of it that cannot start a name.
const (
	trimSet  = ".,;:!?\"'`()[]{}<>"
	trimLeft = ",;:!?\"'`()[]{}<>"
)

func norm(w string) string { return strings.ToLower(strings.Trim(w, trimSet)) }

// printable keeps the printable runes of w, spaces becoming plain spaces.
func printable(w string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case r == utf8.RuneError || !unicode.IsPrint(r):
			return -1
		}
		return r
	}, w)
}

// boundQuery keeps printable runes and cuts whole words to package_search's bound.
func boundQuery(q string) string {
	q = strings.Join(strings.Fields(printable(q)), " ")
	for len(q) > maxQuery {
		i := strings.LastIndexByte(q[:maxQuery+1], ' ')
		if i <= 0 {
			// One word longer than the bound: cut at a rune boundary.
			i = maxQuery
			for i > 0 && !utf8.RuneStart(q[i]) {
				i--
			}
		}
		q = strings.TrimSpace(q[:i])
	}
	return q
}

// decideIntent routes an install-like task that no catalog capability performs.
func decideIntent(r *Route, in intent) {
	r.SelectionStatus = NoMatch
	nomatch := func(reason string) { r.RouteDiscriminator = &Discriminator{Candidates: []string{}, Reason: reason} }
	switch {
	case in.manager != "" && machineManagers[in.manager] == "":
		nomatch("The task asks to " + in.verb + " with " + in.manager + ", which no tool here plans: package setup covers WinGet, Chocolatey and Scoop, and no catalog capability does it. Run it outside this plan after review.")
	case in.query == "":
		nomatch("The task asks to " + in.verb + " something but does not say what: name the package.")
	default:
		r.SelectionStatus = PackageSetup
		s := &Setup{Query: in.query, Source: machineManagers[in.manager], SearchArguments: map[string]any{"query": in.query}}
		switch in.verb {
		case "upgrade":
			// The installed packages with an upgrade: the id and the version it would get.
			s.Action, s.SearchArguments["upgrades"] = "upgrade", true
		case "uninstall":
			s.Action, s.SearchArguments["installed"] = "uninstall", true
		}
		if s.Source != "" {
			s.SearchArguments["source"] = s.Source
		}
		r.PackageSetup = s
	}
}
