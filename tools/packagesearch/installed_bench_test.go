package packagesearch

import (
	"fmt"
	"strings"
	"testing"
)

// installedWorst are 1 MiB installed lists (ListStdoutLimit) of each layout, built to be
// as hard as the parsers allow: rows the width of the table, and older Scoop's update
// blocks whose held entries repeat every update.
func installedWorst() map[string]struct {
	source   string
	upgrades bool
	text     string
} {
	fill := func(line func(i int) string) string {
		var b strings.Builder
		for i := 0; b.Len() < ListStdoutLimit; i++ {
			b.WriteString(line(i))
		}
		return b.String()[:ListStdoutLimit]
	}
	winget := "Name                                     Id                                       Version             Available Source\n" +
		strings.Repeat("-", 115) + "\n" + fill(func(i int) string {
		return fmt.Sprintf("%-40s %-40s %-19s %-9s %s\n", fmt.Sprintf("Package %d", i), fmt.Sprintf("Contoso.Package%d", i), "1.0.0", "1.0.1", "winget")
	})
	held := fill(func(i int) string { return fmt.Sprintf("    app%d: 1.0 -> 1.1\n", i%20000) })
	return map[string]struct {
		source   string
		upgrades bool
		text     string
	}{
		"winget":        {"winget", false, winget},
		"choco":         {"chocolatey", true, fill(func(i int) string { return fmt.Sprintf("package%d|1.0.0|1.0.1|false\n", i) })},
		"scoop_table":   {"scoop", false, "Name Version Source\n---- ------- ------\n" + fill(func(i int) string { return fmt.Sprintf("app%d 1.0 main\n", i) })},
		"scoop_updates": {"scoop", true, "Updates are available for:\n" + held + "These apps are outdated and on hold:\n" + held},
	}
}

// BenchmarkParseInstalledWorst: each installed-list parser on 1 MiB of its layout.
func BenchmarkParseInstalledWorst(b *testing.B) {
	for name, c := range installedWorst() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				parseInstalled(c.source, c.upgrades, c.text, "")
			}
		})
	}
}
