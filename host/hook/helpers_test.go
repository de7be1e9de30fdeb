package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host/scope"
	"github.com/windows-dev-agent/wda/tools"
)

// testRegistry is the shipped tools, except that capability_run classifies by a tiny
// fake catalog (the real catalog belongs to tools/capabilityrun and changes with it):
// "dangerous" forbidden, "deploy" approval-required, "tests" reversible, "lint"
// read-only, "snapshot" checkpoint; unknown ids approval-required; extra_args upgrade to approval-required.
func testRegistry() *tools.Registry {
	var names []string
	for _, n := range tools.Default().Names() {
		if n != "capability_run" {
			names = append(names, n)
		}
	}
	reg := tools.Default().Subset(names...)
	real, _ := tools.Default().Lookup("capability_run")
	reg.Register(fakeCapability{Tool: real})
	return reg
}

type fakeCapability struct{ tools.Tool }

func (fakeCapability) Classify(a tools.Args) tools.Class {
	if !a.Bool("execute") {
		return tools.ReadOnly
	}
	c, ok := map[string]tools.Class{"dangerous": tools.Forbidden, "deploy": tools.ApprovalRequired,
		"tests": tools.Reversible, "lint": tools.ReadOnly, "snapshot": tools.Checkpoint}[a.String("capability")]
	if !ok {
		return tools.ApprovalRequired
	}
	if xs, _ := a["extra_args"].([]any); len(xs) > 0 && c != tools.Forbidden {
		return tools.ApprovalRequired
	}
	return c
}

// panicky is a tool whose every method but Name panics, to prove the hooks recover.
type panicky struct{ tools.Tool }

func (panicky) Name() string                    { return "panicky" }
func (panicky) ProjectArg() string              { panic("ProjectArg exploded") }
func (panicky) Classify(tools.Args) tools.Class { panic("Classify exploded") }

type result struct {
	code           int
	stdout, stderr string
}

func run(t testing.TB, reg *tools.Registry, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := Run(reg, args, strings.NewReader(stdin), &out, &errb, getenv)
	return result{code, out.String(), errb.String()}
}

// decodeOne checks the output contract: empty, or exactly one JSON object on one line.
func decodeOne(t testing.TB, stdout string) map[string]any {
	t.Helper()
	if stdout == "" {
		return nil
	}
	if !strings.HasSuffix(stdout, "\n") || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("output is not one line: %q", stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		t.Fatalf("output is not a JSON object: %q (%v)", stdout, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("output has more than one JSON value: %q", stdout)
	}
	return m
}

func eventJSON(fields map[string]any) string {
	b, err := json.Marshal(fields)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// records reads the audit log of dataDir as raw lines (to check what is not stored)
// and as objects.
func records(t testing.TB, dataDir string) (string, []map[string]any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dataDir, "agent.log"))
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return string(raw), out
}

type project struct {
	base, root, child, outside, sibling, link string
	realRoot, realChild                       string
	links                                     bool
}

func makeProject(t testing.TB) project {
	t.Helper()
	base := t.TempDir()
	p := project{base: base, root: filepath.Join(base, "proj"), outside: filepath.Join(base, "outside"),
		sibling: filepath.Join(base, "proj-other")}
	p.child = filepath.Join(p.root, "src")
	for _, d := range []string{p.child, p.outside, p.sibling} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.realRoot, _ = scope.ResolveDir(p.root)
	p.realChild, _ = scope.ResolveDir(p.child)
	p.link = filepath.Join(p.root, "escape")
	if os.Symlink(p.outside, p.link) == nil {
		_, err := os.Stat(p.link)
		p.links = err == nil
	}
	return p
}
