package all_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
	"github.com/windows-dev-agent/wda/tools/capabilityrun"
	"github.com/windows-dev-agent/wda/tools/envinspect"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
)

// What the model pays (issue 24, BENCHMARKS.md "Context cost"): every byte of a tool
// definition is sent with every model request, and every byte of a result stays in the
// model's context for the rest of the session. Sizes are deterministic, so these are
// budgets, not timings: a change that makes a definition or a typical result larger than
// its budget fails here, and the log (go test -v -run ContextCost) is the table of
// BENCHMARKS.md.
const (
	// The ten definitions as a host gives them to the model: name, description and
	// input schema, compact JSON (Claude Code sends exactly these; not the output schema).
	budgetDefinitions = 6000
	// The tools/list answer on the wire, output schemas included (hosts and inspectors
	// that read them).
	budgetToolsList = 25000
	// The three calls of a session's first step in a Go project, all three at most 3,000
	// characters together.
	budgetEnvInspect    = 1100
	budgetCapabilityRun = 460
	budgetWorkflowPlan  = 3000 - budgetEnvInspect - budgetCapabilityRun
)

// claudeToolPrefix is how Claude Code names a plugin's MCP tool to the model
// (mcp__plugin_<plugin>_<server>__<tool>), the longest of the hosts' names: the name is
// part of what every request pays for (seen in a real session's model-log.jsonl).
const claudeToolPrefix = "mcp__plugin_windows-dev-agent_windows-dev-agent__"

// modelDefinition is one tool as Claude Code passes it to the model.
type modelDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// wireRecorder keeps the raw JSON-RPC messages the client reads.
type wireRecorder struct{ bytes.Buffer }

// response returns the encoded response whose result has the key (e.g. "tools").
func (w *wireRecorder) response(t *testing.T, key string) []byte {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(w.Bytes()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "read: ")
		if !ok {
			continue
		}
		var m struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Result[key] != nil {
			return []byte(line)
		}
	}
	t.Fatalf("no response with result.%s among the messages read", key)
	return nil
}

// connectRecorded connects a go-sdk client to srv through the in-memory transport and
// records what the client reads.
func connectRecorded(t *testing.T, srv *mcp.Server) (*mcp.ClientSession, *wireRecorder) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &wireRecorder{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "context-cost", Version: "0"}, nil).
		Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: rec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs, rec
}

// TestContextCostDefinitions: the ten definitions, as the model receives them and as
// tools/list sends them, stay within their budgets.
func TestContextCostDefinitions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := runtime.NewServer(all.New(all.Config{}), runtime.Options{Host: host.Generic{}, DataDir: dir, ProjectDir: dir,
		Getenv: func(string) string { return "" }})
	cs, rec := connectRecorded(t, srv)
	res, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(registryOrder) {
		t.Fatalf("tools/list has %d tools, want %d", len(res.Tools), len(registryOrder))
	}
	total := 0
	for _, tl := range res.Tools {
		in, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		def, err := json.Marshal(modelDefinition{Name: claudeToolPrefix + tl.Name, Description: tl.Description, InputSchema: in})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(tl.OutputSchema)
		t.Logf("%-16s definition %5d bytes (description %4d), output schema %5d bytes", tl.Name, len(def), len(tl.Description), len(out))
		total += len(def)
	}
	wire := rec.response(t, "tools")
	t.Logf("%-16s definitions %5d bytes (budget %d), tools/list on the wire %5d bytes (budget %d)", "all ten", total, budgetDefinitions, len(wire), budgetToolsList)
	if total > budgetDefinitions {
		t.Errorf("the ten definitions cost the model %d bytes, budget %d", total, budgetDefinitions)
	}
	if len(wire) > budgetToolsList {
		t.Errorf("tools/list is %d bytes on the wire, budget %d", len(wire), budgetToolsList)
	}
}

// The fixture machine: a Windows 11 developer workstation with Go, Git, VS Code,
// Python and Node, WSL with Ubuntu, a Dev Drive, WinGet. Its paths are what the
// results carry, so their sizes do not depend on where the test runs.
const (
	fixtureProject = `C:\Users\dev\src\app`
	fixtureGoExe   = `C:\Program Files\Go\bin\go.exe`
)

var fixtureTools = map[string]string{
	"go":     fixtureGoExe,
	"gofmt":  `C:\Program Files\Go\bin\gofmt.exe`,
	"git":    `C:\Program Files\Git\cmd\git.exe`,
	"python": `C:\Users\dev\AppData\Local\Programs\Python\Python313\python.exe`,
	"pip":    `C:\Users\dev\AppData\Local\Programs\Python\Python313\Scripts\pip.exe`,
	"node":   `C:\Program Files\nodejs\node.exe`,
	"npm":    `C:\Program Files\nodejs\npm.ps1`,
	"code":   `C:\Users\dev\AppData\Local\Programs\Microsoft VS Code\bin\code.exe`,
	"winget": `C:\Users\dev\AppData\Local\Microsoft\WindowsApps\winget.exe`,
	"wsl":    `C:\Windows\System32\wsl.exe`,
}

