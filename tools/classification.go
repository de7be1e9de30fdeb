package tools

import (
	"slices"
	"strings"
)

// Classification declares a tool's safety class as data, so the pipeline, the hooks
// (which link a generated copy, not the tool) and the packaging derive the same answer
// from one source (docs/safety.md). The class of a call is the most restricted of Base
// and of every rule whose condition holds; rules can only tighten.
type Classification struct {
	Base  Class
	Rules []Rule
}

// Rule raises the class of a call when When holds: to Class, or, when Catalog is set,
// to the class the capability catalog gives the capability the call names. Command,
// when set, names a string argument holding a command line that a shell will run
// (sandbox_run's command): the call is then also at least the class the shell
// classifier gives that command, so a forbidden command makes a forbidden call
// (docs/safety.md, "One classification, declared once").
type Rule struct {
	When    Cond
	Class   Class
	Catalog *CatalogRef
	Command string
}

// CatalogRef names the arguments of a catalog-classified call: ID holds the capability
// id, Extra the caller-supplied extra arguments. Any extra argument makes the call
// approval-required, because it is not reviewed catalog data; and the extra arguments,
// appended to the capability's argv, are one command line the shell classifier
// classifies, so extra arguments that carry a forbidden command make a forbidden call.
//
// An ID naming a project's own task (IsProjectTaskID) is never looked up in the
// catalog: what runs is the repository's definition, which a declaration evaluated
// from the arguments alone (the hooks, the pipeline) cannot read, so such a call is
// approval-required at least, and its extra arguments are classified on their own.
// The tool's handler classifies the definition itself and may only raise that
// (docs/project-tasks.md, "How they run").
type CatalogRef struct {
	ID    string
	Extra string
}

// IsProjectTaskID reports whether id names a task a project declares for itself:
// "<source>:<name>" with a source of internal/projecttasks (npm, vscode, make, just,
// task) and a non-empty name, e.g. "npm:dev" or "vscode:Build Release". The sources
// are written out here because this package cannot import projecttasks (it imports
// this one); a test of capability_run holds the two lists equal.
func IsProjectTaskID(id string) bool {
	source, name, ok := strings.Cut(id, ":")
	if !ok || name == "" {
		return false
	}
	switch source {
	case "npm", "vscode", "make", "just", "task":
		return true
	}
	return false
}

// Test is what a condition asks of an argument.
type Test int

// The tests a condition can apply. Values are compared strictly: only the boolean true
// is true, so a string "true" or a number never raises or lowers anything by accident.
const (
	// Never holds for no call.
	Never Test = iota
	// Always holds for every call.
	Always
	// IsTrue holds when the argument is exactly the boolean true.
	IsTrue
	// NotBlank holds when the argument is a string with a non-space character, or
	// anything that is present and not a string (the validator refuses those later;
	// the classifier must not be lowered by a malformed value).
	NotBlank
	// NotEmpty holds when the argument is a non-empty array, or present and not an
	// array.
	NotEmpty
)

// Cond is a test of one argument (Arg is ignored by Never and Always).
type Cond struct {
	Arg  string
	Test Test
}

// Conditions, for readable definitions.
var (
	NeverCond  = Cond{Test: Never}
	AlwaysCond = Cond{Test: Always}
)

// WhenTrue holds when args[arg] is exactly true.
func WhenTrue(arg string) Cond { return Cond{Arg: arg, Test: IsTrue} }

// WhenNotBlank holds when args[arg] is a non-blank string.
func WhenNotBlank(arg string) Cond { return Cond{Arg: arg, Test: NotBlank} }

// Holds reports whether c holds for args.
func (c Cond) Holds(args Args) bool {
	switch c.Test {
	case Always:
		return true
	case IsTrue:
		return args[c.Arg] == true
	case NotBlank:
		v, present := args[c.Arg]
		if !present || v == nil {
			return false
		}
		s, isString := v.(string)
		return !isString || strings.TrimSpace(s) != ""
	case NotEmpty:
		v, present := args[c.Arg]
		if !present || v == nil {
			return false
		}
		l, isList := v.([]any)
		return !isList || len(l) > 0
	}
	return false
}

// CatalogLookup returns a capability's class from the catalog in force; false for an
// unknown id or an unreadable catalog.
type CatalogLookup func(id string) (Class, bool)

