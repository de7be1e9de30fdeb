package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	goruntime "runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/internal/policy/inforce"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools/all"
)

const doctorUsage = `usage: wda doctor [--host claude|codex|copilot|gemini] [--json]

Checks the installed Windows Dev Agent plugins of every host the release installs in:
Claude Code, Codex, the GitHub Copilot CLI and Gemini CLI. For each: the plugin's
binary is present and runs, its hooks are registered, its data directory is writable,
and the versions agree (plugin manifest, binary, this wda). Each problem comes with a
fix. It reads the hosts' own files (Claude: CLAUDE_CONFIG_DIR or ~/.claude; Codex:
CODEX_HOME or ~/.codex; Copilot: ~/.copilot; Gemini: ~/.gemini) and never writes inside
a plugin folder; the only write is a temporary file in each data directory, removed at
once. Last, it says how to put the newest plugin's wda on PATH.

Exit code 0 when nothing is wrong, 1 when a check failed or no plugin is installed.
`

// doctorHosts are the hosts doctor checks, in its order: every host the release
// installs a plugin folder in (docs/hosts/). A Claude Desktop bundle (MCPB) is the
// host's own to keep and is not looked for.
var doctorHosts = []string{"claude", "codex", "copilot", "gemini"}

// The published release, as the README installs it: the repository and the
// marketplace its index files name (gen/release).
const (
	releaseRepo        = "windows-dev-agent/wda"
	releaseMarketplace = "windows-dev-agent"
)

// hostFiles is where a host's plugin folder keeps what doctor checks, and the
// commands that install and reinstall it.
type hostFiles struct {
	label string
	dist  string // the folder of the host's payload in the release (gen.Render's keys)
	// manifest, hooks (none: "") and mcp are paths inside the plugin folder.
	manifest, hooks, mcp string
	reinstall            func(id string) string
	install              string
}

var hostTable = map[string]hostFiles{
	"claude": {label: "Claude Code", dist: "claude", manifest: ".claude-plugin/plugin.json", hooks: "hooks/hooks.json", mcp: ".mcp.json",
		reinstall: func(id string) string { return "claude plugin uninstall " + id + ", then claude plugin install " + id },
		install:   "claude plugin marketplace add " + releaseRepo + ", then claude plugin install " + wda.ServerName + "@" + releaseMarketplace},
	"codex": {label: "Codex", dist: "codex", manifest: ".codex-plugin/plugin.json", hooks: "hooks/codex-hooks.json", mcp: ".mcp.codex.json",
		reinstall: func(id string) string { return "codex plugin remove " + id + ", then codex plugin add " + id },
		install:   "codex plugin marketplace add " + releaseRepo + ", then codex plugin add " + wda.ServerName + "@" + releaseMarketplace},
	"copilot": {label: "GitHub Copilot CLI", dist: "agent-plugin", manifest: "plugin.json", hooks: gen.CopilotHooksPath, mcp: "mcp.json",
		reinstall: func(id string) string {
			return "copilot plugin uninstall " + id + ", then copilot plugin install " + id
		},
		install: "copilot plugin marketplace add " + releaseRepo + ", then copilot plugin install " + wda.ServerName + "@" + releaseMarketplace},
	"gemini": {label: "Gemini CLI", dist: "gemini", manifest: "gemini-extension.json", mcp: "gemini-extension.json",
		reinstall: func(string) string {
			return "gemini extensions uninstall " + wda.ServerName + ", then " + geminiInstall
		},
		install: geminiInstall},
}

// geminiInstall installs this version's Gemini extension: Gemini installs from a
// folder, so from a clone of the release tag (README, "Gemini CLI").
const geminiInstall = "git clone --depth 1 --branch dist/v" + wda.Version + " https://github.com/" + releaseRepo + ".git wda-" + wda.Version +
	", then gemini extensions install ./wda-" + wda.Version + "/gemini"

// checkState is the verdict of one check: ok, a warning that needs no action to work,
// or a failure that keeps the plugin from working as shipped.
type checkState string

const (
	checkOK   checkState = "ok"
	checkWarn checkState = "warn"
	checkFail checkState = "fail"
	checkInfo checkState = "info"
)

type check struct {
	Name   string     `json:"name"`
	State  checkState `json:"state"`
	Detail string     `json:"detail"`
	Fix    string     `json:"fix,omitempty"`
}

