package classify

import (
	"strings"
	"testing"
)

// benchCommands are the shapes a hook sees most: short read-only and reversible
// commands, an approval one, a forbidden one and a long PowerShell pipeline.
var benchCommands = []struct{ name, cmd string }{
	{"git-status", "git status --short"},
	{"get-childitem", `Get-ChildItem C:\src\project -Recurse -Filter *.cs`},
	{"go-test", "go test -race -count=1 ./internal/..."},
	{"npm-install", "npm install left-pad"},
	{"forbidden", "format C: /q"},
	{"pipeline", `Get-ChildItem -Path C:\src -Recurse | Where-Object { $_.Length -gt 1MB } | Sort-Object Length -Descending | Select-Object -First 20 FullName, Length`},
}

// BenchmarkShell measures one classification per command shape. The first call in a
// process also pays any lazy set-up, which b.Loop's warm-up hides; the hook process
// pays it once per event.
func BenchmarkShell(b *testing.B) {
	for _, c := range benchCommands {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Shell(c.cmd)
			}
		})
	}
}

// BenchmarkExplainLong: a 60 KB here-document of ordinary source text (under the
// limit: every view, the base64 finder and the word splitter run), the same text at
// 1 MiB (over the limit: one raw pass), and the worst repetitive input found.
func BenchmarkExplainLong(b *testing.B) {
	src := strings.Repeat("func (t *tool) check(display string, args []word) (tools.Class, string) {\n\tif t.sub != \"\" {\n", 1<<20/96)
	for _, c := range []struct{ name, cmd string }{
		{"source-60KB", "cat > x.go <<'EOF'\n" + src[:60<<10] + "\nEOF"},
		{"source-1MiB", "cat > x.go <<'EOF'\n" + src + "\nEOF"},
		{"rm-repeated-1MiB", strings.Repeat("rm ", 1<<20/3)},
		{"rm-repeated-60KB", strings.Repeat("rm ", 60<<10/3)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.cmd)))
			for b.Loop() {
				Explain(c.cmd)
			}
		})
	}
}
