package hostcheck

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
)

// mcpbPlatform is MCPB's name of this machine's platform.
func mcpbPlatform() string {
	if goruntime.GOOS == "windows" {
		return "win32"
	}
	return goruntime.GOOS
}

// bundleFiles are what a release's bundle holds (docs/hosts/mcpb.md).
var bundleFiles = []string{"LICENSE", "README.md", "bin/wda.exe", "manifest.json"}

// bundle is the release's .mcpb for one Windows architecture.
func (e *Env) bundle(arch string) string {
	return filepath.Join(e.release, release.MCPBDir, gen.MCPBAssetName(e.manifest.Version, arch))
}

// releaseWindowsServer is the release's wda.exe for one Windows architecture (the one
// at the top of bin/ for amd64, docs/release.md).
func (e *Env) releaseWindowsServer(arch string) string {
	dir := filepath.Join(e.release, release.AgentPluginDir, "bin")
	if arch != "amd64" {
		dir = filepath.Join(dir, "windows-"+arch)
	}
	return filepath.Join(dir, "wda.exe")
}

func (e *Env) mcpbGroup() Group {
	unpacked := map[string]string{} // arch → the unpacked bundle
	mcpb := func(ctx context.Context, args ...string) receipt {
		home, _ := e.home("mcpb") // a failure shows as the client's own
		return e.client(ctx, MCPB, e.work, e.clientEnv(home, "CI=1"), args...)
	}
	live := "the amd64 bundle's wda.exe, started under Wine as its win32 command says, answers its static responses (MCP Inspector " + Inspector.Version + ")"
	if e.cfg.SkipWine {
		live = "this machine's wda of the release, started as the manifest's base command says, answers the bundle's static responses (MCP Inspector " + Inspector.Version + ")"
	}
	return Group{Name: "mcpb (mcpb " + MCPB.Version + ")", Checks: []Check{
		{Name: "mcpb info of the release's bundles", Run: func(ctx context.Context) error {
			for _, arch := range gen.MCPBArchs {
				r := mcpb(ctx, "info", e.bundle(arch))
				if err := r.err(); err != nil {
					return err
				}
				if !strings.Contains(r.output(), filepath.Base(e.bundle(arch))) {
					return fmt.Errorf("info said: %s", tail(r.output()))
				}
			}
			return nil
		}},
		{Name: "mcpb unpack: the manifest, README, LICENSE and that architecture's wda.exe of the release", Run: func(ctx context.Context) error {
			for _, arch := range gen.MCPBArchs {
				dir := filepath.Join(e.work, "mcpb-"+arch)
				if err := mcpb(ctx, "unpack", e.bundle(arch), dir).err(); err != nil {
					return err
				}
				unpacked[arch] = dir
				if err := e.unpackedBundle(dir, arch, unpacked[gen.MCPBArchs[0]]); err != nil {
					return err
				}
			}
			return nil
		}},
		{Name: "mcpb validate the unpacked manifest", Run: func(ctx context.Context) error {
			r := mcpb(ctx, "validate", filepath.Join(unpacked["amd64"], "manifest.json"))
			if err := r.err(); err != nil {
				return err
			}
			if !strings.Contains(r.output(), "Manifest schema validation passes") {
				return fmt.Errorf("validate said: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "mcpb pack of the unpacked bundle holds the same files as the release's", Independent: true, Run: func(ctx context.Context) error {
			repacked := filepath.Join(e.work, "repacked.mcpb")
			if err := mcpb(ctx, "pack", unpacked["amd64"], repacked).err(); err != nil {
				return err
			}
			return sameBundle(repacked, e.bundle("amd64"))
		}},
		{Name: live, Independent: true, Run: func(ctx context.Context) error {
			return e.mcpbLive(ctx, unpacked["amd64"])
		}},
	}}
}

// unpackedBundle checks an unpacked bundle holds exactly bundleFiles, its wda.exe is
// the release's build for arch, and its other files are those of first (the first
// architecture's bundle: every bundle carries the same manifest).
func (e *Env) unpackedBundle(dir, arch, first string) error {
	got, err := treeDigest(dir)
	if err != nil {
		return err
	}
	var names []string
	for p := range got {
		names = append(names, p)
	}
	slices.Sort(names)
	if d := cmp.Diff(bundleFiles, names); d != "" {
		return fmt.Errorf("%s holds (-want +got): %s", dir, tail(d))
	}
	if same, err := sameFile(filepath.Join(dir, "bin", "wda.exe"), e.releaseWindowsServer(arch)); err != nil || !same {
		return fmt.Errorf("the %s bundle's bin/wda.exe is not %s (%v)", arch, e.releaseWindowsServer(arch), err)
	}
	for _, f := range bundleFiles {
		if f == "bin/wda.exe" || dir == first {
			continue
		}
		if same, err := sameFile(filepath.Join(dir, f), filepath.Join(first, f)); err != nil || !same {
			return fmt.Errorf("%s differs between the bundles (%v)", f, err)
		}
	}
	var m struct{ Version string }
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Version != e.manifest.Version {
		return fmt.Errorf("manifest version %q, want the release's %s (%v)", m.Version, e.manifest.Version, err)
	}
	return nil
}

// sameBundle compares two zips by entry name and content (not by zip metadata: mcpb
// pack deflates and stamps times, the release stores and fixes them).
func sameBundle(a, b string) error {
	read := func(name string) (map[string][]byte, error) {
		zr, err := zip.OpenReader(name)
		if err != nil {
			return nil, err
		}
		defer func() { _ = zr.Close() }() // read-only
		out := map[string][]byte{}
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, "/") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			b, err := io.ReadAll(io.LimitReader(rc, maxEntry))
			_ = rc.Close() // read-only
			if err != nil {
				return nil, err
			}
			out[f.Name] = b
		}
		return out, nil
	}
	got, err := read(a)
	if err != nil {
		return err
	}
	want, err := read(b)
	if err != nil {
		return err
	}
	var problems []string
	for n, w := range want {
		if g, ok := got[n]; !ok {
			problems = append(problems, "missing "+n)
		} else if !bytes.Equal(g, w) {
			problems = append(problems, "differs "+n)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			problems = append(problems, "extra "+n)
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return fmt.Errorf("%s is not %s: %s", a, b, strings.Join(problems, ", "))
	}
	return nil
}

// mcpbLive starts the unpacked bundle the way its manifest says (${__dirname} is the
// bundle folder) under the MCP Inspector's CLI, and compares the live initialize and
// tools/list answers with the manifest's static responses: the server's identity,
// capabilities and instructions, and every tool. Under Wine it starts the bundle's
// own wda.exe with the win32 command, which is what Windows would run; with -skip-wine
// it starts the base command with ${__dirname} at the release's agent-plugin/, whose
// bin/wda is this machine's build of the same commit. The negotiated protocol version
// is the Inspector's choice and the cache hints of tools/list are not in its output,
// so those two are left out (cmd/wda's e2e test compares the whole answers).
func (e *Env) mcpbLive(ctx context.Context, dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
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
	platform, base := "win32", dir
	if e.cfg.SkipWine {
		platform, base = mcpbPlatform(), filepath.Join(e.release, release.AgentPluginDir)
	}
	command, args := cfg.Command, cfg.Args
	if o, ok := cfg.PlatformOverrides[platform]; ok {
		if o.Command != "" {
			command = o.Command
		}
		if o.Args != nil {
			args = o.Args
		}
	}
	sub := func(s string) string {
		return filepath.FromSlash(strings.ReplaceAll(s, "${__dirname}", filepath.ToSlash(base)))
	}
	target := []string{sub(command)}
	for _, a := range args {
		target = append(target, sub(a))
	}
	data := filepath.Join(e.work, "mcpb-data")
	serverEnv := []string{"WINDOWS_DEV_AGENT_DATA_DIR=" + data}
	if !e.cfg.SkipWine {
		if err := e.ensureWine(ctx); err != nil {
			return err
		}
		// The Inspector passes its server only the variables it is given (-e) and a
		// few basics, so Wine's own come along explicitly.
		target = append([]string{e.wine.loader}, target...)
		serverEnv = append(e.wine.serverEnv(), "WINDOWS_DEV_AGENT_DATA_DIR="+winPath(data))
	}
	static := m.Meta[gen.WindowsMetaKey].StaticResponses
	home, err := e.home("inspector-mcpb")
	if err != nil {
		return err
	}
	for _, method := range []string{"initialize", "tools/list"} {
		cli := append([]string{"--cli"}, target...)
		for _, kv := range serverEnv {
			cli = append(cli, "-e", kv)
		}
		cli = append(cli, "--method", method)
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
			if diff := cmp.Diff(want["tools"], live["tools"]); diff != "" {
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
