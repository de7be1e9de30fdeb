package mcpconfig

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools/internal/tomlread"
)

// fixedText is every phrase a finding is written from besides key names, server names
// and the file: a value found in the output must come from here or from a key.
const fixedText = secretDetail + " env header bearer_token command args[] url serverUrl httpUrl carries a password" +
	" query parameter switches TLS certificate checks off uses plain http:// to a host that is not loopback" +
	" runs a package without a pinned version (no version, or latest or a range) npx bunx pnpx npm exec pnpm dlx yarn dlx" +
	" uvx uv tool run pipx run dnx dotnet tool exec server starts through cmd /c /k /r powershell pwsh -Command -EncodedCommand" +
	" bash sh zsh dash ksh ash fish -c, which parses its command line again gives the filesystem server a file system root" +
	" a drive root a whole home folder a credential or settings folder in a home folder the folder of every user's home" +
	" a system folder server name is written more than once in this file; only the last entry takes effect " +
	placeholderKeyMention + " " + RuleSecretLiteral + RuleUnpinnedLauncher + RuleBroadRoot + RulePlainHTTP + RuleTLSOff +
	RuleShellWrapper + RuleShadowedServer + RuleWritableByOthers + SeverityHigh + SeverityMedium + SeverityLow + " FILE"

var argMention = regexp.MustCompile(`args\[\d+\]`)

// FuzzFindings runs the findings pass over arbitrary config bytes (JSON or a Codex
// TOML): it never panics, every line it gives lies in the file, and no value of the
// config (a string of 8 or more characters without white space that is neither a key
// nor part of the fixed wording) appears in the findings.
func FuzzFindings(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"npx","args":["-y","pkg","--token","ghp_0123456789abcdefghij0123"],"env":{"GITHUB_TOKEN":"literalvalue1"}}}}`), false)
	f.Add([]byte(`{"mcpServers":{"fs":{"command":"cmd","args":["/c","npx -y @x/server-filesystem C:\\"]},"h":{"url":"http://user:pw12345678@host.test/?api_key=abcdefgh12"}}}`), false)
	f.Add([]byte(`{"mcpServers":{"d":{"command":"a"},"d":{"command":"b","headers":{"Authorization":"Bearer abcdefgh1234"}}}}`), false)
	f.Add([]byte("[mcp_servers.t]\ncommand = \"bash\"\nargs = [\"-c\", \"TOKEN=abcdefgh1234 uvx tool\"]\n[mcp_servers.t.env]\nNODE_TLS_REJECT_UNAUTHORIZED = \"0\"\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, isTOML bool) {
		p := parsed{key: "mcpServers", read: true}
		var err error
		if isTOML {
			p.key = "mcp_servers"
			p.doc, err = tomlread.Parse(data)
		} else {
			p.doc, err = guard.DecodeObject(data)
			if err == nil {
				p.lines = jsonLines(data, p.key)
			}
		}
		if err != nil {
			return
		}
		p.cfg = Summarize("FILE", p.doc, p.key)
		fs := findings([]parsed{p})
		b, err := json.Marshal(fs)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(string(data), "\n") + 1
		var keys []string
		var values []string
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				values = append(values, x)
			case map[string]any:
				for k, e := range x {
					keys = append(keys, k)
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(p.doc)
		allowed := fixedText + "\x00" + strings.Join(keys, "\x00")
		out := argMention.ReplaceAllString(string(b), "args[]")
		for _, fd := range fs {
			if fd.Line < 0 || fd.Line > lines {
				t.Fatalf("line %d outside a file of %d lines: %s", fd.Line, lines, b)
			}
			if fd.File != "FILE" || fd.Rule == "" || fd.Severity == "" || fd.Detail == "" {
				t.Fatalf("incomplete finding %+v", fd)
			}
		}
		for _, v := range values {
			if len(v) < 8 || strings.ContainsAny(v, " \t\r\n\"\\") || strings.Contains(allowed, v) {
				continue
			}
			if strings.Contains(out, v) {
				t.Fatalf("a config value appears in the findings: %q in %s", v, b)
			}
		}
	})
}
