package hostcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
)

// mcpbPlatform is MCPB's name of this machine's platform.
func mcpbPlatform() string {
	if goruntime.GOOS == "windows" {
		return "win32"
	}
	return goruntime.GOOS
}

type mcpbState struct {
	dir, packed, unpacked string
}

func (e *Env) mcpbGroup() Group {
	var st mcpbState
	mcpb := func(ctx context.Context, args ...string) receipt {
		home, _ := e.home("mcpb")
		return e.client(ctx, MCPB, e.work, e.clientEnv(home), args...)
	}
	return Group{Name: "mcpb (mcpb " + MCPB.Version + ")", Checks: []Check{
		{Name: "validate", Run: func(ctx context.Context) error {
			var err error
			if st.dir, err = e.payload(gen.MCPBRoot, "mcpb", wda.ServerName); err != nil {
				return err
			}
			r := mcpb(ctx, "validate", filepath.Join(st.dir, "manifest.json"))
			if err := r.err(); err != nil {
				return err
			}
			if !strings.Contains(r.output(), "Manifest schema validation passes") {
				return fmt.Errorf("validate said: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "pack", Run: func(ctx context.Context) error {
			st.packed = filepath.Join(e.work, gen.MCPBAsset(goruntime.GOARCH))
			if err := mcpb(ctx, "pack", st.dir, st.packed).err(); err != nil {
				return err
			}
			_, err := os.Stat(st.packed)
			return err
		}},
		{Name: "info", Run: func(ctx context.Context) error {
			r := mcpb(ctx, "info", st.packed)
			if err := r.err(); err != nil {
				return err
			}
			if !strings.Contains(r.output(), filepath.Base(st.packed)) {
				return fmt.Errorf("info said: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "the unpacked bundle answers its static responses (MCP Inspector " + Inspector.Version + ")", Run: func(ctx context.Context) error {
			st.unpacked = filepath.Join(e.work, "mcpb-unpacked")
			if err := mcpb(ctx, "unpack", st.packed, st.unpacked).err(); err != nil {
				return err
			}
			return e.mcpbStaticLive(ctx, st.unpacked)
		}},
	}}
}

// mcpbStaticLive starts the unpacked bundle the way its manifest says for this
// platform (${__dirname} is the bundle folder) under the MCP Inspector's CLI, and
// compares the live initialize and tools/list answers with the manifest's static
// responses: the server's identity, capabilities and instructions, and every tool.
// The negotiated protocol version is the Inspector's choice and the cache hints of
// tools/list are not in its output, so those two are left out (cmd/wda's e2e test
// compares the whole answers).
func (e *Env) mcpbStaticLive(ctx context.Context, dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	committed, err := os.ReadFile(filepath.Join(e.cfg.Dist, gen.MCPBRoot, "manifest.json"))
	if err != nil {
		return err
	}
	if !bytes.Equal(raw, committed) {
		return fmt.Errorf("the packed manifest differs from dist/%s/manifest.json", gen.MCPBRoot)
	}
	var m struct {
		Server struct {
			MCPConfig struct {
				Command           string
				Args              []string
				PlatformOverrides map[string]struct {
					Command string
					Args    []string
				} `json:"platform_overrides"`
			} `json:"mcp_config"`
		}
		Compatibility struct{ Platforms []string }
		Meta          map[string]struct {
			StaticResponses map[string]any `json:"static_responses"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	if !slices.Contains(m.Compatibility.Platforms, "win32") {
		return fmt.Errorf("compatibility.platforms %v lacks win32", m.Compatibility.Platforms)
	}
	cfg := m.Server.MCPConfig
	command, args := cfg.Command, cfg.Args
	if o, ok := cfg.PlatformOverrides[mcpbPlatform()]; ok {
		if o.Command != "" {
			command = o.Command
		}
		if o.Args != nil {
			args = o.Args
		}
	}
	sub := func(s string) string {
		return filepath.FromSlash(strings.ReplaceAll(s, "${__dirname}", filepath.ToSlash(dir)))
	}
	target := []string{sub(command)}
	for _, a := range args {
		target = append(target, sub(a))
	}
	static := m.Meta[gen.WindowsMetaKey].StaticResponses
	home, err := e.home("inspector")
	if err != nil {
		return err
	}
	data := filepath.Join(e.work, "mcpb-data")
	for _, method := range []string{"initialize", "tools/list"} {
		cli := append([]string{"--cli"}, target...)
		cli = append(cli, "-e", "WINDOWS_DEV_AGENT_DATA_DIR="+data, "--method", method)
		r := e.client(ctx, Inspector, dir, e.clientEnv(home), cli...)
		if err := r.err(); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		var live map[string]any
		if err := json.Unmarshal([]byte(r.Stdout), &live); err != nil {
			return fmt.Errorf("%s: %v: %s", method, err, tail(r.Stdout))
		}
		want, _ := static[method].(map[string]any)
		var got any = live
		switch method {
		case "initialize":
			want, got = without(want, "protocolVersion"), without(live, "protocolVersion")
		case "tools/list":
			// The Inspector prints the tools only, not the result's cache hints.
			var wantTools any = want["tools"]
			if diff := cmp.Diff(wantTools, live["tools"]); diff != "" {
				return fmt.Errorf("static tools/list differs from the live answer (-static +live): %s", tail(diff))
			}
			continue
		}
		if diff := cmp.Diff(any(want), got); diff != "" {
			return fmt.Errorf("static %s differs from the live answer (-static +live): %s", method, tail(diff))
		}
	}
	return nil
}

func without(m map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}
