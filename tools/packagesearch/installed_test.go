package packagesearch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
	"github.com/windows-dev-agent/wda/tools/internal/pmtest"
)

// installedFixture names the manager and the listing of a fixture under
// testdata/installed by its file name: <manager>_<list|upgrades>_….
func installedFixture(name string) (source string, upgrades bool) {
	manager, rest, _ := strings.Cut(name, "_")
	source = map[string]string{"winget": "winget", "choco": "chocolatey", "scoop": "scoop"}[manager]
	return source, strings.HasPrefix(rest, "upgrades")
}

// TestInstalledGolden pins the parse of every installed-list fixture (real outputs from
// public threads, testdata/installed/SOURCES.md); -update rewrites the golden files,
// which must then be reviewed by eye against the fixture.
func TestInstalledGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "installed", "*.txt"))
	if err != nil || len(files) < 20 {
		t.Fatalf("want at least twenty fixtures, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			source, upgrades := installedFixture(name)
			if source == "" {
				t.Fatalf("fixture %s names no manager", name)
			}
			p := parseInstalled(source, upgrades, string(b), "")
			got, err := json.MarshalIndent(goldenParse{p.matches, p.skipped, p.warning(), p.clean()}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			testkit.Golden(t, filepath.Join("testdata", "installed", name+".golden.json"), append(got, '\n'), *update)
		})
	}
}

// TestInstalledArgv: installed:true runs each manager's list of what is installed,
// upgrades:true its list of what has an upgrade (issue 25 §1); the query is a filter
// applied to what was parsed, never an argument.
func TestInstalledArgv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, exe string
		upgrades    bool
		tail        []string
	}{
		{"winget", "winget", false, []string{"list", "--disable-interactivity"}},
		{"winget", "winget", true, []string{"list", "--upgrade-available", "--source", "winget", "--disable-interactivity"}},
		{"chocolatey", "choco", false, []string{"list", "--limit-output"}},
		{"chocolatey", "choco", true, []string{"outdated", "--limit-output"}},
		{"scoop", "scoop", false, []string{"list"}},
		{"scoop", "scoop", true, []string{"status"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.exe, tt.upgrades), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			exe := w.fake(tt.exe, pmtest.Config{})
			in := In{Source: tt.source, Installed: !tt.upgrades, Upgrades: tt.upgrades, Query: "git"}
			out := w.search(DefaultDeps(), in)
			rep, ran := w.Ran()
			if !ran {
				t.Fatalf("the manager did not run: %+v", out)
			}
			want := append([]string{exe}, tt.tail...)
			if d := cmp.Diff(want, rep.Argv); d != "" {
				t.Errorf("argv (-want +got):\n%s", d)
			}
			if out.Status.Status != "completed" || !out.Installed || out.Upgrades != tt.upgrades || out.Query != "git" || out.Matches == nil {
				t.Errorf("out = %+v", out)
			}
		})
	}
}