// install is one installed copy of the plugin and what doctor found about it.
type install struct {
	Host    string  `json:"host"`
	ID      string  `json:"id"` // plugin@marketplace
	Version string  `json:"version,omitempty"`
	Path    string  `json:"path"`
	Checks  []check `json:"checks"`
}

type doctorReport struct {
	Version string `json:"wda_version"`
	// Policy is the managed policy in force (docs/policy.md, "What is shown").
	Policy   check     `json:"policy"`
	Installs []install `json:"installs"`
	Notes    []check   `json:"notes,omitempty"`
	Problems int       `json:"problems"`
	// Bin is the bin folder of the newest installed plugin whose binary runs: the one
	// to put on PATH to use wda from a terminal ("" when there is none).
	Bin string `json:"bin,omitempty"`
}

// doctorEnv is what doctor reads through: the environment and a runner for the
// plugin binary, so tests run it against fake host layouts.
type doctorEnv struct {
	getenv func(string) string
	run    func(ctx context.Context, argv []string) proc.Receipt
	goos   string
	// policy is the managed policy in force (nil: the machine's, inforce.Current).
	policy func() *policy.State
}

func (c *cli) runDoctor(args []string) int {
	fs := newFlagSet("wda doctor")
	hostOnly := fs.String("host", "", "")
	asJSON := fs.Bool("json", false, "")
	err := fs.Parse(args)
	if isHelp(args) {
		fmt.Fprint(c.stdout, doctorUsage)
		return exitOK
	}
	if err != nil || fs.NArg() > 0 || (*hostOnly != "" && !slices.Contains(doctorHosts, *hostOnly)) {
		return c.fail(exitUsage, "doctor: usage: wda doctor [--host claude|codex|copilot|gemini] [--json]")
	}
	de := doctorEnv{getenv: c.getenv, goos: goruntime.GOOS, run: func(ctx context.Context, argv []string) proc.Receipt {
		return proc.Run(ctx, proc.Request{Argv: argv, Dir: os.TempDir(), Timeout: 10 * time.Second})
	}}
	rep := de.diagnose(c.ctx, *hostOnly)
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(c.stdout, string(b))
	} else {
		writeDoctor(&view{w: c.stdout}, rep)
	}
	if rep.Problems > 0 || len(rep.Installs) == 0 {
		return exitNotDone
	}
	return exitOK
}

func writeDoctor(v *view, rep doctorReport) {
	v.printf("wda %s\n", rep.Version)
	writeCheck(v, rep.Policy)
	for _, in := range rep.Installs {
		v.printf("\n%s: %s %s\n  %s\n", hostLabel(in.Host), in.ID, in.Version, in.Path)
		for _, ch := range in.Checks {
			writeCheck(v, ch)
		}
	}
	if len(rep.Notes) > 0 {
		v.printf("\n")
		for _, ch := range rep.Notes {
			writeCheck(v, ch)
		}
	}
	if rep.Bin != "" {
		v.printf("\nTo use the newest plugin's wda from a terminal, put its folder on PATH:\n  PowerShell:  $env:Path = \"%s;$env:Path\"\n  sh:          export PATH=\"%s:$PATH\"\n", rep.Bin, rep.Bin)
	}
	switch {
	case len(rep.Installs) == 0:
		v.printf("\nNo installed plugin was found.\n")
	case rep.Problems == 0:
		v.printf("\nNo problems found.\n")
	case rep.Problems == 1:
		v.printf("\n1 problem found.\n")
	default:
		v.printf("\n%d problems found.\n", rep.Problems)
	}
}

func writeCheck(v *view, ch check) {
	mark := map[checkState]string{checkOK: "ok  ", checkWarn: "warn", checkFail: "FAIL", checkInfo: "note"}[ch.State]
	v.printf("  %s  %s: %s\n", mark, ch.Name, ch.Detail)
	if ch.Fix != "" {
		v.printf("        fix: %s\n", ch.Fix)
	}
}

func hostLabel(h string) string {
	if f, ok := hostTable[h]; ok {
		return f.label
	}
	return h
}

