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

// FuzzShellDifferential holds the classifier to the old regular-expression classifier
// (oracle_test.go): it may only tighten. For every input the new class ranks at least
// as high as the old (read-only < reversible < approval-required = checkpoint <
// forbidden), so everything the old one forbade stays forbidden; Explain agrees with
// Shell and always gives a reason. The seed corpus holds the disguise table.
func FuzzShellDifferential(f *testing.F) {
	for _, c := range shellCases {
		f.Add(c.cmd)
	}
	for _, c := range holes {
		f.Add(c)
	}
	for _, c := range understood {
		f.Add(c.cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 8<<10 {
			// The oracle's regular expressions cost ~0.2 µs a byte; minimising a long
			// input then takes minutes. Long inputs are TestCommandLimit's.
			t.Skip()
		}
		old := oracleShell(cmd)
		got, why := Explain(cmd)
		if rank(got) < rank(old) {
			t.Fatalf("Explain(%q) = %s (%s), below the old classifier's %s", cmd, got, why, old)
		}
		if why == "" {
			t.Fatalf("Explain(%q) = %s without a reason", cmd, got)
		}
		if s := Shell(cmd); s != got {
			t.Fatalf("Shell(%q) = %s, Explain %s", cmd, s, got)
		}
	})
}
