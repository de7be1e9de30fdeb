package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
)

const mpWriters, mpPer, mpPad = 8, 2000, 330

// TestHelperAppend is not a test: it is the body of a child process started by
// TestMultiProcessAppend. It appends records at the production cap and exits.
func TestHelperAppend(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process body; run by TestMultiProcessAppend")
	}
	id, _ := strconv.Atoi(os.Getenv(helperIDEnv))
	n, _ := strconv.Atoi(os.Getenv(helperNEnv))
	limit, _ := strconv.ParseInt(os.Getenv(helperCap), 10, 64)
	// The production 2 s lock timeout is for hooks that must not stall a host; a loaded
	// CI machine running 8 writers under -race must not drop records, or the survivor
	// count below would be wrong for a reason that is not a bug.
	l := logFile{dir: dir, limit: limit, timeout: 5 * time.Minute}
	for i := range n {
		if err := l.append(seqRecord(id, i, mpPad)); err != nil {
			fmt.Fprintf(os.Stderr, "helper %d: append %d: %v\n", id, i, err)
			os.Exit(3)
		}
	}
	os.Exit(0)
}

// TestMultiProcessAppend: 8 processes × 2,000 records, all appending to one log at the
// production 2 MiB cap at the same time. Records are fixed-length (about 600 bytes), so
// 16,000 of them (~9.6 MB) rotate the log four times. Afterwards every line of both
// segments parses, none is torn, both are within 2 MiB + one record, and exactly
// k + ((N-1) mod k) + 1 records survive (k = ceil(2 MiB / record length); see
// checkSequenced for the arithmetic), each writer's survivors a contiguous suffix.
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
	for w, r := range receipts {
		if !r.Succeeded {
			t.Fatalf("writer %d: started=%v rc=%v timed_out=%v err=%q stderr=%q", w, r.ExecutionStarted, r.ReturnCode, r.TimedOut, r.Error, r.Stderr)
		}
	}
	k := int((limit + int64(n) - 1) / int64(n))
	total := mpWriters * per
	if total <= 2*k {
		t.Fatalf("records of %d bytes rotate fewer than twice; enlarge the test", n)
	}
	t.Logf("record length %d bytes, %d records per segment, %d appended, %d retained", n, k, total, k+(total-1)%k+1)
	checkSequenced(t, dir, mpWriters, per, n, limit)
}