func (de doctorEnv) diagnose(ctx context.Context, only string) doctorReport {
	rep := doctorReport{Version: wda.Version, Installs: []install{}, Policy: de.policyCheck()}
	if rep.Policy.State == checkFail {
		rep.Problems++
	}
	rendered, _ := gen.Render(all.New(all.Config{}))
	find := map[string]func(context.Context, map[string][]byte) ([]install, []check){
		"claude": de.claudeInstalls, "codex": de.codexInstalls, "copilot": de.copilotInstalls, "gemini": de.geminiInstalls}
	for _, h := range doctorHosts {
		if only == "" || only == h {
			ins, notes := find[h](ctx, rendered)
			rep.Installs = append(rep.Installs, ins...)
			rep.Notes = append(rep.Notes, notes...)
		}
	}
	rep.Bin = newestBin(rep.Installs)
	for _, in := range rep.Installs {
		for _, ch := range in.Checks {
			if ch.State == checkFail {
				rep.Problems++
			}
		}
	}
	for _, n := range rep.Notes {
		if n.State == checkFail {
			rep.Problems++
		}
	}
	return rep
}

// policyCheck says whether a managed policy is in force, where from and its hash, or
// why it cannot be used (which refuses every call that would execute).
func (de doctorEnv) policyCheck() check {
	load := de.policy
	if load == nil {
		load = inforce.Current
	}
	st := load()
	switch {
	case !st.InForce():
		return check{Name: "policy", State: checkOK, Detail: "no managed policy"}
	case st.Err != nil:
		return check{Name: "policy", State: checkFail,
			Detail: fmt.Sprintf("the managed policy (sha256 %s) cannot be used, so calls that would execute are refused: %v", st.SHA256, st.Err),
			Fix:    "the policy's administrator corrects it (docs/policy.md describes the schema)"}
	}
	return check{Name: "policy", State: checkInfo, Detail: fmt.Sprintf("a managed policy is in force: %s (sha256 %s)", st.Source, st.SHA256)}
}

// claudeDir is Claude Code's configuration directory.
func (de doctorEnv) claudeDir() string {
	if v := hostenv.Var(de.getenv, "CLAUDE_CONFIG_DIR"); v != "" {
		return home.Expand(v, de.getenv)
	}
	if h := home.Dir(de.getenv); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// claudeInstalls reads plugins/installed_plugins.json: every install of
// windows-dev-agent@<marketplace>, with its scope and installPath.
func (de doctorEnv) claudeInstalls(ctx context.Context, rendered map[string][]byte) ([]install, []check) {
	dir := de.claudeDir()
	if dir == "" {
		return nil, []check{{Name: "Claude Code", State: checkInfo, Detail: "no home directory is known (HOME/USERPROFILE unset) and CLAUDE_CONFIG_DIR is unset: not checked"}}
	}
	file := filepath.Join(dir, "plugins", "installed_plugins.json")
	var reg struct {
		Plugins map[string][]struct {
			Scope       string `json:"scope"`
			InstallPath string `json:"installPath"`
			Version     string `json:"version"`
		} `json:"plugins"`
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []check{{Name: "Claude Code", State: checkInfo, Detail: "no plugin is installed (" + file + " does not exist)",
			Fix: "to install: " + hostTable["claude"].install}}
	}
	if err == nil {
		err = json.Unmarshal(b, &reg)
	}
	if err != nil {
		return nil, []check{{Name: "Claude Code", State: checkFail, Detail: fmt.Sprintf("%s cannot be read: %v", file, err),
			Fix: "run claude plugin list to let Claude Code repair its plugin registry"}}
	}
	enabled := claudeEnabled(filepath.Join(dir, "settings.json"))
	var ids []string
	for id := range reg.Plugins {
		if strings.HasPrefix(id, wda.ServerName+"@") {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return nil, []check{{Name: "Claude Code", State: checkInfo, Detail: "Windows Dev Agent is not among the installed plugins (" + file + ")",
			Fix: "to install: " + hostTable["claude"].install}}
	}
	var out []install
	for _, id := range ids {
		for _, e := range reg.Plugins[id] {
			in := install{Host: "claude", ID: id, Version: e.Version, Path: e.InstallPath}
			if e.Scope == "user" || e.Scope == "" {
				in.Checks = append(in.Checks, enabledCheck(enabled[id], "claude plugin enable "+id,
					filepath.Join(dir, "settings.json")))
			} else {
				in.Checks = append(in.Checks, check{Name: "enabled", State: checkInfo,
					Detail: fmt.Sprintf("installed with scope %s: whether it is enabled is in that scope's settings", e.Scope)})
			}
			data := filepath.Join(dir, "plugins", "data", pluginDataID(id))
			in.Checks = append(in.Checks, de.pluginChecks(ctx, "claude", id, e.InstallPath, data, e.Version, rendered)...)
			out = append(out, in)
		}
	}
	return out, nil
}

// pluginDataID is the folder name Claude Code gives a plugin's CLAUDE_PLUGIN_DATA:
// the plugin id with every character other than a letter, digit, _ or - made a -.
func pluginDataID(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, id)
}

// claudeEnabled reads enabledPlugins from Claude's user settings: id -> enabled, with
// absent ids missing from the map.
func claudeEnabled(file string) map[string]*bool {
	var s struct {
		EnabledPlugins map[string]bool `json:"enabledPlugins"`
	}
	out := map[string]*bool{}
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &s) == nil {
		for k, v := range s.EnabledPlugins {
			out[k] = &v
		}
	}
	return out
}

