package gen

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// The Gemini CLI policy translates each tool's declared classification into policy
// rules, so Gemini asks exactly where the Claude gate asks (approval-required and
// checkpoint calls) and denies where it denies (forbidden), never more loosely
// (docs/hosts/gemini.md).
//
// A rule's argsPattern is a regular expression (JavaScript syntax) that Gemini tests
// against the call's arguments serialised by its stableStringify: keys sorted, no
// white space, and each top-level "key":value pair wrapped in NUL characters. So
// \x00"execute":true\x00 matches exactly a top-level execute that is the boolean true,
// and two pairs appear in key order. Gemini drops allow rules from extensions, so the
// translation can only add questions and denials; where a condition cannot be
// expressed exactly, it errs towards asking.

// Policy priorities inside the extension tier: a denial outranks a question.
const (
	geminiAskPriority  = 100
	geminiDenyPriority = 200
)

type geminiRule struct {
	tool, decision, argsPattern string
}

// geminiDecision is the policy decision for a class, "" when no gate acts on it.
func geminiDecision(c tools.Class) string {
	switch {
	case c == tools.Forbidden:
		return "deny"
	case c.Rank() > tools.Reversible.Rank():
		return "ask_user"
	}
	return ""
}

// pair matches one top-level argument whose serialised value starts as value does.
type pair struct{ key, value string }

func (p pair) pattern() string { return `\x00"` + regexp.QuoteMeta(p.key) + `":` + p.value }

// allOf joins pairs in Gemini's key order.
func allOf(ps ...pair) string {
	slices.SortFunc(ps, func(a, b pair) int { return strings.Compare(a.key, b.key) })
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.pattern())
	}
	return strings.Join(parts, anything)
}

// anything spans whatever lies between two pairs. JavaScript's . stops at line
// terminators, and JSON.stringify leaves U+2028 and U+2029 raw inside strings, so a
// value holding one would otherwise hide the pairs after it.
const anything = `[\s\S]*`

// condPair is the argument test of c as a pair; ok is false for Always (no pattern).
// The patterns follow tools.Cond.Holds: IsTrue is exactly true; NotBlank is any
// non-null value that is not a blank string; NotEmpty any non-null value that is not
// an empty array.
func condPair(c tools.Cond) (p pair, ok bool) {
	switch c.Test {
	case tools.Always:
		return pair{}, false
	case tools.IsTrue:
		return pair{c.Arg, `true\x00`}, true
	case tools.NotBlank:
		return pair{c.Arg, `(?:[^"n\x00]|n[^u]|"[^\x00]*[^\s"\x00])`}, true
	case tools.NotEmpty:
		return pair{c.Arg, `(?:[^\[n\x00]|n[^u]|\[[^\]])`}, true
	}
	panic(fmt.Sprintf("gen: condition test %d has no policy pattern", c.Test))
}

// geminiRules are the policy rules of reg's tools with the shipped catalog, in
// registry order.
func geminiRules(reg *tools.Registry, cat *catalog.Catalog) []geminiRule {
	var out []geminiRule
	for _, t := range reg.Tools() {
		c := t.Classification()
		if d := geminiDecision(c.Base); d != "" {
			out = append(out, geminiRule{t.Name(), d, ""})
		}
		for _, r := range c.Rules {
			if r.When.Test == tools.Never {
				continue
			}
			var when []pair
			if p, ok := condPair(r.When); ok {
				when = append(when, p)
			}
			if r.Catalog == nil {
				if d := geminiDecision(r.Class); d != "" {
					out = append(out, geminiRule{t.Name(), d, allOf(when...)})
				}
				continue
			}
			out = append(out, catalogRules(t.Name(), when, *r.Catalog, cat)...)
		}
	}
	return out
}

// catalogRules translate a catalog rule: deny the shipped forbidden capabilities; ask
// for every capability that is not one of the shipped read-only or reversible ones
// (which covers approval-required ids, ids a user catalog adds, unknown ids and
// a missing id, all approval-required or worse to the classifier); ask when extra
// arguments are given.
func catalogRules(tool string, when []pair, ref tools.CatalogRef, cat *catalog.Catalog) []geminiRule {
	ids := cat.IDs()
	slices.Sort(ids)
	var low []string
	var out []geminiRule
	for _, id := range ids {
		cp, _ := cat.Get(id)
		switch d := geminiDecision(cp.Safety); d {
		case "":
			low = append(low, regexp.QuoteMeta(strconv.Quote(id)))
		case "deny":
			idPair := pair{ref.ID, regexp.QuoteMeta(strconv.Quote(id)) + `\x00`}
			out = append(out, geminiRule{tool, d, allOf(append(slices.Clone(when), idPair)...)})
		}
	}
	notLow := pair{ref.ID, `(?!(?:` + strings.Join(low, "|") + `)\x00)`}
	out = append(out, geminiRule{tool, "ask_user", allOf(append(slices.Clone(when), notLow)...)})
	// A call without the id names no capability: approval-required as well.
	absent := `^(?!` + anything + `\x00"` + regexp.QuoteMeta(ref.ID) + `":)`
	if len(when) > 0 {
		absent += anything + allOf(when...)
	}
	out = append(out, geminiRule{tool, "ask_user", absent})
	if ref.Extra != "" {
		extra, _ := condPair(tools.Cond{Arg: ref.Extra, Test: tools.NotEmpty})
		out = append(out, geminiRule{tool, "ask_user", allOf(append(slices.Clone(when), extra)...)})
	}
	return out
}

// geminiPolicy renders the rules as the extension's TOML policy file.
func geminiPolicy(reg *tools.Registry) ([]byte, error) {
	cat, err := catalog.Shipped()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Generated by go generate ./... from the tool registry and capabilities.yaml; do not edit.\n")
	b.WriteString("# Each rule is one part of a tool's declared classification: Gemini CLI asks before an\n")
	b.WriteString("# approval-required call and denies a forbidden one, as the Claude Code hooks do.\n")
	b.WriteString("# Tighten only: Gemini ignores allow rules (and yolo-mode rules) from extensions, and\n")
	b.WriteString("# these outrank its --yolo allow-all. The server blocks forbidden calls regardless.\n")
	for _, r := range append(geminiRules(reg, cat), geminiShellRules()...) {
		if strings.Contains(r.argsPattern, "'") {
			return nil, fmt.Errorf("gen: the policy pattern %q cannot be a TOML literal string", r.argsPattern)
		}
		priority := geminiAskPriority
		if r.decision == "deny" {
			priority = geminiDenyPriority
		}
		if r.tool == GeminiShellTool { // Gemini's own tool, not this extension's server
			fmt.Fprintf(&b, "\n[[rule]]\ntoolName = %s\n", strconv.Quote(r.tool))
		} else {
			fmt.Fprintf(&b, "\n[[rule]]\nmcpName = %s\ntoolName = %s\n", strconv.Quote(wda.ServerName), strconv.Quote(r.tool))
		}
		if r.argsPattern != "" {
			fmt.Fprintf(&b, "argsPattern = '%s'\n", r.argsPattern)
		}
		fmt.Fprintf(&b, "decision = %s\npriority = %d\n", strconv.Quote(r.decision), priority)
	}
	return b.Bytes(), nil
}
