package tools

import "strings"

// Classification declares a tool's safety class as data, so the pipeline, the hooks
// (which link a generated copy, not the tool) and the packaging derive the same answer
// from one source (docs/safety.md). The class of a call is the most restricted of Base
// and of every rule whose condition holds; rules can only tighten.
type Classification struct {
	Base  Class
	Rules []Rule
}

// Rule raises the class of a call when When holds: to Class, or, when Catalog is set,
// to the class the capability catalog gives the capability the call names.
type Rule struct {
	When    Cond
	Class   Class
	Catalog *CatalogRef
}

// CatalogRef names the arguments of a catalog-classified call: ID holds the capability
// id, Extra the caller-supplied extra arguments (any of which make the call
// approval-required, because they are not reviewed catalog data).
type CatalogRef struct {
	ID    string
	Extra string
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

// CatalogLookup returns a capability's base class from the catalog in force; false for
// an unknown id or an unreadable catalog.
type CatalogLookup func(id string) (Class, bool)

// Of is the class of a call with args. lookup may be nil for a classification without
// catalog rules; a catalog rule without a lookup, an unknown capability and an
// unreadable catalog all give approval-required.
func (c Classification) Of(args Args, lookup CatalogLookup) Class {
	class := c.Base
	if _, ok := ParseClass(string(class)); !ok {
		return Forbidden
	}
	for _, r := range c.Rules {
		if !r.When.Holds(args) {
			continue
		}
		if r.Catalog == nil {
			class = MaxClass(class, r.Class)
			continue
		}
		class = MaxClass(class, catalogClass(args, *r.Catalog, lookup))
	}
	return class
}

func catalogClass(args Args, ref CatalogRef, lookup CatalogLookup) Class {
	id, _ := args[ref.ID].(string)
	if lookup == nil {
		return ApprovalRequired
	}
	base, ok := lookup(id)
	if !ok {
		return ApprovalRequired
	}
	if (Cond{Arg: ref.Extra, Test: NotEmpty}).Holds(args) {
		return MaxClass(base, ApprovalRequired)
	}
	return base
}

// Max is the most restricted class any call can have: what packaging uses to decide
// which tools a host gate must see.
func (c Classification) Max() Class {
	class := c.Base
	for _, r := range c.Rules {
		if r.When.Test == Never {
			continue
		}
		if r.Catalog != nil {
			return Forbidden // the catalog may classify a capability as forbidden
		}
		class = MaxClass(class, r.Class)
	}
	return class
}