func enabledCheck(on *bool, fix, where string) check {
	switch {
	case on == nil:
		return check{Name: "enabled", State: checkWarn, Detail: "not listed as enabled in " + where, Fix: fix}
	case !*on:
		return check{Name: "enabled", State: checkFail, Detail: "disabled in " + where, Fix: fix}
	}
	return check{Name: "enabled", State: checkOK, Detail: "enabled in " + where}
}

// codexInstalls lists $CODEX_HOME/plugins/cache/<marketplace>/windows-dev-agent/<version>.
func (de doctorEnv) codexInstalls(ctx context.Context, rendered map[string][]byte) ([]install, []check) {
	codexHome := config.CodexHome(de.getenv)
	if codexHome == "" {
		return nil, []check{{Name: "Codex", State: checkInfo, Detail: "no home directory is known (HOME/USERPROFILE unset) and CODEX_HOME is unset or not an absolute path: not checked"}}
	}
	cache := filepath.Join(codexHome, "plugins", "cache")
	markets, err := os.ReadDir(cache)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, []check{{Name: "Codex", State: checkFail, Detail: fmt.Sprintf("%s cannot be read: %v", cache, err)}}
	}
	cfgText, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	cfg := scanCodexConfig(string(cfgText))
	var out []install
	for _, m := range markets {
		if !m.IsDir() {
			continue
		}
		base := filepath.Join(cache, m.Name(), wda.ServerName)
		versions, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		id := wda.ServerName + "@" + m.Name()
		for _, v := range versions {
			if !v.IsDir() {
				continue
			}
			root := filepath.Join(base, v.Name())
			in := install{Host: "codex", ID: id, Version: v.Name(), Path: root}
			in.Checks = append(in.Checks, enabledCheck(cfg.enabled[id],
				fmt.Sprintf("set enabled = true under [plugins.\"%s\"] in %s, or reinstall with codex plugin add %s", id, filepath.Join(codexHome, "config.toml"), id),
				filepath.Join(codexHome, "config.toml")))
			if cfg.hooksOff {
				in.Checks = append(in.Checks, check{Name: "hooks feature", State: checkFail,
					Detail: "hooks are turned off ([features] hooks = false in config.toml)",
					Fix:    "remove hooks = false from [features] in " + filepath.Join(codexHome, "config.toml")})
			}
			data := filepath.Join(codexHome, "plugins", "data", wda.ServerName)
			in.Checks = append(in.Checks, de.pluginChecks(ctx, "codex", id, root, data, v.Name(), rendered)...)
			out = append(out, in)
		}
	}
	var notes []check
	if len(out) == 0 {
		notes = append(notes, check{Name: "Codex", State: checkInfo, Detail: "no plugin is installed (nothing in " + cache + ")",
			Fix: "to install: " + hostTable["codex"].install})
	} else {
		notes = append(notes, check{Name: "Codex hook trust", State: checkInfo,
			Detail: "Codex runs a plugin's hooks only after you trust them (it lists new or changed hooks for review); wda cannot see that choice. If a tool result says the hooks are not running, review and trust them in Codex and start a new session."})
	}
	return out, notes
}

