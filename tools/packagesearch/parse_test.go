package packagesearch

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
	"github.com/windows-dev-agent/wda/tools/internal/pmtest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the parser's output")

// goldenParse is what the golden files pin: the parse of one fixture.
type goldenParse struct {
	Matches        []Match `json:"matches"`
	MatchesSkipped int     `json:"matches_skipped"`
	Warning        string  `json:"warning"`
	Clean          bool    `json:"clean"`
}

// sourceOf names the manager of a fixture by its file-name prefix.
func sourceOf(name string) string {
	switch {
	case strings.HasPrefix(name, "choco_"):
		return "chocolatey"
	case strings.HasPrefix(name, "scoop_"):
		return "scoop"
	}
	return "winget"
}

// TestParseGolden pins the parse of every fixture (real outputs from public threads,
// testdata/SOURCES.md); -update rewrites the golden files, which must then be reviewed
// by eye against the fixture.
func TestParseGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) < 10 {
		t.Fatalf("want at least ten fixtures, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := parse(sourceOf(name), string(b), "")
			got, err := json.MarshalIndent(goldenParse{p.matches, p.skipped, p.warning(), p.clean()}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			testkit.Golden(t, filepath.Join("testdata", name+".golden.json"), append(got, '\n'), *update)
		})
	}
}

// TestRealOutputs runs the fake manager on real outputs (issue 22 §5). A parser that
// does not understand its input says so: a warning and a status that is not a clean
// success; it never turns noise into matches. Older Scoop layouts are read, not
// reported as zero matches.
func TestRealOutputs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, exe, fixture string
		exit                       int
		status                     string
		want                       []Match
		warning                    string // a substring of the warning; "" means no warning
	}{
		{"scoop older bucket listing", "scoop", "scoop", "scoop_legacy_buckets.txt", 0, "completed", []Match{
			{Name: "eventstore", ID: "eventstore", Version: "4.1.0", Source: "main"},
			{Name: "node-chakracore", ID: "node-chakracore", Version: "8.11.1", Source: "main"},
			{Name: "nodejs-lts", ID: "nodejs-lts", Version: "8.11.1", Source: "main"},
			{Name: "nodejs", ID: "nodejs", Version: "9.11.1", Source: "main"},
			{Name: "sliksvn", ID: "sliksvn", Version: "1.9.7", Source: "main"},
		}, ""},
		{"scoop detail listing", "scoop", "scoop", "scoop_detail.txt", 0, "completed", []Match{
			{Name: "buttery-taskbar", ID: "buttery-taskbar", Version: "2.3.1", Source: "CrypticButter"},
		}, ""},
		{"scoop remote buckets only", "scoop", "scoop", "scoop_legacy_remote.txt", 0, "completed", []Match{},
			"3 result(s) are in known Scoop buckets that are not added"},
		{"scoop PowerShell error then no matches", "scoop", "scoop", "scoop_webrequest_error.txt", 0, "incomplete", []Match{},
			`the package manager printed an error`},
		{"scoop PowerShell error, exit 1", "scoop", "scoop", "scoop_webrequest_error.txt", 1, "failed", []Match{},
			`first: "invoke-webrequest : {`},
		{"scoop PowerShell 7 error", "scoop", "scoop", "scoop_pwsh7_error.txt", 0, "incomplete", []Match{},
			`first: "Invoke-WebRequest: C:\\Users`},
		{"chocolatey licence error", "chocolatey", "choco", "choco_license_invalid.txt", 0, "incomplete", []Match{},
			"A license was found for a licensed version of Chocolatey, but is invalid"},
		{"chocolatey not elevated", "chocolatey", "choco", "choco_not_elevated.txt", 0, "incomplete", []Match{},
			"not running from an elevated command shell"},
		{"winget without a Version column", "winget", "winget", wingetFixture("name_id_source.txt"), 0, "completed", []Match{
			{Name: "Computer Networks One", ID: "9NC6N8L4T5WS", Source: "msstore"},
			{Name: "Wireshark", ID: "WiresharkFoundation.Wireshark", Source: "winget"},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fixture := tt.fixture
			if filepath.Base(fixture) == fixture {
				fixture = filepath.Join("testdata", fixture)
			}
			w := newWorld(t)
			w.fake(tt.exe, pmtest.Config{Fixture: fixture, Exit: tt.exit})
			out := w.search(DefaultDeps(), In{Query: "q", Source: tt.source})
			if out.Status.Status != tt.status {
				t.Errorf("status %s, want %s (warning %q)", out.Status.Status, tt.status, out.Warning)
			}
			if d := cmp.Diff(tt.want, out.Matches); d != "" {
				t.Errorf("matches (-want +got):\n%s", d)
			}
			if tt.warning == "" && out.Warning != "" || !strings.Contains(out.Warning, tt.warning) {
				t.Errorf("warning %q, want one containing %q", out.Warning, tt.warning)
			}
		})
	}
}

// TestStderrIsRead: an error on stderr of a run that exited 0 is not a clean success.
func TestStderrIsRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, stderr string
		clean          bool
	}{
		{"scoop", "No matches found.\r\n", true},
		{"scoop", "Invoke-WebRequest : The remote name could not be resolved: 'api.github.com'\r\n", false},
		{"chocolatey", "Error retrieving packages from source 'https://community.chocolatey.org/api/v2/'\n", false},
		{"winget", "", true},
		{"winget", "   \n", true},
	}
	for _, tt := range tests {
		if p := parse(tt.source, "", tt.stderr); p.clean() != tt.clean {
			t.Errorf("%s stderr %q: clean=%v, want %v (%s)", tt.source, tt.stderr, p.clean(), tt.clean, p.warning())
		}
	}
}

// FuzzParse: no input panics the parsers; every match is a whole token copied from
// the (normalised) input; Chocolatey output with a line that is not a result row is never
// a clean parse, nor is any stderr text but Scoop's no-match message.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	more, _ := filepath.Glob(filepath.Join("..", "internal", "pkgtable", "testdata", "*.txt"))
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(sourceOf(filepath.Base(p)), string(b), "")
		}
	}
	f.Add("scoop", "", "At C:\\x.ps1:1 char:1")
	f.Add("chocolatey", "git|2.0\nA license was found but is invalid", "")
	f.Fuzz(func(t *testing.T, source, stdout, stderr string) {
		p := parse(source, stdout, stderr)
		norm := strings.Join(pkgtable.Lines(stdout), "\n")
		for _, m := range p.matches {
			if !token(m.ID) || !strings.Contains(norm, m.ID) || !strings.Contains(norm, m.Name) || !strings.Contains(norm, m.Version) {
				t.Fatalf("match %+v not taken whole from the input", m)
			}
		}
		if !p.clean() {
			if w := p.warning(); w == "" {
				t.Fatal("a parse that is not clean has no warning")
			}
			return
		}
		if source == "chocolatey" {
			for _, l := range pkgtable.Lines(stdout) {
				if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "|") {
					t.Fatalf("clean parse with the message %q", l)
				}
			}
		}
		for _, l := range pkgtable.Lines(stderr) {
			if l = strings.TrimSpace(l); l != "" && (source != "scoop" || !scoopNoMatches(l)) {
				t.Fatalf("clean parse with stderr %q", l)
			}
		}
	})
}
