package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/tools"
)

// testSpecs are the shipped tools plus "checkpointer", a tool whose calls are all
// checkpoint-class (nothing shipped emits that class).
func testSpecs() classify.Specs {
	return append(slices.Clone(classify.Shipped), classify.Spec{Name: "checkpointer",
		Classes: tools.Classification{Base: tools.Checkpoint}, Statuses: []string{"ok"}})
}

// testCatalog is the user catalog the hooks classify capability_run with in
// these tests (the shipped catalog changes with the product): "dangerous" forbidden,
// "deploy" approval-required, "tests" reversible, "lint" read-only; ids neither it nor
// the shipped catalog has are approval-required and extra_args upgrade to approval-required. "npm:lint" is an id of
// a project task's form, which the hooks must ask for whatever a catalog says of it.
const testCatalog = `
dangerous: {description: d, safety: forbidden, tools: [{name: x, argv: [x]}]}
deploy: {description: d, safety: approval-required, tools: [{name: x, argv: [x]}]}
tests: {description: d, safety: reversible, tools: [{name: x, argv: [x]}]}
lint: {description: d, safety: read-only, tools: [{name: x, argv: [x]}]}
"npm:lint": {description: d, safety: read-only, tools: [{name: x, argv: [x]}]}
`

type result struct {
	code           int
	stdout, stderr string
}

func run(t testing.TB, specs classify.Specs, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	cat := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(cat, []byte(testCatalog), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "WINDOWS_DEV_AGENT_CATALOG" {
			return cat
		}
		return ""
	}
	code := Run(specs, args, strings.NewReader(stdin), &out, &errb, getenv)
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
	p.link = filepath.Join(p.root, "escape")
	if os.Symlink(p.outside, p.link) == nil {
		_, err := os.Stat(p.link)
		p.links = err == nil
	}
	return p
}
