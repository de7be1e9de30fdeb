package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// markedCopies writes two copies of the test binary into dir that differ only in their
// marker (see markerValue): the reviewed one printing "A…" and a variant printing "B…".
func markedCopies(t *testing.T, dir string) (reviewed, variant []byte, markerAt int) {
	t.Helper()
	if runtime.GOOS == "darwin" {
		// Patching a signed Mach-O invalidates its code signature; the kernel would kill
		// the variant for that reason, not because of anything the runner did.
		t.Skip("patched copies of a signed binary cannot run on macOS")
	}
	data, err := os.ReadFile(helperPath(t))
	if err != nil {
		t.Fatal(err)
	}
	needle := []byte(markerValue)
	if n := bytes.Count(data, needle); n != 1 {
		t.Fatalf("marker occurs %d times in the test binary, want exactly 1", n)
	}
	markerAt = bytes.Index(data, needle) + len(needle) - markerLen
	variant = bytes.Clone(data)
	copy(variant[markerAt:], strings.Repeat("B", markerLen))
	return data, variant, markerAt
}

// raceOutcome counts what the runs of one race test did.
type raceOutcome struct {
	started, refused, foreign int
	foreignSample, refusal    string
	foreignOutputs            map[string]int // how often each foreign output was printed
}

// raceRuns runs req n times while swap keeps changing the executable, and classifies
// every run: refused before start, started the reviewed bytes, or started foreign
// bytes (the bug: a receipt sealed to the reviewed identity over other bytes).
func raceRuns(t *testing.T, n int, req Request, want string, swap func(stop <-chan struct{})) raceOutcome {
	t.Helper()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); swap(stop) }()
	var o raceOutcome
	for range n {
		r := Run(context.Background(), req)
		switch {
		case !r.ExecutionStarted:
			o.refused++
			o.refusal = r.Error
		case r.Stdout == want:
			o.started++
		default:
			o.foreign++
			o.foreignSample = r.Stdout
			if o.foreignOutputs == nil {
				o.foreignOutputs = map[string]int{}
			}
			o.foreignOutputs[r.Stdout]++
		}
	}
	close(stop)
	wg.Wait()
	return o
}

func raceIterations() int {
	if testing.Short() {
		return 30
	}
	return 300
}

// renameSwapper atomically replaces target with each variant in turn (hard link to a
// temporary name, then rename over target), as fast as it can, until stop closes.
// Errors are expected where the runner holds the file (Windows) and are ignored.
func renameSwapper(target string, variants ...string) func(stop <-chan struct{}) {
	return func(stop <-chan struct{}) {
		tmp := target + ".swap"
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			if os.Link(variants[i%len(variants)], tmp) == nil {
				os.Rename(tmp, target)
			}
		}
	}
}

// TestRunIdentityRaceRename: a racer keeps swapping the reviewed executable for a
// variant by rename while it is run sealed to the reviewed identity. Every run must
// either be refused or execute the reviewed bytes; a run that prints the variant's
// marker executed bytes nobody reviewed under the reviewed identity.
func TestRunIdentityRaceRename(t *testing.T) {
	dir := t.TempDir()
	reviewed, variant, _ := markedCopies(t, dir)
	ext := filepath.Ext(helperPath(t))
	a, b, target := filepath.Join(dir, "a"+ext), filepath.Join(dir, "b"+ext), filepath.Join(dir, "tool"+ext)
	for p, data := range map[string][]byte{a: reviewed, b: variant, target: reviewed} {
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id, err := Fingerprint(a)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Argv: []string{target}, Dir: dir, Env: helperEnvFor("marker"), Expected: &id}
	o := raceRuns(t, raceIterations(), req, strings.Repeat("A", markerLen), renameSwapper(target, b, a))
	t.Logf("started reviewed bytes %d, refused %d (e.g. %q), started foreign bytes %d", o.started, o.refused, o.refusal, o.foreign)
	if o.foreign > 0 {
		t.Errorf("%d runs sealed to the reviewed identity executed other bytes (printed %q)", o.foreign, o.foreignSample)
	}
	if o.started == 0 {
		t.Error("no run started: the test proves nothing")
	}
}