// Oracles are what a classification consults besides the call's arguments. A missing
// oracle fails closed: the rules that need it give approval-required.
type Oracles struct {
	// Catalog is the class of a capability in the catalog in force.
	Catalog CatalogLookup
	// CatalogArgv is the argv of each tool of a capability in the catalog in force.
	// Without it, extra arguments are classified as a command line of their own.
	CatalogArgv func(id string) ([][]string, bool)
	// Shell is the shell classifier's class of a command line (host/classify.Shell,
	// which this package cannot import: host/classify imports it).
	Shell func(cmdline string) Class
}

// Of is the class of a call with args and a catalog, without a shell classifier: a
// rule with a Command, and extra arguments, give approval-required at least. lookup may
// be nil for a classification without catalog rules; a catalog rule without a lookup,
// an unknown capability and an unreadable catalog all give approval-required.
func (c Classification) Of(args Args, lookup CatalogLookup) Class {
	return c.With(args, Oracles{Catalog: lookup})
}

// With is the class of a call with args, consulting o.
func (c Classification) With(args Args, o Oracles) Class {
	class := c.Base
	if _, ok := ParseClass(string(class)); !ok {
		return Forbidden
	}
	for _, r := range c.Rules {
		if !r.When.Holds(args) {
			continue
		}
		if r.Catalog != nil {
			class = MaxClass(class, catalogClass(args, *r.Catalog, o))
			continue
		}
		class = MaxClass(class, r.Class)
		if r.Command != "" {
			class = MaxClass(class, commandClass(args[r.Command], o))
		}
	}
	return class
}

// commandClass is the shell classifier's class of a command argument; anything but a
// string (the validator refuses it later) cannot lower the class below approval.
func commandClass(v any, o Oracles) Class {
	s, ok := v.(string)
	if !ok || o.Shell == nil {
		return ApprovalRequired
	}
	return o.Shell(s)
}

func catalogClass(args Args, ref CatalogRef, o Oracles) Class {
	id, _ := args[ref.ID].(string)
	class := ApprovalRequired
	task := IsProjectTaskID(id)
	if o.Catalog != nil && !task {
		if base, ok := o.Catalog(id); ok {
			class = base
		}
	}
	if !(Cond{Arg: ref.Extra, Test: NotEmpty}).Holds(args) {
		return class
	}
	class = MaxClass(class, ApprovalRequired)
	extra, ok := stringList(args[ref.Extra])
	if !ok || o.Shell == nil {
		return class
	}
	// The extra arguments on their own, and after each of the capability's argv: what
	// a forbidden rule needs may sit in either (a forbidden command passed to a shell
	// the catalog starts, or a path after a catalog argv that removes).
	class = MaxClass(class, o.Shell(CommandLine(extra)))
	if o.CatalogArgv != nil && !task {
		if argvs, ok := o.CatalogArgv(id); ok {
			for _, argv := range argvs {
				class = MaxClass(class, o.Shell(CommandLine(append(slices.Clip(argv), extra...))))
			}
		}
	}
	return class
}

// stringList is v as a list of strings: a decoded JSON array of strings or a []string.
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, len(l))
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// CommandLine is argv as one Windows command line, quoted by the rules of the MS C
// runtime (the line CreateProcess receives, and the one cmd.exe and PowerShell parse
// again when argv starts them). The shell classifier reads an argv that no shell
// parses in this form, so each argument stays one word.
func CommandLine(argv []string) string {
	var b strings.Builder
	for i, arg := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		quote := arg == "" || strings.ContainsAny(arg, " \t\n\v\"")
		if !quote {
			b.WriteString(arg)
			continue
		}
		b.WriteByte('"')
		slashes := 0
		for j := 0; j < len(arg); j++ {
			switch c := arg[j]; c {
			case '\\':
				slashes++
			case '"':
				// Backslashes before a quote are doubled, and the quote escaped.
				b.WriteString(strings.Repeat(`\`, 2*slashes+1))
				b.WriteByte(c)
				slashes = 0
			default:
				b.WriteString(strings.Repeat(`\`, slashes))
				b.WriteByte(c)
				slashes = 0
			}
		}
		// Backslashes before the closing quote are doubled.
		b.WriteString(strings.Repeat(`\`, 2*slashes))
		b.WriteByte('"')
	}
	return b.String()
}

// Max is the most restricted class any call can have: what packaging uses to decide
// which tools a host gate must see.
func (c Classification) Max() Class {
	class := c.Base
	for _, r := range c.Rules {
		if r.When.Test == Never {
			continue
		}
		if r.Catalog != nil || r.Command != "" {
			return Forbidden // the catalog, or the shell classifier, may say forbidden
		}
		class = MaxClass(class, r.Class)
	}
	return class
}