type fixtureResolver struct{}

func (fixtureResolver) Resolve(name string) (string, bool) { p, ok := fixtureTools[name]; return p, ok }

func fixtureSnapshot() discovery.Snapshot {
	s, err := discovery.Parse([]byte(`{
  "timestamp": "2026-11-29T10:30:00.123456+01:00",
  "success": true,
  "errors": [],
  "system": {"os_name": "Microsoft Windows 11 Pro", "os_version": "10.0.26100", "os_build": "26100",
    "architecture": "64-bit", "logical_processors": 16, "processor_packages": 1,
    "processor_name": "13th Gen Intel(R) Core(TM) i7-13700H", "total_physical_memory_gb": 31.69},
  "virtualization": {"hyper_v_available": true, "hyper_v_state": "Enabled", "wsl_installed": true,
    "wsl_available": true, "wsl_default_distro": "Ubuntu", "wsl_version": null, "wsl_distros": ["Ubuntu"],
    "windows_sandbox_available": false, "windows_sandbox_state": "Disabled",
    "dev_drive_inventory_state": "available", "dev_drive_enabled": true, "dev_drive_state": "enabled",
    "dev_drives": [{"drive_letter": "D", "label": "Dev", "size_gb": 100, "free_space_gb": 42.5}]},
  "development_tools": {"winget_available": true, "chocolatey_available": false, "scoop_available": false,
    "git_available": true, "docker_installed": false, "docker_running": false, "vscode_available": true,
    "visual_studio_available": false},
  "runtimes": {"python": {"available": true}, "node": {"available": true}, "rust": {"available": false},
    "golang": {"available": true}, "dotnet": {"available": false}},
  "git": {"available": true},
  "editors": {"visual_studio_code": true, "visual_studio": false, "jetbrains_rider": false,
    "jetbrains_pycharm": false, "jetbrains_clion": false}
}`))
	if err != nil {
		panic(err)
	}
	return s
}

// firstStepTools are env_inspect, workflow_plan and capability_run on the fixture
// machine: the real handlers with the machine's facts, PATH and file identities given.
func firstStepTools() *tools.Registry {
	env := envinspect.Deps{
		Discover: func(context.Context, discovery.Options, bool) discovery.Result {
			return discovery.Result{Snapshot: fixtureSnapshot(), CacheHit: true}
		},
		Now: func() time.Time { return time.Date(2026, 11, 29, 9, 30, 0, 0, time.UTC) },
	}
	wp := workflowplan.DefaultDeps()
	wp.Resolver = func(func(string) string) proc.Resolver { return fixtureResolver{} }
	cr := capabilityrun.DefaultDeps()
	cr.Resolver = func(func(string) string) proc.Resolver { return fixtureResolver{} }
	cr.Fingerprint = func(string) (proc.Identity, error) {
		return proc.Identity{Kind: proc.KindFile, SHA256: "7d4e3eec80026719639ed4dba68916eb94c7a49a053e05c8f9578fe4e5a3d7ea"}, nil
	}
	reg := tools.New()
	for _, tl := range []tools.Tool{envinspect.New(env), workflowplan.New(wp), capabilityrun.New(cr)} {
		reg.Register(tl)
	}
	return reg
}

// TestContextCostFirstStep drives the three calls of a session's first step in a Go
// project through the go-sdk client and measures what the model receives of each: the
// structured content, compact (what Claude Code passes on).
func TestContextCostFirstStep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app_test.go"), []byte("package app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := runtime.NewServer(firstStepTools(), runtime.Options{Host: host.NewGeneric(dir, func(string) string { return "" }),
		DataDir: t.TempDir(), ProjectDir: dir, Getenv: func(string) string { return "" }})
	cs, _ := connectRecorded(t, srv)
	// The project directory the results name is the fixture's, whatever t.TempDir is.
	quoted, _ := json.Marshal(dir)
	fixture, _ := json.Marshal(fixtureProject)
	calls := []struct {
		name   string
		args   map[string]any
		budget int
		skip   string
	}{
		{"env_inspect", map[string]any{}, budgetEnvInspect, ""},
		{"workflow_plan", map[string]any{"task": "run the tests"}, budgetWorkflowPlan, ""},
		{"capability_run", map[string]any{"capability": "test-go"}, budgetCapabilityRun, ""},
	}
	total := 0
	for _, c := range calls {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, quoted[1:len(quoted)-1], fixture[1:len(fixture)-1])
		n := len([]rune(string(b)))
		total += n
		t.Logf("%-16s %5d characters (budget %d)", c.name, n, c.budget)
		if testing.Verbose() {
			t.Logf("%s", b)
		}
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip(c.skip)
			}
			if n > c.budget {
				t.Errorf("%s returned %d characters, budget %d:\n%s", c.name, n, c.budget, b)
			}
		})
	}
	t.Logf("%-16s %5d characters (goal 3000)", "first step", total)
}