// TestRunIdentityRaceRenameScript is the rename race for a #! script (Unix only). A
// reviewed script's interpreter reads it by path, so $0 is that path
// (docs/process-runner.md §3.2): a rename in the moment between the exec-stop check
// and the interpreter's read can hand the reviewed interpreter other text, which is
// the residual that section states and this test only counts. What must hold is that
// the program started is always the interpreter of the reviewed bytes: the variant
// names another interpreter (the test binary, which would print its arguments), and no
// run may ever start it.
func TestRunIdentityRaceRenameScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("scripts are started through PowerShell on Windows; the binary race covers the seal")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	a, b, target := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "tool")
	reviewedScript := []byte("#!/bin/sh\nprintf " + strings.Repeat("A", markerLen) + "\n")
	// To /bin/sh the variant is a comment: read by the reviewed interpreter it prints
	// nothing; started through its own #! line it prints a JSON array.
	variant := []byte("#!" + helperPath(t) + "\n")
	for p, data := range map[string][]byte{a: reviewedScript, b: variant, target: reviewedScript} {
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id, err := Fingerprint(a)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Argv: []string{target}, Dir: dir, Env: helperEnvFor("argshex"), Expected: &id}
	o := raceRuns(t, raceIterations(), req, strings.Repeat("A", markerLen), renameSwapper(target, b, a))
	t.Logf("started the reviewed script %d, refused %d (e.g. %q), the reviewed interpreter read the variant's text %d",
		o.started, o.refused, o.refusal, o.foreignOutputs[""])
	for out, n := range o.foreignOutputs {
		if out != "" {
			t.Errorf("%d runs sealed to the reviewed identity started the variant's interpreter (printed %q)", n, out)
		}
	}
	if o.started == 0 {
		t.Error("no run started: the test proves nothing")
	}
}

// writeGap is how many stat calls the in-place racer makes between two writes.
const writeGap = 50

// TestRunIdentityRaceInPlace: the racer rewrites the marker inside the reviewed file
// itself (same inode, so holding or executing the opened file is not enough). Where the
// runner cannot lock the file it must check the bytes at a point where they can no
// longer change; writes refused with ETXTBSY or a sharing violation are expected.
func TestRunIdentityRaceInPlace(t *testing.T) {
	dir := t.TempDir()
	reviewed, _, at := markedCopies(t, dir)
	target := filepath.Join(dir, "tool"+filepath.Ext(helperPath(t)))
	if err := os.WriteFile(target, reviewed, 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := Fingerprint(target)
	if err != nil {
		t.Fatal(err)
	}
	swap := func(stop <-chan struct{}) {
		marks := [][]byte{[]byte(strings.Repeat("B", markerLen)), []byte(strings.Repeat("A", markerLen))}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err == nil {
				f.WriteAt(marks[i%2], int64(at))
				f.Close()
			}
			// While the file is open for writing no exec can start it (ETXTBSY);
			// a few cheap system calls between writes leave runs room to start.
			for range writeGap {
				os.Lstat(target)
			}
		}
	}
	req := Request{Argv: []string{target}, Dir: dir, Env: helperEnvFor("marker"), Expected: &id}
	o := raceRuns(t, raceIterations(), req, strings.Repeat("A", markerLen), swap)
	t.Logf("started reviewed bytes %d, refused %d (e.g. %q), started foreign bytes %d", o.started, o.refused, o.refusal, o.foreign)
	if o.foreign > 0 {
		t.Errorf("%d runs sealed to the reviewed identity executed other bytes (printed %q)", o.foreign, o.foreignSample)
	}
	if o.started == 0 {
		t.Error("no run started: the test proves nothing")
	}
}

var _ = errors.New
