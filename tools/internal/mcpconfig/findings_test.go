package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// planted is the secret every positive case plants; it must never appear in any output.
const planted = "SECRET-7f3a9c-planted"

// noPerms is a checker that finds every file private, so a case sees only its own rule.
type noPerms struct{}

func (noPerms) othersCanWrite(string, bool) (bool, bool) { return false, true }

// auditFiles writes files (name -> content, $S replaced by the planted secret) into a
// temporary folder, audits them in name order as host files, and returns the findings
// with the folder replaced by $DIR, and the whole marshalled result.
func auditFiles(t *testing.T, perms permChecker, files ...[2]string) ([]Finding, string) {
	t.Helper()
	dir := testkit.TempDir(t)
	var sources []Source
	for _, f := range files {
		p := filepath.Join(dir, f[0])
		testkit.WriteFile(t, p, strings.ReplaceAll(f[1], "$S", planted))
		sources = append(sources, Source{Path: p, TOML: strings.HasSuffix(f[0], ".toml")})
	}
	configs, fs := audit(sources, perms)
	b, err := json.Marshal(map[string]any{"configs": configs, "findings": fs})
	if err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		fs[i].File = strings.Replace(fs[i].File, dir, "$DIR", 1)
		fs[i].Detail = strings.ReplaceAll(fs[i].Detail, dir, "$DIR")
	}
	return fs, string(b)
}

func fnd(rule, sev, server string, line int, detail string) Finding {
	return Finding{Rule: rule, Severity: sev, Server: server, File: filepath.Join("$DIR", "a.json"), Line: line, Detail: detail}
}

