package packageinstall

import (
	"slices"
	"strings"
	"testing"
)

// FuzzVersion: a version is accepted only when every manager gets it as one argument
// that cannot be read as an option or carry argument syntax, and the argv is the
// template's with the version in its one place.
func FuzzVersion(f *testing.F) {
	for _, s := range []string{"1.0", "2.45.1.windows.1", "1.0.0-rc.1+build.5", "-1", "1 0", "1..2", "1.2.3.4.5", "v1", "1@2", "é", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, source := range []string{"winget", "chocolatey", "scoop"} {
			for _, action := range []string{ActionInstall, ActionUpgrade, ActionUninstall} {
				if checkVersion(source, action, v) != "" {
					continue
				}
				argv := ActionArgv(source, action, "Git.Git", v)
				if v == "" {
					if !slices.Equal(argv, ActionArgv(source, action, "Git.Git", "")) {
						t.Fatalf("no version changed the argv: %q", argv)
					}
					continue
				}
				if action == ActionUninstall || len(v) > MaxVersionLength || strings.HasPrefix(v, "-") ||
					strings.ContainsAny(v, " \t\r\n\"'`$;&|<>@/\\%") {
					t.Fatalf("%s %s accepted %q", source, action, v)
				}
				// Taking the version out gives the argv without one: it sits in exactly
				// one place, whole.
				var rest []string
				found := 0
				for i := 0; i < len(argv); i++ {
					switch a := argv[i]; {
					case a == "--version" && i+1 < len(argv) && argv[i+1] == v:
						found++
						i++
					case a == "--version="+v:
						found++
					case a == "Git.Git@"+v:
						found++
						rest = append(rest, "Git.Git")
					default:
						rest = append(rest, a)
					}
				}
				if found != 1 || !slices.Equal(rest, ActionArgv(source, action, "Git.Git", "")) {
					t.Fatalf("%s %s: version %q is not in its one place: %q", source, action, v, argv)
				}
				if source == "chocolatey" && !nugetVersion(v) {
					t.Fatalf("chocolatey accepted %q, not a NuGet version", v)
				}
			}
		}
	})
}
