package main

import (
	"strings"
	"testing"
)

// TestPackageCommandsGolden: the package lifecycle commands' help and usage errors
// (issue 25 §1), on every OS.
func TestPackageCommandsGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
	}{
		{"upgrade-help", []string{"upgrade", "--help"}},
		{"uninstall-help", []string{"uninstall", "--help"}},
		{"list-help", []string{"list", "--help"}},
		{"install-empty-version", []string{"install", "Git.Git@", "--plan"}},
		{"install-version-twice", []string{"install", "Git.Git@2.45.1", "--version", "2.46.0", "--plan"}},
		{"uninstall-version-flag", []string{"uninstall", "Git.Git", "--version", "1.0"}},
		{"install-action-flag", []string{"install", "Git.Git", "--action", "uninstall"}},
		{"search-installed-flag", []string{"search", "git", "--installed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			r := f.run(t, noTTY, strings.NewReader(""), tc.args...)
			golden(t, tc.name, tc.args, r)
		})
	}
}

// TestPackageCommandArguments: each command sends its tool the action or listing it
// stands for, and ID@VERSION becomes package_id and version.
func TestPackageCommandArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cmd  string
		argv []string
		want map[string]any
	}{
		{"install", []string{"Git.Git"}, map[string]any{"package_id": "Git.Git", "action": "install"}},
		{"install", []string{"OpenJS.NodeJS.LTS@20.11.1", "--source", "winget"},
			map[string]any{"package_id": "OpenJS.NodeJS.LTS", "version": "20.11.1", "action": "install", "source": "winget"}},
		{"install", []string{"nodejs", "--version", "20.11.1", "--source", "scoop"},
			map[string]any{"package_id": "nodejs", "version": "20.11.1", "action": "install", "source": "scoop"}},
		{"upgrade", []string{"Git.Git"}, map[string]any{"package_id": "Git.Git", "action": "upgrade"}},
		{"upgrade", []string{"git@2.46.0", "--source", "chocolatey"},
			map[string]any{"package_id": "git", "version": "2.46.0", "action": "upgrade", "source": "chocolatey"}},
		{"uninstall", []string{"Python.Python.3.11"}, map[string]any{"package_id": "Python.Python.3.11", "action": "uninstall"}},
		{"list", nil, map[string]any{"installed": true}},
		{"list", []string{"--upgrades", "--source", "scoop"}, map[string]any{"installed": true, "upgrades": true, "source": "scoop"}},
		{"list", []string{"visual", "studio"}, map[string]any{"installed": true, "query": "visual studio"}},
	}
	for _, c := range cases {
		p, err := findToolCommand(c.cmd).parse(c.argv)
		if err != nil {
			t.Errorf("%s %v: %v", c.cmd, c.argv, err)
			continue
		}
		if d := diffAny(c.want, p.args); d != "" {
			t.Errorf("%s %v: arguments (-want +got):\n%s", c.cmd, c.argv, d)
		}
	}
}
