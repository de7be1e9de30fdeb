package hostcheck

import (
	"context"
	"debug/pe"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/internal/proc"
)

// wineEnv is a Wine prefix that runs the Windows builds of the hosts. Wine 8 needs a
// bcryptprimitives.dll whose ProcessPrng Go's runtime calls (forwarded to
// advapi32!SystemFunction036), and one persistent wineserver with stdio on the null
// device, so Wine's services never hold a client's output pipes open.
type wineEnv struct {
	loader, server string
	prefix         string
	launched       *proc.Launched
	e              *Env
}

// The shim: DllMain returns TRUE, ProcessPrng calls SystemFunction036 (RtlGenRandom).
const prngAsm = `        .text
        .globl DllMain
DllMain:
        movl $1, %eax
        ret
        .globl ProcessPrng
ProcessPrng:
        subq $40, %rsp
        call *__imp_SystemFunction036(%rip)
        movzbl %al, %eax
        addq $40, %rsp
        ret
`

func (w *wineEnv) env(extra ...string) []string {
	env := []string{"WINEPREFIX=" + w.prefix, "WINEDEBUG=-all", "WINEARCH=win64", "WINELOADER=" + w.loader,
		"HOME=" + w.e.getenv("HOME"), "PATH=" + w.e.getenv("PATH"), "LANG=C.UTF-8",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "ENABLE_TOOL_SEARCH=false", "NO_COLOR=1"}
	return append(env, extra...)
}

func (w *wineEnv) run(ctx context.Context, dir string, timeout time.Duration, env []string, args ...string) receipt {
	return w.e.run(ctx, request{argv: append([]string{w.loader}, args...), dir: dir, env: w.env(env...), timeout: timeout})
}

