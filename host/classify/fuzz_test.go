package classify

import (
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// FuzzShellClassify: any command containing dynamic shell syntax is never read-only or
// reversible, and every command gets one of the five classes. The fuzzer also splices
// each dynamic token after a read-only or reversible prefix, the shape an attacker uses.
func FuzzShellClassify(f *testing.F) {
	for _, c := range shellCases {
		f.Add(c.cmd, uint8(0))
	}
	f.Fuzz(func(t *testing.T, cmd string, k uint8) {
		check := func(s string) {
			c := Shell(s)
			if _, ok := tools.ParseClass(string(c)); !ok {
				t.Fatalf("Shell(%q) = %q, not a class", s, c)
			}
			if Dynamic(s) && (c == tools.ReadOnly || c == tools.Reversible) {
				t.Fatalf("Shell(%q) = %s despite dynamic syntax", s, c)
			}
		}
		check(cmd)
		tokens := []string{";", "\r", "\n", "&&", "||", "|", ">", "<", "$(", "@(", "`", "&"}
		prefixes := []string{"git status ", "Get-ChildItem ", "pytest ", "dotnet build ", "python --version"}
		tok := tokens[int(k)%len(tokens)]
		pre := prefixes[int(k/16)%len(prefixes)]
		spliced := pre + cmd + tok + cmd
		check(spliced)
		if c := Shell(spliced); c == tools.ReadOnly || c == tools.Reversible {
			t.Fatalf("spliced %q classified %s", spliced, c)
		}
		if !strings.Contains(spliced, tok) {
			t.Fatal("splice lost its token")
		}
	})
}
