package runtime

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

type factsIn struct {
	Name    string   `json:"name" jsonschema:"required,enum=a,enum=b"`
	Count   int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=5"`
	ID      string   `json:"id,omitempty" jsonschema:"pattern=^[a-z]+$"`
	Text    string   `json:"text,omitempty" jsonschema:"maxLength=3"`
	Items   []string `json:"items,omitempty" jsonschema:"maxItems=1"`
	Cwd     string   `json:"cwd,omitempty"`
	Execute bool     `json:"execute,omitempty"`
	tools.Identity
}

// TestRefusalCategories: the messages of every source of invalid_input and stale_plan
// — the schema validator, the host's binding, the echo check — come out as the
// argument and rule their audit record keeps, and an unknown argument's name (the
// caller's own text) is never kept (docs/audit.md, "Subject and refusal").
func TestRefusalCategories(t *testing.T) {
	t.Parallel()
	s := schema.For[factsIn]()
	var args []string
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		args = append(args, p.Key)
	}
	validation := func(raw string) string {
		_, err := schema.Validate(s, json.RawMessage(raw))
		if err == nil {
			t.Fatalf("%s validates", raw)
		}
		return err.Error()
	}
	probe := tools.Define(tools.Def[factsIn, tools.Status]{Name: "probe", Order: 1, Title: "probe", Description: "probe",
		ProjectArg: "cwd", Statuses: []string{"ok"}, Classes: tools.Classification{Base: tools.ReadOnly},
		Handle: func(context.Context, *tools.Env, factsIn) (tools.Status, error) {
			return tools.Status{Status: "ok"}, nil
		}})
	dir := t.TempDir()
	_, bindErr := host.NewGeneric(dir, os.Getenv).Bind(probe, string(os.PathSeparator), host.Call{})
	if bindErr == nil {
		t.Fatal("the root folder was bound inside a temporary project")
	}
	_, moved := plan.CheckEchoWith(func(a, b string) bool { return a == b }, tools.Identity{ExpectedExecutable: "/a",
		ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: "00"}, "/b", proc.Identity{Kind: "file", SHA256: "00"})
	_, changed := plan.CheckEchoWith(func(a, b string) bool { return a == b }, tools.Identity{ExpectedExecutable: "/a",
		ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: "0000000000000000000000000000000000000000000000000000000000000000"},
		"/a", proc.Identity{Kind: "file", SHA256: "1111111111111111111111111111111111111111111111111111111111111111"})
	_, missing := plan.CheckEchoWith(func(a, b string) bool { return a == b }, tools.Identity{}, "/a", proc.Identity{})
	cases := []struct {
		msg, field, rule string
	}{
		{validation(`{}`), "name", audit.RuleRequired},
		{validation(`{"name":null}`), "name", audit.RuleRequired},
		{validation(`{"name":"a","secret_arg_hunter2":1}`), "", audit.RuleUnknownArgument},
		{validation(`{"name":"c"}`), "name", audit.RuleEnum},
		{validation(`{"name":"a","count":9}`), "count", audit.RuleRange},
		{validation(`{"name":"a","count":"x"}`), "count", audit.RuleType},
		{validation(`{"name":"a","id":"A1"}`), "id", audit.RulePattern},
		{validation(`{"name":"a","text":"long"}`), "text", audit.RuleLength},
		{validation(`{"name":"a","items":["x","y"]}`), "items", audit.RuleItems},
		{validation(`[1]`), "", audit.RuleType},
		{bindErr.Error(), "cwd", audit.RuleOutsideProject},
		{missing.Error, "expected_executable", audit.RuleRequired},
		{"something no rule names", "", audit.RuleOther},
	}
	for _, c := range cases {
		field, rule := invalidInput(c.msg, args)
		if field != c.field || rule != c.rule {
			t.Errorf("%q: (%q, %q), want (%q, %q)", c.msg, field, rule, c.field, c.rule)
		}
	}
	for _, c := range []struct {
		r    *plan.Refusal
		want string
	}{{moved, "expected_executable"}, {changed, "expected_executable_identity_sha256"}} {
		if c.r == nil || c.r.Status != tools.StatusStalePlan {
			t.Fatalf("not a stale plan: %+v", c.r)
		}
		if got := stalePlan(c.r.Error); got != c.want {
			t.Errorf("%q: %q, want %q", c.r.Error, got, c.want)
		}
	}
	if got := stalePlan("The project task's definition changed since the plan; plan again and review the new definition"); got != "expected_definition_sha256" {
		t.Errorf("definition changed: %q", got)
	}
}

// TestPrintedPackageID: a package id counts as the manager's own only as a whole word
// of its output, in any letter case.
func TestPrintedPackageID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id, out string
		want    bool
	}{
		{"Git.Git", "Found Git [Git.Git] Version 2.45.1", true},
		{"git", "Installing the following packages:\ngit\nBy installing, you accept licenses", true},
		{"git", "Installing 'git' (2.45.1) [64bit] from 'main' bucket", true},
		{"Git.Git", "found git [GIT.GIT]", true},
		{"Git", "Found Git.Git", false},
		{"Git.Git", "No package found matching input criteria.", false},
		{"Notepad++.Notepad++", "Found Notepad++ [Notepad++.Notepad++]", true},
		{"a", "", false},
		{"node", "nodejs 20.1", false},
	}
	for _, c := range cases {
		if got := printed(c.id, c.out); got != c.want {
			t.Errorf("printed(%q, %q) = %v", c.id, c.out, got)
		}
	}
}

// FuzzAuditFacts: whatever a message or a manager's output says, the derived words
// come from the closed vocabularies: the field is one of the tool's arguments or empty,
// the rule a rule word, and a package id counts as printed only when the output holds
// it.
func FuzzAuditFacts(f *testing.F) {
	f.Add("cwd must stay inside the project: /p", "Found Git [Git.Git]", "Git.Git")
	f.Add("missing required argument(s): name", "", "x")
	f.Add("unknown argument(s): hunter2", "hunter2", "hunter2")
	f.Fuzz(func(t *testing.T, msg, output, id string) {
		args := []string{"cwd", "name", "count"}
		field, rule := invalidInput(msg, args)
		if field != "" && !slices.Contains(args, field) {
			t.Fatalf("field %q is not an argument", field)
		}
		if audit.RuleOther != rule && !slices.ContainsFunc(ruleWords, func(w struct{ phrase, rule string }) bool { return w.rule == rule }) {
			t.Fatalf("rule %q is not a rule word", rule)
		}
		if printed(id, output) && !strings.Contains(strings.ToLower(output), strings.ToLower(id)) {
			t.Fatalf("%q counted as printed in %q", id, output)
		}
	})
}