// codexConfig is the little of config.toml doctor needs.
type codexConfig struct {
	enabled  map[string]*bool // plugin id -> enabled
	hooksOff bool
}

// scanCodexConfig reads the [plugins."<id>"] enabled keys and [features] hooks from a
// Codex config.toml, line by line. It understands the forms Codex writes (a table
// header on its own line, key = true/false) and ignores everything else; it never
// fails.
func scanCodexConfig(text string) codexConfig {
	cfg := codexConfig{enabled: map[string]*bool{}}
	table := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(stripComment(line))
		if strings.HasPrefix(line, "[[") && strings.HasSuffix(line, "]]") {
			table = "[[" + line // an array of tables: nothing doctor reads lives there
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			table = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		b, isBool := map[string]bool{"true": true, "false": false}[val]
		if !isBool {
			continue
		}
		switch {
		case table == "features" && key == "hooks":
			cfg.hooksOff = !b
		case key == "enabled" && strings.HasPrefix(table, "plugins."):
			id := strings.TrimPrefix(table, "plugins.")
			if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
				id = id[1 : len(id)-1]
			}
			cfg.enabled[id] = &b
		}
	}
	return cfg
}

// stripComment drops a # comment that is not inside a quoted string.
func stripComment(line string) string {
	inStr := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			inStr = !inStr
		case '\\':
			if inStr {
				i++
			}
		case '#':
			if !inStr {
				return line[:i]
			}
		}
	}
	return line
}

// pluginChecks are the checks every install gets: the binary, the versions, the hooks
// and MCP files, and the data directory.
func (de doctorEnv) pluginChecks(ctx context.Context, host, id, root, data, regVersion string, rendered map[string][]byte) []check {
	var out []check
	hf := hostTable[host]
	reinstall := hf.reinstall(id)
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return append(out, check{Name: "plugin folder", State: checkFail, Detail: root + " does not exist", Fix: "reinstall: " + reinstall})
	}
	manifestFile := hf.manifest
	var manifest struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		Hooks   string `json:"hooks"`
	}
	mb, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(manifestFile)))
	if err == nil {
		err = json.Unmarshal(mb, &manifest)
	}
	if err != nil {
		out = append(out, check{Name: "manifest", State: checkFail, Detail: fmt.Sprintf("%s cannot be read: %v", manifestFile, err), Fix: "reinstall: " + reinstall})
	}
	// The binary: present, a regular file, and it runs.
	exe := filepath.Join(root, "bin", "wda")
	if de.goos == "windows" {
		exe += ".exe"
	}
	binVersion := ""
	switch fi, err := os.Stat(exe); {
	case err != nil:
		out = append(out, check{Name: "binary", State: checkFail, Detail: exe + " is missing",
			Fix: "reinstall from the release (its plugin folder carries bin/wda and every platform's build): " + reinstall})
	case !fi.Mode().IsRegular():
		out = append(out, check{Name: "binary", State: checkFail, Detail: exe + " is not a regular file", Fix: "reinstall: " + reinstall})
	case de.goos != "windows" && fi.Mode().Perm()&0o111 == 0:
		out = append(out, check{Name: "binary", State: checkFail, Detail: exe + " is not executable",
			Fix: "chmod +x " + quoteArg(exe) + " (or reinstall)"})
	default:
		rc := de.run(ctx, []string{exe, "version"})
		line := strings.TrimSpace(rc.Stdout)
		// "<name> <version>", and on a release build " (commit <sha>, <go>)".
		name, ver := "", ""
		if f := strings.Fields(line); len(f) >= 2 {
			name, ver = f[0], f[1]
		}
		if !rc.Succeeded || name != wda.ServerName || ver == "" {
			detail := "does not run"
			if rc.Error != "" {
				detail += ": " + rc.Error
			} else if line != "" || rc.Stderr != "" {
				detail += fmt.Sprintf(": %q", firstLine(line+rc.Stderr))
			}
			out = append(out, check{Name: "binary", State: checkFail, Detail: exe + " " + detail,
				Fix: "reinstall the build for this system and architecture: " + reinstall})
		} else {
			binVersion = ver
			out = append(out, check{Name: "binary", State: checkOK, Detail: exe + " runs: " + line})
		}
	}
	// Versions: manifest, registry, binary; this wda only as information.
	vs := map[string]string{}
	if manifest.Version != "" {
		vs["plugin manifest"] = manifest.Version
	}
	if regVersion != "" {
		vs["installed version"] = regVersion
	}
	if binVersion != "" {
		vs["binary"] = binVersion
	}
	out = append(out, versionCheck(vs, reinstall))
	if manifest.Version != "" && manifest.Version != wda.Version {
		out = append(out, check{Name: "this wda", State: checkInfo,
			Detail: fmt.Sprintf("this wda is %s, the plugin is %s: its files were compared by shape only", wda.Version, manifest.Version)})
	}
	same := manifest.Version == wda.Version
	// Hooks and MCP server files, against what this version ships when it is the same
	// version, and by shape otherwise.
	if hf.hooks != "" {
		hooksRel := hf.hooks
		if host == "codex" && manifest.Hooks != "" {
			hooksRel = strings.TrimPrefix(manifest.Hooks, "./")
		}
		out = append(out, hooksCheck(host, root, hooksRel, rendered[hf.dist+"/"+hf.hooks], same, reinstall))
	}
	out = append(out, fileCheck("MCP server", root, hf.mcp, rendered[hf.dist+"/"+hf.mcp], same, reinstall))
	if data == "" {
		out = append(out, check{Name: "data directory", State: checkInfo,
			Detail: "the host chooses it when it starts the server (" + config.CopilotPluginDataVar + "): not checked"})
	} else {
		out = append(out, dataDirCheck(data, root))
	}
	return out
}

