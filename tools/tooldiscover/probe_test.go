package tooldiscover_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools/tooldiscover"
)

type fakeResolver map[string]bool

func (f fakeResolver) Resolve(name string) (string, bool) {
	if f[name] {
		return "/abs/" + name, true
	}
	return "", false
}

// fakeRunner answers per executable path and records every request.
type fakeRunner struct {
	mu       sync.Mutex
	receipts map[string]proc.Receipt
	got      []proc.Request
}

func (f *fakeRunner) Run(_ context.Context, req proc.Request) proc.Receipt {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, req)
	r, ok := f.receipts[req.Argv[0]]
	if !ok {
		r = whole("v1\n", "")
	}
	r.Argv = req.Argv
	return r
}

func whole(stdout, stderr string) proc.Receipt {
	zero := 0
	return proc.Receipt{Succeeded: true, ReturnCode: &zero, Stdout: stdout, Stderr: stderr, ExecutionStarted: true,
		OutputCaptureComplete: true, OutputCaptureSettled: true}
}

func str(s string) *string { return &s }

func known(name, v, source string) tooldiscover.Entry {
	return tooldiscover.Entry{Available: true, Path: "/abs/" + name, Version: str(v), VersionStatus: "known", VersionSource: source}
}

func unknown(name, source string) tooldiscover.Entry {
	return tooldiscover.Entry{Available: true, Path: "/abs/" + name, VersionStatus: "unknown", VersionSource: source}
}

// noted is an available tool whose version output was read but not understood.
func noted(name, note string) tooldiscover.Entry {
	e := unknown(name, "command")
	e.VersionNote = note
	return e
}

