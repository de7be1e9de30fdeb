package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda/schema"
)

// argFlag is one command-line flag generated from one property of a tool's input
// schema: its type, bounds, default and description come from the schema, so a new
// property gets a flag and its help without a change here (docs/cli.md, "Flags").
type argFlag struct {
	name     string // the flag, without dashes
	prop     string // the tool argument it sets
	meta     string // the value's placeholder in help
	s        *schema.Schema
	set      bool
	value    any // string, bool, int, or []string once set
	required bool
}

// flagValue adapts an argFlag to flag.Value, so the standard parser does the work.
type flagValue struct{ f *argFlag }

func (v flagValue) String() string { return "" }

func (v flagValue) IsBoolFlag() bool { return v.f.s.Type == "boolean" }

func (v flagValue) Set(text string) error {
	f := v.f
	switch f.s.Type {
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", text)
		}
		f.value = b
	case "integer":
		n, err := strconv.Atoi(strings.TrimSpace(text))
		lo, hasLo := schemaBound(f.s.Minimum)
		hi, hasHi := schemaBound(f.s.Maximum)
		if err != nil || (hasLo && n < lo) || (hasHi && n > hi) {
			return fmt.Errorf("want %s, got %q", intRange(f.s), text)
		}
		f.value = n
	case "array":
		list, _ := f.value.([]string)
		f.value = append(list, text)
	default:
		f.value = text
	}
	f.set = true
	return nil
}

func schemaBound(n json.Number) (int, bool) {
	if n == "" {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

func intRange(s *schema.Schema) string {
	lo, hasLo := schemaBound(s.Minimum)
	hi, hasHi := schemaBound(s.Maximum)
	switch {
	case hasLo && hasHi:
		return fmt.Sprintf("an integer from %d to %d", lo, hi)
	case hasLo:
		return fmt.Sprintf("an integer of at least %d", lo)
	case hasHi:
		return fmt.Sprintf("an integer of at most %d", hi)
	}
	return "an integer"
}

// typeText is a property's type with its bounds, as help shows it.
func typeText(s *schema.Schema) string {
	switch s.Type {
	case "integer":
		lo, hasLo := schemaBound(s.Minimum)
		hi, hasHi := schemaBound(s.Maximum)
		switch {
		case hasLo && hasHi:
			return fmt.Sprintf("integer %d..%d", lo, hi)
		case hasLo:
			return fmt.Sprintf("integer >= %d", lo)
		case hasHi:
			return fmt.Sprintf("integer <= %d", hi)
		}
		return "integer"
	case "array":
		t := "list"
		if s.Items != nil && s.Items.Type != "" {
			t = "list of " + s.Items.Type
		}
		if s.MaxItems != nil {
			t += fmt.Sprintf(", at most %d", *s.MaxItems)
		}
		return t
	case "string":
		if len(s.Enum) > 0 {
			return "one of " + enumText(s, ", ")
		}
		lo, hi := uint64(0), uint64(0)
		if s.MinLength != nil {
			lo = *s.MinLength
		}
		if s.MaxLength != nil {
			hi = *s.MaxLength
		}
		switch {
		case hi > 0 && lo == hi:
			return fmt.Sprintf("string of %d characters", hi)
		case hi > 0 && lo > 0:
			return fmt.Sprintf("string of %d..%d characters", lo, hi)
		case hi > 0:
			return fmt.Sprintf("string of at most %d characters", hi)
		case lo == 1:
			return "non-empty string"
		case lo > 0:
			return fmt.Sprintf("string of at least %d characters", lo)
		}
		return "string"
	}
	return s.Type
}

func enumText(s *schema.Schema, sep string) string {
	words := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		words[i] = fmt.Sprint(e)
	}
	return strings.Join(words, sep)
}

func defaultText(s *schema.Schema) string {
	if s.Default == nil {
		return ""
	}
	if str, ok := s.Default.(string); ok {
		if str == "" {
			return ""
		}
		return str
	}
	return fmt.Sprint(s.Default)
}

// placeholder is the value part of a flag in help: an enum's words, N for integers.
func placeholder(name string, s *schema.Schema, meta string) string {
	switch {
	case meta != "":
		return meta
	case s.Type == "boolean":
		return ""
	case s.Type == "integer":
		return "N"
	case len(s.Enum) > 0:
		return enumText(s, "|")
	}
	return strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// help is the help line of one flag, described by desc.
func (f *argFlag) help(desc string) (left, right string) {
	left = "--" + f.name
	if p := placeholder(f.name, f.s, f.meta); p != "" {
		left += " " + p
	}
	right = desc
	var notes []string
	if f.required {
		notes = append(notes, "required")
	}
	if t := typeText(f.s); f.s.Type != "boolean" && len(f.s.Enum) == 0 && t != "string" {
		notes = append(notes, t)
	}
	if f.s.Type == "array" {
		notes = append(notes, "repeat the flag for each value")
	}
	if d := defaultText(f.s); d != "" && f.s.Type != "boolean" {
		notes = append(notes, "default "+d)
	}
	if len(notes) > 0 {
		right += " (" + strings.Join(notes, "; ") + ")"
	}
	return left, right
}

// writeFlagTable prints left/right pairs aligned, wrapping nothing: terminals wrap.
func writeFlagTable(w io.Writer, rows [][2]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
}

// newFlagSet is a flag set that reports nothing itself: wda prints its own errors and
// help, to stdout for --help and to stderr for mistakes.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses flags that may come before or after positional arguments. A "--"
// ends the flags; what follows it is returned as rest.
func parseFlags(fs *flag.FlagSet, args []string) (pos, rest []string, err error) {
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], append([]string{}, args[i+1:]...)
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		if fs.NArg() == 0 {
			return pos, rest, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
