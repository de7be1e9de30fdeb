//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeWinget answers the lists with real WinGet tables (microsoft/winget-cli#3806 and
// Romanitho/Winget-AutoUpdate#283, as in tools/packagesearch/testdata/installed) and
// any other command by printing its arguments and leaving a mark next to itself, so a
// test sees whether it ran.
const fakeWinget = `#!/bin/sh
if [ "$1" = list ] && [ "$2" = --upgrade-available ]; then
cat <<'T'
Name                      Id                          Version      Available
-------------------------------------------------------------------------------
Adobe Acrobat DC (64-bit) Adobe.Acrobat.Reader.64-bit 22.001.20142 22.003.20310
2 upgrades available.

The following packages have an upgrade available, but require explicit targeting for upgrade:
Name                         Id              Version    Available
------------------------------------------------------------------
Teams Machine-Wide Installer Microsoft.Teams 1.5.0.8070 1.6.00.376
1 package(s) have version numbers that cannot be determined. Use --include-unknown to see all results.
T
exit 0
fi
if [ "$1" = list ]; then
cat <<'T'
Name                                           Id                                              Version          Source
-----------------------------------------------------------------------------------------------------------------------
Unigram—Telegram for Windows                   38833FF26BA1D.UnigramPreview_g9c9v27vpyspw      10.1.3.0
7-Zip 23.01 (x64)                              7zip.7zip                                       23.01            winget
Git                                            Git.Git                                         2.41.0.3         winget
T
exit 0
fi
echo "fake winget: $*"
touch "$(dirname "$0")/ran-winget"
`

// TestPackageCommandsRun: wda list, wda list --upgrades, and plan, confirm, run of
// wda upgrade, wda uninstall and wda install ID@VERSION through the real tools and
// pipeline, with a fake winget on PATH (issue 25 §1).
func TestPackageCommandsRun(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		winget bool
		ran    bool
	}{
		{"list-winget", []string{"list"}, true, false},
		{"list-filter", []string{"list", "git"}, true, false},
		{"list-upgrades", []string{"list", "--upgrades"}, true, false},
		{"list-unavailable", []string{"list", "--upgrades"}, false, false},
		{"upgrade-yes", []string{"upgrade", "Git.Git", "--yes"}, true, true},
		{"uninstall-yes", []string{"uninstall", "Git.Git", "--yes"}, true, true},
		{"install-version-plan", []string{"install", "Git.Git@2.45.1", "--plan"}, true, false},
		{"install-version-unavailable", []string{"install", "OpenJS.NodeJS.LTS@20.11.1", "--yes"}, false, false},
		{"upgrade-scoop-version", []string{"upgrade", "git@2.45.1", "--source", "scoop", "--yes"}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			mark := filepath.Join(f.bin, "ran-winget")
			if tc.winget {
				f.tool(t, "winget", fakeWinget)
			}
			r := f.run(t, noTTY, strings.NewReader(""), tc.args...)
			golden(t, tc.name, tc.args, r)
			if _, err := os.Stat(mark); (err == nil) != tc.ran {
				t.Fatalf("ran = %v, want %v", err == nil, tc.ran)
			}
		})
	}
}