// TestFindingsPerRule: one case per rule (and per way a rule triggers), each with the
// planted secret somewhere in the config; the findings are exact and the planted value
// appears nowhere in the marshalled result.
func TestFindingsPerRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		json string
		want []Finding
	}{
		{"secret env by name", `{"mcpServers":{
  "gh": {"command": "gh-mcp@1.0.0",
    "env": {"GITHUB_TOKEN": "$S"}}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "gh", 3, "env GITHUB_TOKEN holds a literal that looks like a secret")}},
		{"secret env by prefix", `{"mcpServers":{"gh":{"command":"x","env":{"HARMLESS":"ghp_$S"}}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "gh", 1, "env HARMLESS holds a literal that looks like a secret")}},
		{"secret header", `{"mcpServers":{"r":{"url":"https://mcp.example.test",
  "headers":{"Authorization":"Bearer $S"}}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "r", 2, "header Authorization holds a literal that looks like a secret")}},
		{"secret arg flag value", `{"mcpServers":{"s":{"command":"srv","args":["--api-key",
  "$S"]}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 2, "args[1] holds a literal that looks like a secret")}},
		{"secret arg assignment", `{"mcpServers":{"s":{"command":"srv","args":["--token=$S"]}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 1, "args[0] holds a literal that looks like a secret")}},
		{"secret arg header", `{"mcpServers":{"s":{"command":"mcp-remote@2.0.0","args":["--header","Authorization: Bearer sk-$S-abc"]}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 1, "args[1] holds a literal that looks like a secret")}},
		{"secret in command line", `{"mcpServers":{"s":{"command":"srv --key xoxb-$S"}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 1, "command holds a literal that looks like a secret")}},
		{"secret url password", `{"mcpServers":{"s":{"url":"https://user:$S@mcp.example.test/"}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 1, "url carries a password")}},
		{"secret url query", `{"mcpServers":{"s":{"url":"https://mcp.example.test/?api_key=$S"}}}`,
			[]Finding{fnd(RuleSecretLiteral, SeverityHigh, "s", 1, "url query parameter api_key holds a literal that looks like a secret")}},
		{"unpinned npx -y", `{"mcpServers":{"n":{"command":"npx","args":["-y",
  "@acme/server"],"env":{"NOTE":"$S"}}}}`,
			[]Finding{fnd(RuleUnpinnedLauncher, SeverityMedium, "n", 2, "npx runs a package without a pinned version (no version, or latest or a range)")}},
		{"unpinned latest", `{"mcpServers":{"n":{"command":"npx.cmd","args":["-y","server@latest","$S"]}}}`,
			[]Finding{fnd(RuleUnpinnedLauncher, SeverityMedium, "n", 1, "npx runs a package without a pinned version (no version, or latest or a range)")}},
		{"unpinned uvx", `{"mcpServers":{"u":{"command":"uvx","args":["mcp-server-fetch","$S"]}}}`,
			[]Finding{fnd(RuleUnpinnedLauncher, SeverityMedium, "u", 1, "uvx runs a package without a pinned version (no version, or latest or a range)")}},
		{"unpinned pipx run", `{"mcpServers":{"p":{"command":"pipx","args":["run","--spec","mcp-tool>=1","tool","$S"]}}}`,
			[]Finding{fnd(RuleUnpinnedLauncher, SeverityMedium, "p", 1, "pipx run runs a package without a pinned version (no version, or latest or a range)")}},
		{"unpinned dnx", `{"mcpServers":{"d":{"command":"dnx","args":["Acme.Mcp","--yes","$S"]}}}`,
			[]Finding{fnd(RuleUnpinnedLauncher, SeverityMedium, "d", 1, "dnx runs a package without a pinned version (no version, or latest or a range)")}},
		{"filesystem drive root", `{"mcpServers":{"filesystem":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem@2025.1.0",
  "C:\\"],"env":{"X":"$S"}}}}`,
			[]Finding{fnd(RuleBroadRoot, SeverityHigh, "filesystem", 2, "args[2] gives the filesystem server a drive root")}},
		{"filesystem unix root", `{"mcpServers":{"fs":{"command":"mcp-server-filesystem","args":["/","\\","D:/","$S"]}}}`,
			[]Finding{
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[0] gives the filesystem server a file system root"),
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[1] gives the filesystem server a file system root"),
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[2] gives the filesystem server a drive root"),
			}},
		{"filesystem home", `{"mcpServers":{"fs":{"command":"mcp-server-filesystem","args":["%USERPROFILE%","~","/home/ann","C:/Users/ann/","$S"]}}}`,
			[]Finding{
				fnd(RuleBroadRoot, SeverityMedium, "fs", 1, "args[0] gives the filesystem server a whole home folder"),
				fnd(RuleBroadRoot, SeverityMedium, "fs", 1, "args[1] gives the filesystem server a whole home folder"),
				fnd(RuleBroadRoot, SeverityMedium, "fs", 1, "args[2] gives the filesystem server a whole home folder"),
				fnd(RuleBroadRoot, SeverityMedium, "fs", 1, "args[3] gives the filesystem server a whole home folder"),
			}},
		{"filesystem system and credentials", `{"mcpServers":{"fs":{"command":"mcp-server-filesystem","args":["C:\\Windows\\System32","/etc","~/.ssh","$S"]}}}`,
			[]Finding{
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[0] gives the filesystem server a system folder"),
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[1] gives the filesystem server a system folder"),
				fnd(RuleBroadRoot, SeverityHigh, "fs", 1, "args[2] gives the filesystem server a credential or settings folder in a home folder"),
			}},
		{"plain http url", `{"mcpServers":{"h":{"type":"http","url":"http://mcp.example.test/$S"}}}`,
			[]Finding{fnd(RulePlainHTTP, SeverityMedium, "h", 1, "url uses plain http:// to a host that is not loopback")}},
		{"plain http argument", `{"mcpServers":{"h":{"command":"mcp-remote","args":["http://$S.example.test/sse"]}}}`,
			[]Finding{fnd(RulePlainHTTP, SeverityMedium, "h", 1, "args[0] uses plain http:// to a host that is not loopback")}},
		{"tls off env", `{"mcpServers":{"t":{"command":"srv","env":{"NODE_TLS_REJECT_UNAUTHORIZED":"0","NOTE":"$S"}}}}`,
			[]Finding{fnd(RuleTLSOff, SeverityHigh, "t", 1, "env NODE_TLS_REJECT_UNAUTHORIZED switches TLS certificate checks off")}},
		{"tls off flag", `{"mcpServers":{"t":{"command":"srv","args":["--insecure","$S"]}}}`,
			[]Finding{fnd(RuleTLSOff, SeverityHigh, "t", 1, "args[0] switches TLS certificate checks off")}},
		{"shell cmd /c", `{"mcpServers":{"w":{"command":"cmd","args":["/c","run-server","$S"]}}}`,
			[]Finding{fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through cmd /c, which parses its command line again")}},
		{"shell cmd.exe /c inner npx", `{"mcpServers":{"w":{"command":"C:\\Windows\\System32\\cmd.exe","args":["/C","npx -y @acme/server $S"]}}}`,
			[]Finding{
				fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through cmd /c, which parses its command line again"),
				fnd(RuleUnpinnedLauncher, SeverityMedium, "w", 1, "npx runs a package without a pinned version (no version, or latest or a range)"),
			}},
		{"shell powershell -Command", `{"mcpServers":{"w":{"command":"powershell.exe","args":["-NoProfile","-ExecutionPolicy","Bypass","-Command","Start-Server $S"]}}}`,
			[]Finding{fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through powershell -Command, which parses its command line again")}},
		{"shell pwsh -c", `{"mcpServers":{"w":{"command":"pwsh","args":["-c","srv $S"]}}}`,
			[]Finding{fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through pwsh -Command, which parses its command line again")}},
		{"shell bash -lc secret inside", `{"mcpServers":{"w":{"command":"/bin/bash","args":["-lc","API_TOKEN=$S exec srv"]}}}`,
			[]Finding{
				fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through bash -c, which parses its command line again"),
				fnd(RuleSecretLiteral, SeverityHigh, "w", 1, "args[1] holds a literal that looks like a secret"),
			}},
		{"shell sh -c", `{"mcpServers":{"w":{"command":"sh","args":["-c","srv"],"env":{"N":"$S"}}}}`,
			[]Finding{fnd(RuleShellWrapper, SeverityMedium, "w", 1, "server starts through sh -c, which parses its command line again")}},
		{"shadowed in one file", `{"mcpServers":{
  "dup": {"command": "a", "env": {"N": "$S"}},
  "dup": {"command": "b"}}}`,
			[]Finding{fnd(RuleShadowedServer, SeverityMedium, "dup", 3, "server name is written more than once in this file; only the last entry takes effect")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, raw := auditFiles(t, noPerms{}, [2]string{"a.json", tt.json})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got)\n%s", diff)
			}
			if strings.Contains(raw, planted) || strings.Contains(raw, "7f3a9c") {
				t.Errorf("the planted value appears in the result: %s", raw)
			}
		})
	}
}

// TestFindingsNegatives: placeholders, pinned versions, loopback http, project-relative
// roots and ordinary settings give no finding.
func TestFindingsNegatives(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, json string }{
		{"env references", `{"mcpServers":{"s":{"command":"srv","env":{"GITHUB_TOKEN":"${GITHUB_TOKEN}","API_KEY":"$env:API_KEY",
			"PASSWORD":"%PASSWORD%","SECRET":"","CLIENT_SECRET":"$CLIENT_SECRET","GH_TOKEN":"<your-token>","TOKEN_FILE":"/run/secrets/token",
			"OPENAI_API_KEY":"${OPENAI_API_KEY:-}","NODE_TLS_REJECT_UNAUTHORIZED":"1","LOG_LEVEL":"debug"}}}}`},
		{"header references", `{"mcpServers":{"r":{"url":"https://mcp.example.test","headers":{"Authorization":"Bearer ${TOKEN}","X-Api-Key":"{env:KEY}","Accept":"text/event-stream"}}}}`},
		{"pinned npx", `{"mcpServers":{"n":{"command":"npx","args":["-y","@acme/server@1.2.3"]},"m":{"command":"npx","args":["-y","plain@0.4.0","--port","8080"]}}}`},
		{"pinned uvx and pipx and dnx", `{"mcpServers":{"u":{"command":"uvx","args":["mcp-server-fetch==2025.4.7"]},"v":{"command":"uvx","args":["--from","pkg@1.0","tool"]},
			"p":{"command":"pipx","args":["run","pkg==1.0"]},"d":{"command":"dnx","args":["Acme.Mcp@1.0.0","--yes"]},"e":{"command":"dnx","args":["Acme.Mcp","--version","1.0.0"]}}}`},
		{"local packages", `{"mcpServers":{"l":{"command":"npx","args":["./server.js"]},"k":{"command":"uvx","args":["--from","git+https://example.test/x","tool"]}}}`},
		{"loopback http", `{"mcpServers":{"a":{"url":"http://localhost:3000/mcp"},"b":{"url":"http://127.0.0.1:8080"},"c":{"url":"http://[::1]:9/"},"z":{"url":"http://0.0.0.0:3000"},"y":{"url":"http://${MCP_HOST}/mcp"},"d":{"url":"https://mcp.example.test"}}}`},
		{"project-relative roots", `{"mcpServers":{"filesystem":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem@2025.1.0",".","./src","docs","${workspaceFolder}","/home/ann/projects/app","C:\\src\\app"]}}}`},
		{"no shell", `{"mcpServers":{"s":{"command":"node","args":["server.js","-c","config.json"]},"p":{"command":"pwsh","args":["-File","server.ps1"]},"b":{"command":"bash","args":["run.sh"]}}}`},
		{"secret-like names with harmless values", `{"mcpServers":{"s":{"command":"srv","args":["--token-file","/tmp/t","--verbose"],"env":{"USE_TOKEN":"true","TOKEN_URL":"https://auth.example.test"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := auditFiles(t, noPerms{}, [2]string{"a.json", tt.json})
			if diff := cmp.Diff([]Finding{}, got); diff != "" {
				t.Errorf("findings (-want +got)\n%s", diff)
			}
		})
	}
}

// TestFindingsShadowedAcrossFiles: a name in two files is a finding in each, naming the
// other file; a Codex TOML config has no line numbers, so its findings carry none.
func TestFindingsShadowedAcrossFiles(t *testing.T) {
	t.Parallel()
	got, raw := auditFiles(t, noPerms{},
		[2]string{"a.json", `{"mcpServers":{"github":{"command":"gh-mcp","env":{"N":"$S"}},"solo":{"command":"x"}}}`},
		[2]string{"b.toml", "[mcp_servers.github]\ncommand = \"gh-mcp\"\n[mcp_servers.github.env]\nGITHUB_TOKEN = \"$S\"\n"})
	a, b := filepath.Join("$DIR", "a.json"), filepath.Join("$DIR", "b.toml")
	want := []Finding{
		{Rule: RuleShadowedServer, Severity: SeverityMedium, Server: "github", File: a, Line: 1,
			Detail: "server name is also configured in " + b + "; which one a host runs depends on its scope order"},
		{Rule: RuleShadowedServer, Severity: SeverityMedium, Server: "github", File: b,
			Detail: "server name is also configured in " + a + "; which one a host runs depends on its scope order"},
		{Rule: RuleSecretLiteral, Severity: SeverityHigh, Server: "github", File: b,
			Detail: "env GITHUB_TOKEN holds a literal that looks like a secret"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got)\n%s", diff)
	}
	if strings.Contains(raw, planted) {
		t.Errorf("the planted value appears in the result: %s", raw)
	}
}

// TestFindingsWritableByOthers: on Unix a config file with group or other write
// permission is a finding of its own, through the platform's checker; a private file
// is not. Windows reads ACLs instead (TestPlatformPermsWindows).
func TestFindingsWritableByOthers(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("this test sets Unix mode bits, which say nothing on Windows; TestPlatformPermsWindows sets ACLs")
	}
	dir := testkit.TempDir(t)
	open, private := filepath.Join(dir, "open.json"), filepath.Join(dir, "private.json")
	for _, p := range []string{open, private} {
		testkit.WriteFile(t, p, `{"mcpServers":{"s":{"command":"srv","env":{"N":"`+planted+`"}}}}`)
	}
	if err := os.Chmod(open, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	_, got := audit([]Source{{Path: open}, {Path: private}}, defaultPerms)
	want := []Finding{
		{Rule: RuleWritableByOthers, Severity: SeverityHigh, File: open,
			Detail: "config file can be changed by users other than its owner" + writableHow},
		{Rule: RuleShadowedServer, Severity: SeverityMedium, Server: "s", File: open,
			Line: 1, Detail: "server name is also configured in " + private + "; which one a host runs depends on its scope order"},
		{Rule: RuleShadowedServer, Severity: SeverityMedium, Server: "s", File: private,
			Line: 1, Detail: "server name is also configured in " + open + "; which one a host runs depends on its scope order"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got)\n%s", diff)
	}
}

// TestReadAllUnchanged: ReadAll (ecosystem_scan's reader) gives the same summaries as
// Audit and runs no findings pass.
func TestReadAllUnchanged(t *testing.T) {
	t.Parallel()
	dir := testkit.TempDir(t)
	p := filepath.Join(dir, "a.json")
	testkit.WriteFile(t, p, `{"mcpServers":{"s":{"command":"npx","args":["-y","x"]}}}`)
	configs, fs := Audit([]Source{{Path: p}})
	if len(fs) == 0 {
		t.Fatalf("Audit found nothing")
	}
	if diff := cmp.Diff(configs, ReadAll([]Source{{Path: p}}), cmp.AllowUnexported(Server{})); diff != "" {
		t.Errorf("ReadAll differs from Audit's summaries (-audit +readall)\n%s", diff)
	}
}

// BenchmarkAuditLarge audits a config near the 2 MiB read limit made of many small
// servers: the line index and the findings pass stay linear in the file's size.
func BenchmarkAuditLarge(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "big.json")
	var sb strings.Builder
	sb.WriteString(`{"mcpServers":{`)
	for i := 0; sb.Len() < 1<<20; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		sb.WriteString(`"s` + strconv.Itoa(i) + `":{"command":"npx","args":["-y","pkg","--token","abcdefgh1234"],"env":{"API_KEY":"abcdefgh1234"}}`)
	}
	sb.WriteString("}}")
	if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := Audit([]Source{{Path: p}}); len(fs) == 0 {
			b.Fatal("no findings")
		}
	}
}