// TestInstalledOutcomes runs the fake manager on real installed lists: what each
// manager printed becomes matches with the installed version and, where the manager
// says one exists, the available upgrade; output the parser does not understand is a
// warning and not a clean success.
func TestInstalledOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, exe, fixture string
		upgrades                   bool
		exit                       int
		status                     string
		want                       []Match
		warning                    string // a substring of the warning; "" means no warning
	}{
		{"winget list with an upgrade", "winget", "winget", "winget_list_available.txt", false, 0, "completed", []Match{
			{Name: "reSearch", ID: "84f93aee594a430d", Version: "2.2106.10.0"},
			{Name: "CodeFlow", ID: "CodeFlow_is1", Version: "Unknown"},
			{Name: "Git", ID: "Git.Git", Version: "2.31.0.0.1", Available: "2.33.0.2", Source: "winget"},
			{Name: "HxD Hex Editor 2.5", ID: "HxD_is1", Version: "2.5"},
			{Name: "Microsoft Edge", ID: "Microsoft.Edge", Version: "93.0.961.52"},
		}, "3 installed package row(s) left out"},
		{"winget upgrades bound to winget, explicit targeting", "winget", "winget", "winget_upgrades_explicit.txt", true, 0, "completed", []Match{
			{Name: "Adobe Acrobat DC (64-bit)", ID: "Adobe.Acrobat.Reader.64-bit", Version: "22.001.20142", Available: "22.003.20310", Source: "winget"},
			{Name: "Teams Machine-Wide Installer", ID: "Microsoft.Teams", Version: "1.5.0.8070", Available: "1.6.00.376", Source: "winget"},
		}, "WinGet left out 1 installed package(s) whose version it cannot determine"},
		{"winget upgrades footer right after the rows", "winget", "winget", "winget_upgrades_footer.txt", true, 0, "completed", []Match{
			{Name: "Signal", ID: "OpenWhisperSystems.Signal", Version: "5.27.1", Available: "5.29.0", Source: "winget"},
			{Name: "Microsoft Edge", ID: "Microsoft.Edge", Version: "97.0.1072.62", Available: "97.0.1072.69", Source: "winget"},
			{Name: "Microsoft Edge WebView2 Runtime", ID: "Microsoft.EdgeWebView2Runtime", Version: "97.0.1072.62", Available: "97.0.1072.69", Source: "winget"},
			{Name: "Microsoft 365 Apps for enterprise", ID: "Microsoft.Office", Version: "16.0.14701.20290", Available: "16.0.14729.20228", Source: "winget"},
			{Name: "Microsoft 365 Apps for enterprise", ID: "Microsoft.Office", Version: "16.0.14701.20290", Available: "16.0.14729.20228", Source: "winget"},
			{Name: "Postman", ID: "Postman.Postman", Version: "9.8.3", Available: "9.9.3", Source: "winget"},
		}, ""},
		{"winget pins", "winget", "winget", "winget_upgrades_pins.txt", true, 0, "completed", []Match{
			{Name: "Discord", ID: "Discord.Discord", Version: "1.0.9016", Available: "1.0.9035", Source: "winget"},
			{Name: "Microsoft Teams", ID: "Microsoft.Teams", Version: "1.6.00.29964", Available: "23320.3027.2591.1505", Source: "winget"},
			{Name: "Teams Machine-Wide Installer", ID: "Microsoft.Teams", Version: "1.5.0.8070", Available: "23320.3027.2591.1505", Source: "winget"},
		}, "WinGet left out 21 pinned package(s)"},
		{"winget nothing to upgrade", "winget", "winget", "winget_upgrades_none.txt", true, 0, "completed", []Match{}, ""},
		{"winget nothing installed matches, non-zero exit", "winget", "winget", "winget_upgrades_none.txt", false, 1, "failed", []Match{}, ""},
		{"winget localised list", "winget", "winget", "winget_list_localized.txt", false, 0, "completed", nil, "localised output"},
		{"winget progress and spinner", "winget", "winget", "winget_list_progress.txt", false, 0, "completed", []Match{
			{Name: "LocalSend", ID: "LocalSend.LocalSend", Version: "1.14.0.0", Source: "winget"},
			{Name: "Mullvad VPN 2024.1.0-beta1", ID: "MullvadVPN.MullvadVPN", Version: "2024.1.0-beta1", Source: "winget"},
			{Name: "Visual Studio Community 2022 Preview", ID: "Microsoft.VisualStudio.2022.Community.Preview", Version: "17.10.0 Preview 2.0", Source: "winget"},
		}, ""},
		{"chocolatey outdated, pinned", "chocolatey", "choco", "choco_upgrades_pinned.txt", true, 0, "completed", nil, ""},
		{"chocolatey outdated with warnings", "chocolatey", "choco", "choco_upgrades_warnings.txt", true, 0, "completed", nil,
			"Chocolatey could not check 7 package(s)"},
		{"chocolatey v1 lists the source", "chocolatey", "choco", "choco_list_v1_remote.txt", false, 0, "incomplete", nil, "not understood"},
		{"scoop status, other rows", "scoop", "scoop", "scoop_upgrades_info.txt", true, 0, "completed", []Match{
			{Name: "7zip", ID: "7zip", Version: "23.00", Available: "23.01", Source: "scoop"},
		}, ""},
		{"scoop status, buckets out of date, held", "scoop", "scoop", "scoop_upgrades_out_of_date.txt", true, 0, "completed", []Match{
			{Name: "nodejs", ID: "nodejs", Version: "20.10.0", Available: "20.11.0", Source: "scoop", Pinned: true},
			{Name: "python", ID: "python", Version: "3.12.0", Available: "3.12.1", Source: "scoop"},
		}, "Scoop or its buckets are out of date"},
		{"older scoop status", "scoop", "scoop", "scoop_upgrades_legacy_hold.txt", true, 0, "completed", []Match{
			{Name: "nodejs", ID: "nodejs", Version: "16.13.0", Available: "16.13.1", Source: "scoop", Pinned: true},
			{Name: "python", ID: "python", Version: "3.10.0", Available: "3.10.1", Source: "scoop"},
		}, "Scoop or its buckets are out of date"},
		{"scoop list table", "scoop", "scoop", "scoop_list_plain.txt", false, 0, "completed", []Match{
			{Name: "7zip", ID: "7zip", Version: "21.07", Source: "main"},
			{Name: "git", ID: "git", Version: "2.36.1.windows.1", Source: "main"},
			{Name: "neofetch", ID: "neofetch", Version: "7.1.0", Source: "main"},
		}, ""},
		{"older scoop list", "scoop", "scoop", "scoop_list_legacy.txt", false, 0, "completed", []Match{
			{Name: "7zip", ID: "7zip", Version: "19.00", Source: "main"},
			{Name: "git", ID: "git", Version: "2.33.0.windows.2", Source: "main"},
			{Name: "nodejs-lts", ID: "nodejs-lts", Version: "14.17.6", Source: "main", Pinned: true},
			{Name: "oldtool", ID: "oldtool", Version: "1.0", Source: "scoop"},
			{Name: "sysinternals", ID: "sysinternals", Version: "2020.September.17", Source: "extras"},
			{Name: "mytool", ID: "mytool", Version: "0.3", Source: "https://example.invalid/mytool.json"},
		}, ""},
		{"scoop nothing installed", "scoop", "scoop", "scoop_list_none.txt", false, 1, "failed", []Match{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake(tt.exe, pmtest.Config{Fixture: filepath.Join("testdata", "installed", tt.fixture), Exit: tt.exit})
			out := w.search(DefaultDeps(), In{Source: tt.source, Installed: true, Upgrades: tt.upgrades})
			if out.Status.Status != tt.status {
				t.Errorf("status %s, want %s (warning %q)", out.Status.Status, tt.status, out.Warning)
			}
			if tt.want != nil {
				if d := cmp.Diff(tt.want, out.Matches); d != "" {
					t.Errorf("matches (-want +got):\n%s", d)
				}
			} else if len(out.Matches) == 0 {
				t.Error("no matches")
			}
			if tt.warning == "" && out.Warning != "" || !strings.Contains(out.Warning, tt.warning) {
				t.Errorf("warning %q, want one containing %q", out.Warning, tt.warning)
			}
		})
	}
}