// winPath is a Linux path as Wine's Z: drive names it.
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// linuxPath is the Linux path of a Z: path Wine reports.
func linuxPath(p string) (string, error) {
	if len(p) < 2 || !strings.EqualFold(p[:2], "Z:") {
		return "", fmt.Errorf("%q is not on Wine's Z: drive", p)
	}
	return filepath.Clean(strings.ReplaceAll(p[2:], `\`, "/")), nil
}

// ensureWine sets Wine up once per run: the first check that needs it does the work,
// later ones reuse it (or its failure).
func (e *Env) ensureWine(ctx context.Context) error {
	if e.wine == nil && e.wineErr == nil {
		if e.wineErr = e.setupWine(ctx); e.wineErr == nil && e.wine == nil {
			e.wineErr = errors.New("wine was not set up")
		}
	}
	return e.wineErr
}

// serverEnv is what a program other than this one (the MCP Inspector) must pass to a
// Windows program it starts with the loader, to run it in this prefix.
func (w *wineEnv) serverEnv() []string {
	return []string{"WINEPREFIX=" + w.prefix, "WINEDEBUG=-all", "WINEARCH=win64", "WINELOADER=" + w.loader}
}

// setupWine finds Wine, builds the shim once, makes the prefix once and starts the
// persistent server.
func (e *Env) setupWine(ctx context.Context) error {
	if goruntime.GOOS != "linux" {
		return errors.New("the Windows hosts run under Wine on Linux only (use -skip-wine)")
	}
	w := &wineEnv{e: e, prefix: filepath.Join(e.cfg.WinCache, "prefix")}
	var ok bool
	if w.loader, ok = e.resolveTool("wine64", "/usr/lib/wine/wine64"); !ok {
		return errors.New("wine64 is not installed (Debian: apt-get install wine64 wine binutils-mingw-w64-x86-64), or pass -skip-wine")
	}
	if w.server, ok = e.resolveTool("wineserver64", "/usr/lib/wine/wineserver64"); !ok {
		if w.server, ok = e.resolveTool("wineserver"); !ok {
			return errors.New("wineserver is not installed")
		}
	}
	if err := os.MkdirAll(e.cfg.WinCache, 0o755); err != nil {
		return err
	}
	dll := filepath.Join(e.cfg.WinCache, "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err != nil {
		if err := e.buildShim(ctx, dll); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(w.prefix, "drive_c", "windows", "system32")); err != nil {
		if r := w.run(ctx, e.cfg.WinCache, 10*time.Minute, nil, "wineboot", "-i"); !r.ExecutionStarted {
			return fmt.Errorf("wineboot: %s", r.Error)
		}
		_ = e.run(ctx, request{argv: []string{w.server, "-w"}, dir: e.cfg.WinCache, env: w.env(), timeout: 5 * time.Minute}) // waits for wineboot's server to end
	}
	b, err := os.ReadFile(dll)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll"), b, 0o644); err != nil {
		return err
	}
	launched, err := proc.Launch(proc.Request{Argv: []string{w.server, "-f", "-p"}, Dir: e.cfg.WinCache, Env: w.env()})
	if err != nil {
		return fmt.Errorf("starting wineserver: %w", err)
	}
	w.launched = launched
	e.wine = w
	// The first program starts Wine's services against the persistent server.
	if r := w.run(ctx, e.cfg.WinCache, 5*time.Minute, nil, "cmd", "/c", "exit"); !r.ExecutionStarted {
		return fmt.Errorf("wine cmd: %s", r.Error)
	}
	return nil
}

// stop ends the wineserver this run started (if another one already served the
// prefix, ours exited at once and nothing is stopped).
func (w *wineEnv) stop() {
	if w.launched == nil {
		return
	}
	select {
	case <-w.launched.Done:
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = w.e.run(ctx, request{argv: []string{w.server, "-k"}, dir: w.e.cfg.WinCache, env: w.env(), timeout: time.Minute}) // best effort at exit
}

func (e *Env) buildShim(ctx context.Context, dll string) error {
	dir := filepath.Join(e.cfg.WinCache, "shim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, content := range map[string]string{
		"prng.s":       prngAsm,
		"prng.def":     "LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n",
		"advapi32.def": "LIBRARY advapi32.dll\nEXPORTS\nSystemFunction036\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	steps := [][]string{
		{"x86_64-w64-mingw32-dlltool", "-d", "advapi32.def", "-l", "libadvapi32.a"},
		{"x86_64-w64-mingw32-as", "-o", "prng.o", "prng.s"},
		{"x86_64-w64-mingw32-ld", "--dll", "-e", "DllMain", "--subsystem", "windows", "-o", dll, "prng.o", "prng.def", "libadvapi32.a"},
	}
	for _, s := range steps {
		bin, ok := e.resolveTool(s[0])
		if !ok {
			return fmt.Errorf("%s is not installed (Debian: apt-get install binutils-mingw-w64-x86-64)", s[0])
		}
		if err := e.run(ctx, request{argv: append([]string{bin}, s[1:]...), dir: dir, env: os.Environ()}).err(); err != nil {
			return fmt.Errorf("%s: %w", s[0], err)
		}
	}
	return nil
}

func (e *Env) wineGroup() Group {
	var claudeExe, codexExe string
	var claudeCfg, codexHome, project string
	var installedCodex string
	var tr *claudeTranscript
	claudeInstalled := func() string {
		return filepath.Join(claudeCfg, "plugins", "cache", marketplaceName, pluginName, e.manifest.Version)
	}
	return Group{Name: "windows (wine)", Checks: []Check{
		{Name: "wine prefix with the bcryptprimitives shim and a persistent wineserver", Run: e.ensureWine},
		{Name: "npm pack " + ClaudeCodeWindows.Spec() + " " + CodexWindows.Spec(), Run: func(ctx context.Context) error {
			var err error
			if claudeExe, err = e.npmPack(ctx, e.cfg.WinCache, ClaudeCodeWindows); err != nil {
				return err
			}
			codexExe, err = e.npmPack(ctx, e.cfg.WinCache, CodexWindows)
			return err
		}},
		{Name: "Claude Code for Windows: plugin marketplace add dist/release; plugin install " + pluginID, Run: func(ctx context.Context) error {
			// A folder name with a space, as in C:\Users\First Last.
			claudeCfg = filepath.Join(e.work, "win claude", "config")
			project = filepath.Join(e.work, "win project")
			for _, d := range []string{claudeCfg, project} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			for _, args := range [][]string{{"plugin", "marketplace", "add", winPath(e.release)}, {"plugin", "install", pluginID}} {
				r := e.wine.run(ctx, project, 5*time.Minute, []string{"CLAUDE_CONFIG_DIR=" + winPath(claudeCfg)}, append([]string{claudeExe}, args...)...)
				if err := r.err(); err != nil {
					return fmt.Errorf("claude.exe %s: %w", strings.Join(args, " "), err)
				}
			}
			return nil
		}},
		{Name: "the installed plugin is claude/ of the release, byte for byte", Run: func(context.Context) error {
			return sameTree(claudeInstalled(), filepath.Join(e.release, release.ClaudeDir), false)
		}},
		{Name: "session (PowerShell mode: no Git Bash): PowerShell format C:, env_inspect", Run: func(ctx context.Context) error {
			sc := newScript(
				step{Tool: "PowerShell", Input: map[string]any{"command": "format C:", "description": "format the system drive"}},
				step{Tool: claudePrefix + "env_inspect", Input: map[string]any{}},
			)
			var err error
			tr, err = e.runClaude(ctx, sc, func(ctx context.Context, env []string, args ...string) receipt {
				return e.wine.run(ctx, project, 5*time.Minute, append(env, "CLAUDE_CONFIG_DIR="+winPath(claudeCfg)), append([]string{claudeExe}, args...)...)
			}, []string{claudePrefix + "env_inspect", "PowerShell"})
			return err
		}},
		{Name: "PreToolUse (exec form, wda-hook.exe) denies PowerShell format C:", Independent: true, Run: func(context.Context) error {
			return tr.deniedWith("PowerShell", forbiddenText)
		}},
		{Name: "env_inspect answers from wda.exe", Independent: true, Run: func(context.Context) error {
			return envInspectAnswered(tr.result(claudePrefix+"env_inspect"), "Windows")
		}},
		{Name: "nothing was written inside the installed plugin folder", Independent: true, Run: func(context.Context) error {
			return sameTree(claudeInstalled(), filepath.Join(e.release, release.ClaudeDir), false)
		}},
		{Name: "Codex for Windows: plugin marketplace add dist/release; plugin add " + pluginID, Run: func(ctx context.Context) error {
			codexHome = filepath.Join(e.work, "win codex", "codex home")
			if err := os.MkdirAll(codexHome, 0o755); err != nil {
				return err
			}
			for _, args := range [][]string{{"plugin", "marketplace", "add", winPath(e.release), "--json"}, {"plugin", "add", pluginID, "--json"}} {
				r := e.wine.run(ctx, project, 5*time.Minute, []string{"CODEX_HOME=" + winPath(codexHome)}, append([]string{codexExe}, args...)...)
				if err := r.err(); err != nil {
					return fmt.Errorf("codex.exe %s: %w", strings.Join(args, " "), err)
				}
			}
			installedCodex = filepath.Join(codexHome, "plugins", "cache", marketplaceName, pluginName, e.manifest.Version)
			return sameTree(installedCodex, filepath.Join(e.release, release.CodexDir), false)
		}},
		{Name: "mcp list: ./bin/wda resolves to bin\\wda.exe (windows/amd64, the release's bytes), which runs", Run: func(ctx context.Context) error {
			r := e.wine.run(ctx, project, 2*time.Minute, []string{"CODEX_HOME=" + winPath(codexHome)}, codexExe, "mcp", "list", "--json")
			if err := r.err(); err != nil {
				return err
			}
			srv, err := parseMCPList(r.Stdout)
			if err != nil {
				return err
			}
			return e.resolvesToWdaExe(ctx, srv, installedCodex, project)
		}},
		{Name: "PreToolUse commandWindows under cmd.exe (plugin root with spaces) denies format C:", Independent: true, Run: func(ctx context.Context) error {
			return e.codexCommandWindows(ctx, installedCodex, codexHome, project)
		}},
	}}
}

// resolvesToWdaExe checks the server Codex lists the way Codex's resolver (which_in
// against the server's cwd) finds it on Windows: the extension-less bin\wda is not a
// Windows executable, so bin\wda.exe is chosen; it must be the release's windows/amd64
// build, and it must run.
func (e *Env) resolvesToWdaExe(ctx context.Context, srv *codexMCPServer, installed, project string) error {
	t := srv.Transport
	cwd, err := linuxPath(t.Cwd)
	if err != nil {
		return err
	}
	if t.Command != "./bin/wda" || cwd != installed || !slices.Equal(t.EnvVars, gen.CodexEnvVars()) {
		return fmt.Errorf("server %+v, want ./bin/wda in %s with env_vars %v", t, installed, gen.CodexEnvVars())
	}
	plain := filepath.Join(cwd, "bin", "wda")
	if f, err := pe.Open(plain); err == nil {
		_ = f.Close() // read-only
		return fmt.Errorf("%s is a Windows executable: Codex would start it instead of wda.exe", plain)
	}
	exePath := filepath.Join(cwd, "bin", "wda.exe")
	f, err := pe.Open(exePath)
	if err != nil {
		return fmt.Errorf("%s: %w", exePath, err)
	}
	machine := f.Machine
	_ = f.Close() // read-only
	if machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		return fmt.Errorf("%s is for machine %#x, want AMD64", exePath, machine)
	}
	if same, err := sameFile(exePath, filepath.Join(e.release, release.CodexDir, "bin", "wda.exe")); err != nil || !same {
		return fmt.Errorf("%s is not the release's bin/wda.exe (%v)", exePath, err)
	}
	r := e.wine.run(ctx, project, time.Minute, nil, winPath(exePath), "version")
	if err := r.err(); err != nil {
		return err
	}
	if want := e.manifest.Version + " (commit " + e.manifest.SourceCommit; !strings.Contains(r.Stdout, want) {
		return fmt.Errorf("wda.exe version says %q, want %q…", strings.TrimSpace(r.Stdout), want)
	}
	return nil
}

// codexCommandWindows runs the installed PreToolUse hook's commandWindows the way
// Codex runs it without a PowerShell, `cmd.exe /C <line>` (Codex has replaced
// ${PLUGIN_ROOT} first), with a PreToolUse event for `format C:` on its stdin, and
// expects a deny. PowerShell, the usual hook shell on Windows, does not exist under
// Wine; that half stays unproven here (docs/hosts/codex.md).
func (e *Env) codexCommandWindows(ctx context.Context, installed, codexHome, project string) error {
	raw, err := os.ReadFile(filepath.Join(installed, "hooks", "codex-hooks.json"))
	if err != nil {
		return err
	}
	var hooks struct {
		Hooks map[string][]struct {
			Hooks []struct {
				CommandWindows string `json:"commandWindows"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &hooks); err != nil {
		return err
	}
	pre := hooks.Hooks["PreToolUse"]
	if len(pre) == 0 || len(pre[0].Hooks) == 0 || pre[0].Hooks[0].CommandWindows == "" {
		return errors.New("no PreToolUse commandWindows")
	}
	line := strings.ReplaceAll(pre[0].Hooks[0].CommandWindows, "${PLUGIN_ROOT}", winPath(installed))
	event := filepath.Join(e.work, "codex-pre-tool-use.json")
	b, _ := json.Marshal(map[string]any{"session_id": "hostcheck", "turn_id": "t1", "cwd": winPath(project),
		"hook_event_name": "PreToolUse", "model": "scripted-model", "permission_mode": "default",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "format C:"}, "tool_use_id": "call_hostcheck"})
	if err := os.WriteFile(event, b, 0o644); err != nil {
		return err
	}
	// The process runner gives every child the null device as stdin, so the event
	// comes from a redirection on the line itself (it applies to the last command,
	// wda-hook.exe).
	r := e.wine.run(ctx, project, 2*time.Minute, []string{"CODEX_HOME=" + winPath(codexHome)}, "cmd", "/d", "/c", line+" < "+winPath(event))
	if err := r.err(); err != nil {
		return err
	}
	var out struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
			Reason             string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &out); err != nil || out.HookSpecificOutput.PermissionDecision != "deny" ||
		!strings.Contains(out.HookSpecificOutput.Reason, forbiddenText) {
		return fmt.Errorf("the hook answered %q (%v)", tail(r.output()), err)
	}
	return nil
}
