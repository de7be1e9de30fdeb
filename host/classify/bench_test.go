package classify

import "testing"

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