// TestInstalledFilter: the query keeps the installed packages whose id or name contains
// it, ignoring case.
func TestInstalledFilter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{Fixture: filepath.Join("testdata", "installed", "winget_list_source.txt")})
	for _, tt := range []struct {
		q   string
		ids []string
	}{
		{"GIT", []string{"Git.Git"}},
		{"7-zip", []string{"7zip.7zip"}},
		{"crystal", []string{"CrystalDewWorld.CrystalDiskMark"}},
		{"nothing-like-it", nil},
	} {
		out := w.search(DefaultDeps(), In{Installed: true, Query: tt.q})
		var ids []string
		for _, m := range out.Matches {
			ids = append(ids, m.ID)
		}
		if out.Status.Status != "completed" || out.Query != tt.q || !cmp.Equal(ids, tt.ids) || out.Matches == nil {
			t.Errorf("query %q: status %s ids %q", tt.q, out.Status.Status, ids)
		}
	}
}

// TestInstalledInput: upgrades implies installed; a search needs a query, a listing
// does not; a filter follows the query's rules.
func TestInstalledInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{})
	if out := w.search(DefaultDeps(), In{Upgrades: true}); out.Status.Status != "completed" || !out.Installed || !out.Upgrades {
		t.Errorf("upgrades alone: %+v", out)
	}
	if out := w.search(DefaultDeps(), In{Installed: true}); out.Status.Status != "completed" || !out.Installed || out.Upgrades || out.Query != "" {
		t.Errorf("installed alone: %+v", out)
	}
	for _, tt := range []struct {
		in  In
		msg string
	}{
		{In{}, errQuery},
		{In{Installed: true, Query: "  "}, errQuery},
		{In{Installed: true, Query: "a\x00"}, errQuery},
		{In{Upgrades: true, Query: "-x"}, errQueryOption},
	} {
		w := newWorld(t)
		w.fake("winget", pmtest.Config{})
		if out := w.search(DefaultDeps(), tt.in); out.Status.Status != "invalid_input" || out.Error != tt.msg {
			t.Errorf("%+v: %+v", tt.in, out)
		}
		if _, ran := w.Ran(); ran {
			t.Errorf("%+v: the manager ran", tt.in)
		}
	}
}