func TestVersionEvidence(t *testing.T) {
	t.Parallel()
	truncated := whole("go version go1.26 linux/amd64\n", "")
	truncated.StdoutTruncated = true
	incomplete := whole("git version 2.45\n", "")
	incomplete.OutputCaptureComplete = false
	failed := whole("node v22\n", "")
	failed.Succeeded = false
	stderrCut := whole("", "openjdk 21\n")
	stderrCut.StderrTruncated = true
	tests := []struct {
		name    string
		receipt proc.Receipt
		want    tooldiscover.Entry
	}{
		{"python", whole("Python 3.13.1\n", ""), known("python", "Python 3.13.1", "command")},
		{"go", truncated, unknown("go", "command")},
		{"git", incomplete, unknown("git", "command")},
		{"node", failed, unknown("node", "command")},
		{"java", whole("", "openjdk version \"21\" 2023-09-19\nOpenJDK Runtime\n"), known("java", `openjdk version "21" 2023-09-19`, "command")},
		{"java", stderrCut, unknown("java", "command")},
		{"npm", whole("\n  10.8.0  \nmore\n", "warn"), known("npm", "10.8.0", "command")},
		{"uv", whole("", ""), unknown("uv", "command")},
		{"pip", whole("pip 24 from x\n", "noise\n"), known("pip", "pip 24 from x", "command")},
		// Scoop prints a heading, then its release or, on a branch other than master, a git
		// log line (issue 22 §5; the outputs were pasted in public threads:
		// fossas/spectrometer#417, Devolutions/UniGetUI#3315). The heading is never the
		// version; a commit without a release tag is no version.
		{"scoop", whole("Current Scoop version:\nv0.5.2 - Released at 2024-07-26\n\n'main' bucket:\n1f13df1b5 unrar: Update to version 7.10\n", ""),
			known("scoop", "v0.5.2 - Released at 2024-07-26", "command")},
		{"scoop", whole("Current Scoop version:\nf5d7d5c0 (HEAD -> master, tag: v0.5.2, origin/master) chore(release): Bump to version 0.5.2 (#6080)\n\n", ""),
			known("scoop", "v0.5.2", "command")},
		{"scoop", whole("Current Scoop version:\n859d1db5 chore(release): Bump to version 0.5.2 (#6080)\n\n'main' bucket:\n1f13df1b5 unrar: Update to version 7.10\n", ""),
			noted("scoop", `the version output names a commit, not a release: "859d1db5 chore(release): Bump to version 0.5.2 (#6080)"`)},
		{"scoop", whole("Current Scoop version:\n6c340cb7 (HEAD -> master, origin/master, origin/HEAD) Merge pull request #4013 from sinloss/patch-1\n", ""),
			noted("scoop", `the version output names a commit, not a release: "6c340cb7 (HEAD -> master, origin/master, origin/HEAD) Merge pull request #4013 from sinloss/patch-1"`)},
		{"scoop", whole("Current Scoop version:\n\n", ""), noted("scoop", `the version output has a heading and no version: "Current Scoop version:"`)},
		{"gh", whole("usage: gh <command>\n", ""), noted("gh", `the version output was not understood: "usage: gh <command>"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &fakeRunner{receipts: map[string]proc.Receipt{"/abs/" + tt.name: tt.receipt}}
			p := tooldiscover.Prober{Resolver: fakeResolver{tt.name: true}, Runner: r, Dir: "/neutral"}
			out := p.Discover(context.Background(), "all")
			b, _ := json.Marshal(out)
			var m map[string]map[string]tooldiscover.Entry
			var raw map[string]json.RawMessage
			_ = json.Unmarshal(b, &raw)
			m = map[string]map[string]tooldiscover.Entry{}
			for _, g := range tooldiscover.Groups {
				var grp map[string]tooldiscover.Entry
				if err := json.Unmarshal(raw[g.Name], &grp); err != nil {
					t.Fatal(err)
				}
				m[g.Name] = grp
			}
			var got tooldiscover.Entry
			for _, grp := range m {
				if e, ok := grp[tt.name]; ok {
					got = e
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
			if !out.ExecutionStarted {
				t.Error("execution_started false although a probe started")
			}
			if err := testkit.CheckOutput(tooldiscover.New(tooldiscover.DefaultDeps()), out); err != nil {
				t.Fatalf("output does not conform to the output schema: %v", err)
			}
		})
	}
}

func TestProbeArgv(t *testing.T) {
	t.Parallel()
	all := fakeResolver{}
	for _, g := range tooldiscover.Groups {
		for _, n := range g.Tools {
			all[n] = true
		}
	}
	r := &fakeRunner{}
	var mu sync.Mutex // probes run concurrently
	var fileVersionCalls []string
	p := tooldiscover.Prober{Resolver: all, Runner: r, Dir: "/neutral", FileVersion: func(path string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		fileVersionCalls = append(fileVersionCalls, path)
		if path == "/abs/devenv" {
			return "17.9.34607.119", nil
		}
		return "", errors.New("no version resource")
	}}
	out := p.Discover(context.Background(), "all")
	got := map[string][]string{}
	for _, req := range r.got {
		got[req.Argv[0]] = req.Argv[1:]
		if req.Dir != "/neutral" || req.Timeout != 5*time.Second || req.Expected != nil {
			t.Errorf("request %+v", req)
		}
	}
	want := map[string][]string{}
	for _, g := range tooldiscover.Groups {
		for _, n := range g.Tools {
			switch n {
			case "devenv", "rider", "pycharm":
				continue
			case "go", "git-lfs":
				want["/abs/"+n] = []string{"version"}
			case "java":
				want["/abs/"+n] = []string{"-version"}
			default:
				want["/abs/"+n] = []string{"--version"}
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("probe argv (-want +got):\n%s", diff)
	}
	slices.Sort(fileVersionCalls)
	if diff := cmp.Diff([]string{"/abs/devenv", "/abs/pycharm", "/abs/rider"}, fileVersionCalls); diff != "" {
		t.Errorf("file-version reads (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(known("devenv", "17.9.34607.119", "windows_file_version"), out.Editors.Devenv); diff != "" {
		t.Errorf("devenv (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(unknown("rider", "windows_file_version"), out.Editors.Rider); diff != "" {
		t.Errorf("rider (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(known("code", "v1", "command"), out.Editors.Code); diff != "" {
		t.Errorf("code is probed by command (-want +got):\n%s", diff)
	}
	if err := testkit.CheckOutput(tooldiscover.New(tooldiscover.DefaultDeps()), out); err != nil {
		t.Fatalf("output does not conform to the output schema: %v", err)
	}
}

func TestNothingStarted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		resolver fakeResolver
	}{
		{"nothing installed", fakeResolver{}},
		{"only GUI editors", fakeResolver{"devenv": true, "rider": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &fakeRunner{}
			p := tooldiscover.Prober{Resolver: tt.resolver, Runner: r, Dir: "/neutral",
				FileVersion: func(string) (string, error) { return "", errors.New("none") }}
			out := p.Discover(context.Background(), "all")
			if out.ExecutionStarted || len(r.got) != 0 || out.Status.Status != "ok" {
				t.Fatalf("started %v, %d runs, status %s", out.ExecutionStarted, len(r.got), out.Status.Status)
			}
			if diff := cmp.Diff(tooldiscover.Entry{}, out.Runtimes.Python); diff != "" {
				t.Errorf("missing tool (-want +got):\n%s", diff)
			}
			b, _ := json.Marshal(out.Runtimes.Python)
			if string(b) != `{"available":false}` {
				t.Errorf("missing tool JSON %s", b)
			}
			if err := testkit.CheckOutput(tooldiscover.New(tooldiscover.DefaultDeps()), out); err != nil {
				t.Fatalf("output does not conform to the output schema: %v", err)
			}
		})
	}
}

func TestCategory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		category string
		groups   []string
	}{
		{"all", []string{"editors", "package_managers", "runtimes", "vcs"}},
		{"", []string{"editors", "package_managers", "runtimes", "vcs"}},
		{"runtimes", []string{"runtimes"}},
		{"editors", []string{"editors"}},
		{"package_managers", []string{"package_managers"}},
		{"vcs", []string{"vcs"}},
	}
	for _, tt := range tests {
		r := &fakeRunner{}
		p := tooldiscover.Prober{Resolver: fakeResolver{"git": true, "python": true}, Runner: r, Dir: "/neutral"}
		out := p.Discover(context.Background(), tt.category)
		b, _ := json.Marshal(out)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		var got []string
		for k := range m {
			if k != "status" && k != "execution_started" {
				got = append(got, k)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.groups, got); diff != "" {
			t.Errorf("category %q groups (-want +got):\n%s", tt.category, diff)
		}
		wantStarted := slices.Contains(tt.groups, "vcs") || slices.Contains(tt.groups, "runtimes")
		if out.ExecutionStarted != wantStarted {
			t.Errorf("category %q: execution_started %v", tt.category, out.ExecutionStarted)
		}
	}
}

// FuzzVersionLine: a version is always text of the output containing a digit, and
// exactly one of version and note is set for output that is not blank.
func FuzzVersionLine(f *testing.F) {
	for _, s := range []string{
		"Python 3.13.1\n", "Current Scoop version:\nv0.5.2 - Released at 2024-07-26\n",
		"Current Scoop version:\nf5d7d5c0 (HEAD -> master, tag: v0.5.2, origin/master) x\n",
		"Current Scoop version:\n859d1db5 chore(release): Bump to version 0.5.2 (#6080)\n",
		"Current Scoop version:\n", "usage: x\n", "a:\nabcdef0 (tag: nightly) y", "a:\nabcdef0 (tag: ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, note := tooldiscover.VersionLine(text)
		if strings.TrimSpace(text) == "" {
			if v != "" || note != "" {
				t.Fatalf("blank output gave %q / %q", v, note)
			}
			return
		}
		if (v == "") == (note == "") {
			t.Fatalf("version %q and note %q: want exactly one", v, note)
		}
		if v != "" && (!strings.Contains(text, v) || !strings.ContainsAny(v, "0123456789")) {
			t.Fatalf("version %q is not a digit-bearing part of %q", v, text)
		}
	})
}

// TestEntryJSONSaysEachThingOnce: an entry's JSON leaves out what another field says
// (issue 24): version_status known beside a version, version_source command, the null
// version of a tool that was not found or whose version is unknown; decoding restores
// them.
func TestEntryJSONSaysEachThingOnce(t *testing.T) {
	t.Parallel()
	gui := tooldiscover.Entry{Available: true, Path: "/abs/devenv", Version: str("17.9.1"), VersionStatus: "known", VersionSource: "windows_file_version"}
	for _, c := range []struct {
		e    tooldiscover.Entry
		want string
	}{
		{tooldiscover.Entry{}, `{"available":false}`},
		{known("go", "go version go1.26", "command"), `{"available":true,"path":"/abs/go","version":"go version go1.26"}`},
		{unknown("uv", "command"), `{"available":true,"path":"/abs/uv","version_status":"unknown"}`},
		{noted("gh", "not understood"), `{"available":true,"path":"/abs/gh","version_status":"unknown","version_note":"not understood"}`},
		{gui, `{"available":true,"path":"/abs/devenv","version":"17.9.1","version_source":"windows_file_version"}`},
		{unknown("rider", "windows_file_version"), `{"available":true,"path":"/abs/rider","version_status":"unknown","version_source":"windows_file_version"}`},
	} {
		b, err := json.Marshal(c.e)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v encodes as %s (%v), want %s", c.e, b, err, c.want)
		}
		var back tooldiscover.Entry
		if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(c.e, back) {
			t.Errorf("%s decodes as %+v (%v), want %+v", b, back, err, c.e)
		}
	}
}
