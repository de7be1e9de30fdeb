package main

// The MCPB manifest's static responses against the real binary over stdio (os/exec is
// allowed in *e2e*_test.go under cmd/, see e2e_test.go).

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestE2EMCPBStaticResponsesAreLive: what `wda mcp --host mcpb` answers to initialize
// and tools/list, started with the manifest's own arguments, equals the manifest's
// _meta["com.microsoft.windows"].static_responses, and its tools list names the
// served tools.
func TestE2EMCPBStaticResponsesAreLive(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "dist", "mcpb", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Server struct {
			MCPConfig struct{ Args []string } `json:"mcp_config"`
		}
		Tools []struct{ Name string }
		Meta  map[string]struct {
			StaticResponses map[string]any `json:"static_responses"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	static := m.Meta["com.microsoft.windows"].StaticResponses
	if static == nil {
		t.Fatal("manifest has no static responses")
	}
	cmd := exec.Command(wdaBin, m.Server.MCPConfig.Args...)
	// A bundle host gives neither a project nor a data directory; only the data
	// directory is pinned here, to keep the test out of the user's cache.
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+t.TempDir(), "WINDOWS_DEV_AGENT_PROJECT_DIR=")
	cmd.Stderr = os.Stderr
	// Ask for the protocol version the static answer carries: the server answers what
	// it is asked for.
	version, _ := static["initialize"].(map[string]any)["protocolVersion"].(string)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpb-e2e", Version: "0"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, live := range map[string]any{"initialize": cs.InitializeResult(), "tools/list": list} {
		if diff := cmp.Diff(static[name], asJSON(t, live)); diff != "" {
			t.Errorf("static %s differs from the live answer (-static +live):\n%s", name, diff)
		}
	}
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
	}
	var served []string
	for _, tl := range list.Tools {
		served = append(served, tl.Name)
	}
	slices.Sort(names)
	slices.Sort(served)
	if !slices.Equal(names, served) {
		t.Errorf("manifest tools %v, served %v", names, served)
	}
}

func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