// TestInstalledLongList: a machine's installed list is longer than the 8,000-byte tail
// a search keeps. It is read whole (up to ListStdoutLimit) and parsed; the result's
// stdout is the tail, marked truncated, and the status is still a clean success.
func TestInstalledLongList(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("Name                                     Id                                       Version             Available Source\n")
	b.WriteString(strings.Repeat("-", 115) + "\n")
	const rows = 400
	for i := range rows {
		fmt.Fprintf(&b, "%-40s %-40s %-19s %-9s %s\n", fmt.Sprintf("Package %03d", i), fmt.Sprintf("Contoso.Package%03d", i), "1.0.0", "", "winget")
	}
	fixture := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(fixture, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= 5*proc.DefaultStdoutLimit {
		t.Fatalf("fixture of %d bytes is not long", b.Len())
	}
	w := newWorld(t)
	w.fake("winget", pmtest.Config{Fixture: fixture})
	out := w.search(DefaultDeps(), In{Installed: true})
	if out.Status.Status != "completed" || len(out.Matches) != rows || out.Warning != "" || out.Matches[rows-1].ID != "Contoso.Package399" {
		t.Fatalf("status %s, %d matches, warning %q", out.Status.Status, len(out.Matches), out.Warning)
	}
	if len(out.Stdout) > proc.DefaultStdoutLimit || !out.StdoutTruncated || !strings.HasSuffix(b.String(), out.Stdout) {
		t.Errorf("stdout tail of %d bytes, truncated %v", len(out.Stdout), out.StdoutTruncated)
	}
}

// FuzzParseInstalled: no input panics the installed-list parsers; every match is a whole
// token copied from the (normalised) input, with its version and available upgrade
// copied from it too; a parse that is not clean always says why.
func FuzzParseInstalled(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "installed", "*.txt"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			source, upgrades := installedFixture(strings.TrimSuffix(filepath.Base(p), ".txt"))
			f.Add(source, upgrades, string(b), "")
		}
	}
	f.Add("scoop", true, "Updates are available for:\n    a: 1 -> 2\nThese apps are outdated and on hold:\n    b: 1 -> 2\n", "")
	f.Add("chocolatey", true, "a|1|2|maybe\nWarnings:\n - x\n", "")
	f.Fuzz(func(t *testing.T, source string, upgrades bool, stdout, stderr string) {
		p := parseInstalled(source, upgrades, stdout, stderr)
		norm := strings.Join(pkgtable.Lines(stdout), "\n")
		for _, m := range p.matches {
			if !token(m.ID) || !strings.Contains(norm, m.ID) || !strings.Contains(norm, m.Name) ||
				!strings.Contains(norm, m.Version) || !strings.Contains(norm, m.Available) {
				t.Fatalf("match %+v not taken whole from the input", m)
			}
		}
		if !p.clean() && p.warning() == "" {
			t.Fatal("a parse that is not clean has no warning")
		}
		for _, l := range pkgtable.Lines(stderr) {
			if strings.TrimSpace(l) != "" && p.clean() {
				t.Fatalf("clean parse with stderr %q", l)
			}
		}
	})
}