// insidePlugin reports whether the data directory dir lies in the plugin folder root,
// by the platform's containment rule (docs/platform.md, "Containment": components, not
// string prefixes, without case on Windows): as named, or as the directories they lead
// to (a data directory linked into the plugin, or not created yet below such a link,
// is inside too). The answer only decides what doctor reports; nothing is opened
// through it afterwards.
func insidePlugin(dir, root string) bool {
	if contain.Within(root, dir) {
		return true
	}
	r, ok := resolveExisting(root)
	if !ok {
		return false
	}
	d, ok := resolveExisting(dir)
	return ok && contain.Within(r, d)
}

// resolveExisting is the final path of the deepest existing directory of the absolute
// path p (contain.ResolveDir) joined with the names below it that do not exist yet.
func resolveExisting(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		return "", false
	}
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := contain.ResolveDir(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), true
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", false
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func versionCheck(vs map[string]string, reinstall string) check {
	if len(vs) == 0 {
		return check{Name: "versions", State: checkFail, Detail: "no version could be read", Fix: "reinstall: " + reinstall}
	}
	var names []string
	for k := range vs {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	agree := true
	for _, n := range names {
		parts = append(parts, n+" "+vs[n])
		if vs[n] != vs[names[0]] {
			agree = false
		}
	}
	if !agree {
		return check{Name: "versions", State: checkFail, Detail: "disagree: " + strings.Join(parts, ", "),
			Fix: "reinstall one release whole (plugin files and binary come together): " + reinstall}
	}
	return check{Name: "versions", State: checkOK, Detail: "agree: " + strings.Join(parts, ", ")}
}

// hookStarts matches a hook command line that starts the plugin's own hooks binary
// for host: bin/wda-hook <host> (every hook this version ships), or bin/wda hook
// <host> (earlier versions); quotes around the path and the .exe are allowed.
func hookStarts(host string) *regexp.Regexp {
	return regexp.MustCompile(`bin/wda(-hook(\.exe)?"?|(\.exe)?"? +hook) +` + regexp.QuoteMeta(host) + `( |$)`)
}

// hooksCheck: the hooks file parses, every event this version registers is there, and
// each runs the plugin's own hooks binary.
func hooksCheck(host, root, rel string, want []byte, same bool, reinstall string) check {
	file := filepath.Join(root, filepath.FromSlash(rel))
	got, err := readJSON(file)
	if err != nil {
		return check{Name: "hooks", State: checkFail, Detail: fmt.Sprintf("%s: %v", rel, err), Fix: "reinstall: " + reinstall}
	}
	var wantDoc any
	_ = json.Unmarshal(want, &wantDoc)
	events := sortedKeys(obj(obj(wantDoc)["hooks"]))
	gotHooks := obj(obj(got)["hooks"])
	var missing []string
	starts := hookStarts(host)
	for _, ev := range events {
		if !slices.ContainsFunc(hookCommands(gotHooks[ev]), starts.MatchString) {
			missing = append(missing, ev)
		}
	}
	if len(missing) > 0 {
		return check{Name: "hooks", State: checkFail, Detail: fmt.Sprintf("%s does not register %s with bin/wda-hook %s", rel, strings.Join(missing, ", "), host),
			Fix: "reinstall: " + reinstall}
	}
	if same && !reflect.DeepEqual(got, wantDoc) {
		return check{Name: "hooks", State: checkFail, Detail: rel + " differs from the hooks this version ships (edited after install?)",
			Fix: "reinstall: " + reinstall}
	}
	return check{Name: "hooks", State: checkOK, Detail: fmt.Sprintf("%s registers %s", rel, strings.Join(events, ", "))}
}

func hookCommands(groups any) []string {
	var out []string
	for _, g := range list(groups) {
		// The Copilot CLI's form: each entry is one command, per shell.
		for _, k := range []string{"bash", "powershell"} {
			if c, _ := obj(g)[k].(string); c != "" {
				out = append(out, strings.ReplaceAll(c, `\`, "/"))
			}
		}
		for _, h := range list(obj(g)["hooks"]) {
			if c, _ := obj(h)["command"].(string); c != "" {
				// The exec form (command + args) is one command line here.
				for _, a := range list(obj(h)["args"]) {
					if s, ok := a.(string); ok {
						c += " " + s
					}
				}
				out = append(out, filepath.ToSlash(c))
			}
			if c, _ := obj(h)["commandWindows"].(string); c != "" {
				out = append(out, strings.ReplaceAll(c, `\`, "/"))
			}
		}
	}
	return out
}

func fileCheck(name, root, rel string, want []byte, same bool, reinstall string) check {
	got, err := readJSON(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return check{Name: name, State: checkFail, Detail: fmt.Sprintf("%s: %v", rel, err), Fix: "reinstall: " + reinstall}
	}
	var wantDoc any
	_ = json.Unmarshal(want, &wantDoc)
	if same && !reflect.DeepEqual(got, wantDoc) {
		return check{Name: name, State: checkFail, Detail: rel + " differs from the one this version ships", Fix: "reinstall: " + reinstall}
	}
	// bin/wda, or Gemini's ${extensionPath}${/}bin${/}wda.
	if text := fmt.Sprint(got); !strings.Contains(text, "bin/wda") && !strings.Contains(text, "bin${/}wda") {
		return check{Name: name, State: checkFail, Detail: rel + " does not start the plugin's bin/wda", Fix: "reinstall: " + reinstall}
	}
	return check{Name: name, State: checkOK, Detail: rel + " starts bin/wda mcp"}
}

func readJSON(file string) (any, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("missing")
		}
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	return v, nil
}

// dataDirCheck: the data directory is a writable directory outside the plugin folder.
// A directory that does not exist yet is fine: the host or wda creates it on first use.
// The probe is a temporary file, removed at once; nothing is written in the plugin.
func dataDirCheck(dir, pluginRoot string) check {
	if insidePlugin(dir, pluginRoot) {
		return check{Name: "data directory", State: checkFail, Detail: dir + " is inside the plugin folder, which the host replaces on update",
			Fix: "set WINDOWS_DEV_AGENT_DATA_DIR to a folder outside the plugin"}
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return check{Name: "data directory", State: checkOK, Detail: dir + " does not exist yet (it is created on first use)"}
	case err != nil:
		return check{Name: "data directory", State: checkFail, Detail: fmt.Sprintf("%s: %v", dir, err), Fix: "check the folder's permissions"}
	case !fi.IsDir():
		return check{Name: "data directory", State: checkFail, Detail: dir + " is not a directory", Fix: "remove or rename " + quoteArg(dir)}
	}
	f, err := os.CreateTemp(dir, ".wda-doctor-*")
	if err != nil {
		return check{Name: "data directory", State: checkFail, Detail: fmt.Sprintf("%s is not writable: %v", dir, err),
			Fix: "give your user write access to " + quoteArg(dir)}
	}
	name := f.Name()
	f.Close()
	_ = os.Remove(name) // the probe file only; a leftover is harmless and gitignored nowhere
	return check{Name: "data directory", State: checkOK, Detail: dir + " is writable"}
}
