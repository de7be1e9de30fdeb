package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// Environment of the helper process (the test binary re-executed by proc.Run).
const (
	helperEnv   = "WDA_AUDIT_HELPER_DIR"
	helperIDEnv = "WDA_AUDIT_HELPER_ID"
	helperNEnv  = "WDA_AUDIT_HELPER_N"
	helperCap   = "WDA_AUDIT_HELPER_LIMIT"
	helperStop  = "WDA_AUDIT_HELPER_STOP"
	// helperModeEnv "raw" makes a reader pick out ids instead of decoding (rawIDs).
	helperModeEnv = "WDA_AUDIT_HELPER_MODE"
)

const mpWriters, mpPer, mpPad, mpReaders = 8, 2000, 330, 3

// TestHelperAppend is not a test: it is the body of a child process started by
// TestMultiProcessAppend. It appends records at the given cap and exits. It waits for
// the lock no longer than production appends do (LockTimeout): readers never hold
// writers off, so only the other writers' appends stand in its way.
func TestHelperAppend(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process body; run by TestMultiProcessAppend")
	}
	id, _ := strconv.Atoi(os.Getenv(helperIDEnv))
	n, _ := strconv.Atoi(os.Getenv(helperNEnv))
	limit, _ := strconv.ParseInt(os.Getenv(helperCap), 10, 64)
	l := logFile{dir: dir, limit: limit, timeout: LockTimeout}
	for i := range n {
		if err := l.append(seqRecord(id, i, mpPad)); err != nil {
			fmt.Fprintf(os.Stderr, "helper %d: append %d: %v\n", id, i, err)
			os.Exit(3)
		}
	}
	os.Exit(0)
}

// TestHelperRead is not a test either: the body of a reader process of
// TestMultiProcessAppend. It reads the whole log (decoding it, or with rawIDs in "raw"
// mode) again and again until the stop file
// exists, checks every read with checkSnapshot and checks that no writer's coverage
// shrinks from one read to the next while the writer has records retained; it exits 4
// on the first violation.
func TestHelperRead(t *testing.T) {
	dir, stop := os.Getenv(helperEnv), os.Getenv(helperStop)
	if dir == "" || stop == "" {
		t.Skip("helper process body; run by TestMultiProcessAppend")
	}
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "reader: "+format+"\n", args...)
		os.Exit(4)
	}
	last := map[int]int{}
	reads := 0
	for {
		_, err := os.Stat(stop)
		stopping := err == nil
		var ids []string
		if os.Getenv(helperModeEnv) == "raw" {
			if ids, err = rawIDs(dir); err != nil {
				fail("read %d: %v", reads, err)
			}
		} else {
			evs, err := Read(dir)
			if err != nil {
				fail("read %d: %v", reads, err)
			}
			ids = useIDs(evs)
		}
		next, err := checkSnapshot(ids, false)
		if err != nil {
			fail("read %d: %v", reads, err)
		}
		// A writer with no records left was discarded whole by a rotation; one with
		// records has its newest among them, so its coverage can only grow.
		for w, k := range next {
			if k < last[w] {
				fail("read %d: writer %d: covered %d records, the read before %d", reads, w, k, last[w])
			}
			last[w] = k
		}
		reads++
		if stopping {
			break
		}
	}
	fmt.Printf("%d reads\n", reads)
	os.Exit(0)
}

// TestMultiProcessAppend: 8 processes × 2,000 records, all appending to one log at the
// production 2 MiB cap at the same time, while 3 more processes read the whole log in
// a loop (issue 15.5: a reader used to hold the lock for its whole read, and writers
// gave up after 2 s, so records were lost). Records are fixed-length (about 600 bytes), so
// 16,000 of them (~9.6 MB) rotate the log four times. Afterwards every line of both
// segments parses, none is torn, both are within 2 MiB + one record, and exactly
// k + ((N-1) mod k) + 1 records survive (k = ceil(2 MiB / record length); see
// checkSequenced for the arithmetic), each writer's survivors a contiguous suffix: the
// exact count proves no append was dropped. Every read of every reader was a
// consistent snapshot (checkSnapshot), and none covered less than the read before it.
//
// Under Wine every file operation is a round trip to wineserver (16,000 appends take
// minutes), so there each writer appends 200 records under a cap of about 150 records:
// still eight concurrent processes and ten rotations. Real Windows runs the full test.
func TestMultiProcessAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err = filepath.Abs(exe)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := lineLen(t, mpPad)
	per, limit := mpPer, int64(SegmentLimit)
	if underWine() {
		per, limit = 200, int64(150*n+n/2)
	}
	stop := filepath.Join(t.TempDir(), "stop")
	var rg sync.WaitGroup
	readers := make([]proc.Receipt, mpReaders)
	for r := range mpReaders {
		rg.Go(func() {
			readers[r] = proc.Run(context.Background(), proc.Request{
				Argv:    []string{exe, "-test.run=^TestHelperRead$", "-test.count=1"},
				Dir:     dir,
				Timeout: 10 * time.Minute,
				Env:     append(os.Environ(), helperEnv+"="+dir, helperStop+"="+stop, helperModeEnv+"="+readerMode(r)),
			})
		})
	}
	var wg sync.WaitGroup
	receipts := make([]proc.Receipt, mpWriters)
	for w := range mpWriters {
		wg.Go(func() {
			receipts[w] = proc.Run(context.Background(), proc.Request{
				Argv:    []string{exe, "-test.run=^TestHelperAppend$", "-test.count=1"},
				Dir:     dir,
				Timeout: 10 * time.Minute,
				Env: append(os.Environ(), helperEnv+"="+dir, helperIDEnv+"="+strconv.Itoa(w),
					helperNEnv+"="+strconv.Itoa(per), helperCap+"="+strconv.FormatInt(limit, 10)),
			})
		})
	}
	wg.Wait()
	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rg.Wait()
	for w, r := range receipts {
		if !r.Succeeded {
			t.Errorf("writer %d: started=%v rc=%s timed_out=%v err=%q stderr=%q", w, r.ExecutionStarted, rc(r.ReturnCode), r.TimedOut, r.Error, r.Stderr)
		}
	}
	for i, r := range readers {
		if !r.Succeeded {
			t.Errorf("reader %d: started=%v rc=%s timed_out=%v err=%q stderr=%q", i, r.ExecutionStarted, rc(r.ReturnCode), r.TimedOut, r.Error, r.Stderr)
		} else {
			t.Logf("reader %d: %s", i, strings.TrimSpace(r.Stdout))
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	k := int((limit + int64(n) - 1) / int64(n))
	total := mpWriters * per
	if total <= 2*k {
		t.Fatalf("records of %d bytes rotate fewer than twice; enlarge the test", n)
	}
	t.Logf("record length %d bytes, %d records per segment, %d appended, %d retained", n, k, total, k+(total-1)%k+1)
	checkSequenced(t, dir, mpWriters, per, n, limit)
}

func rc(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}

// readerMode: the first reader decodes every record as logs_query does; the others
// read raw and so take many more snapshots while the writers run.
func readerMode(r int) string {
	if r == 0 {
		return "decode"
	}
	return "raw"
}
