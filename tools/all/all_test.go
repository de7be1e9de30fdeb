package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/schema"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps")

var registryOrder = []string{"env_inspect", "tool_discover", "capability_run", "workflow_plan", "package_search",
	"package_install", "sandbox_run", "ecosystem_scan", "logs_query", "mcp_audit"}

func TestRegistryOrder(t *testing.T) {
	if diff := cmp.Diff(registryOrder, tools.Default().Names()); diff != "" {
		t.Fatalf("registry order (-want +got):\n%s", diff)
	}
}

// TestToolSnapshots pins each tool's wire description (name, annotations, input and
// output schema). Run with -update after a deliberate change and review the diff.
func TestToolSnapshots(t *testing.T) {
	for _, tl := range tools.Default().Tools() {
		t.Run(tl.Name(), func(t *testing.T) {
			got, err := json.MarshalIndent(runtime.MCPTool(tl, nil), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "toolsnaps", tl.Name()+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("missing snapshot (run go test ./tools/all -update): %v", err)
			}
			var w, g any
			json.Unmarshal(want, &w)
			json.Unmarshal(got, &g)
			if diff := cmp.Diff(w, g); diff != "" {
				t.Fatalf("%s changed (-snapshot +now); rerun with -update if intended:\n%s", path, diff)
			}
			// Byte for byte too: key order and number spelling are what a client's
			// cache and a schema hash see.
			if !bytes.Equal(want, got) {
				t.Fatalf("%s: same content, different bytes (key order or formatting); rerun with -update if intended", path)
			}
		})
	}
}

// TestSchemaContracts checks what every client relies on, beyond the snapshots.
func TestSchemaContracts(t *testing.T) {
	identity := []string{"expected_executable", "expected_executable_identity_kind", "expected_executable_identity_sha256"}
	for _, tl := range tools.Default().Tools() {
		in, out := schema.In(tl), schema.Out(tl)
		if in.AdditionalProperties == nil || out.AdditionalProperties == nil {
			t.Errorf("%s: input and output schemas must set additionalProperties:false", tl.Name())
		}
		if in.ID != "" || in.Ref != "" || len(in.Definitions) > 0 {
			t.Errorf("%s: input schema must be inline without $id/$ref/$defs", tl.Name())
		}
		if _, ok := in.Properties.Get("user_approved"); ok {
			t.Errorf("%s: no model-controlled approval field may exist", tl.Name())
		}
		if !slices.Contains(out.Required, "status") {
			t.Errorf("%s: output must require status, got required=%v", tl.Name(), out.Required)
		}
		hasIdentity := 0
		for _, f := range identity {
			if _, ok := in.Properties.Get(f); ok {
				hasIdentity++
			}
		}
		executes := slices.Contains([]string{"capability_run", "package_install", "sandbox_run"}, tl.Name())
		if executes && hasIdentity != 3 || !executes && hasIdentity != 0 {
			t.Errorf("%s: has %d of the three expected_* identity fields", tl.Name(), hasIdentity)
		}
		if pa := tl.ProjectArg(); pa != "" {
			if _, ok := in.Properties.Get(pa); !ok {
				t.Errorf("%s: project argument %q is not in the schema", tl.Name(), pa)
			}
		}
	}
	sb, _ := tools.Default().Lookup("sandbox_run")
	if !slices.Contains(schema.In(sb).Required, "isolation_requirement") {
		t.Error("sandbox_run must require isolation_requirement")
	}
}

// TestAnnotations: every tool decides every hint, and the hints agree with its safety
// class: a read-only hint never goes with a tool that can be reversible or forbidden,
// and destructive implies not read-only.
func TestAnnotations(t *testing.T) {
	for _, tl := range tools.Default().Tools() {
		a := tl.Annotations()
		if tl.Title() == "" || tl.Description() == "" {
			t.Errorf("%s: title and description are required", tl.Name())
		}
		if a.Destructive && a.ReadOnly {
			t.Errorf("%s: destructive and read-only at once", tl.Name())
		}
		exec := tl.Classify(tools.Args{"execute": true, "include_host": true, "config_path": "x", "capability": "create-pr"})
		if a.ReadOnly && (exec == tools.Reversible || exec == tools.Forbidden) {
			t.Errorf("%s: readOnlyHint but a call can be %s", tl.Name(), exec)
		}
		if !a.ReadOnly && !a.Destructive {
			t.Errorf("%s: a mutating tool should say it may be destructive", tl.Name())
		}
		if plan := tl.Classify(tools.Args{}); plan == tools.Forbidden {
			t.Errorf("%s: a call with default arguments is forbidden", tl.Name())
		}
	}
}

// minimal are the smallest valid arguments of each tool; none of them executes.
var minimal = map[string]map[string]any{
	"capability_run":  {"capability": "inspect-git"},
	"workflow_plan":   {"task": "run the go tests"},
	"package_search":  {"query": "wda-test-query-that-matches-nothing", "source": "scoop"},
	"package_install": {"package_id": "Example.Package"},
	"sandbox_run":     {"command": "echo hi", "isolation_requirement": "linux_compatibility"},
}

// TestMinimalCallsConform calls each tool with its smallest valid arguments over MCP:
// every result matches the output schema, whose status enum is the tool's declared
// vocabulary, so a status a tool did not declare fails here.
func TestMinimalCallsConform(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// An empty environment (no PATH): no tool resolves, so no call starts a process.
	empty := func(string) string { return "" }
	reg := all.New(all.Config{})
	srv := runtime.NewServer(reg, runtime.Options{DataDir: filepath.Join(dir, "data"), ProjectDir: dir, Getenv: empty})
	cs := mcptest.Connect(t, srv)
	for _, name := range registryOrder {
		args := minimal[name]
		if args == nil {
			args = map[string]any{}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out, _ := res.StructuredContent.(map[string]any)
		tl, _ := reg.Lookup(name)
		if err := testkit.CheckOutput(tl, out); err != nil {
			t.Errorf("%s: result does not match its output schema: %v\n%v", name, err, out)
		}
		if !slices.Contains(tl.Statuses(), out["status"].(string)) {
			t.Errorf("%s: status %v is not declared", name, out["status"])
		}
	}
}

// TestDescriptionsAreWhole: a comma in a jsonschema tag ends the description unless it
// is escaped, which once cut what models read ("Exact package id (letters"). Every
// description in every schema is a whole sentence: parentheses balanced, ending in a
// full stop.
func TestDescriptionsAreWhole(t *testing.T) {
	var walk func(tool, path string, s *schema.Schema)
	walk = func(tool, path string, s *schema.Schema) {
		if s == nil {
			return
		}
		if d := s.Description; d != "" {
			if strings.Count(d, "(") != strings.Count(d, ")") || !strings.HasSuffix(d, ".") {
				t.Errorf("%s %s: description %q looks cut (escape commas in jsonschema tags as \\\\,)", tool, path, d)
			}
		}
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				walk(tool, path+"/"+p.Key, p.Value)
			}
		}
		walk(tool, path+"/items", s.Items)
		for i, sub := range append(append([]*schema.Schema{}, s.AnyOf...), s.OneOf...) {
			walk(tool, fmt.Sprintf("%s/%d", path, i), sub)
		}
	}
	for _, tl := range tools.Default().Tools() {
		walk(tl.Name(), "in", schema.In(tl))
		walk(tl.Name(), "out", schema.Out(tl))
	}
}
