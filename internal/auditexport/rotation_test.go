package auditexport

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// fill writes records numbered from on into agent.log directly (as Append would format
// them, without the lock) until the segment holds at least size bytes; it returns the
// next number. It makes a full segment in milliseconds; Append then rotates it for real.
func fill(t *testing.T, dir string, from int, size int64) int {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, audit.LogName), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	have := fi.Size()
	var buf []byte
	ok := true
	for ; have+int64(len(buf)) < size; from++ {
		r := audit.Record{SchemaVersion: 1, TS: time.Now().UTC().Format(audit.TimeLayout), LifecycleEvent: audit.EventToolCall,
			Event: audit.EventToolCall, LifecycleSuccess: &ok, Success: &ok, ExecutionOutcome: audit.NotApplicable,
			SessionID: fmt.Sprintf("s-%05d", from), ToolName: "env_inspect"}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		buf = append(append(buf, b...), '\n')
	}
	if _, err := f.Write(buf); err != nil {
		t.Fatal(err)
	}
	return from
}

// TestRotationBetweenPasses: a rotation between two passes loses nothing and is no gap.
func TestRotationBetweenPasses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolHTTP)
	s := newTestShipper(t, dir, rc)
	s.o.MaxBatch = 5000
	next := fill(t, dir, 0, 1000)
	if _, err := s.step(context.Background()); err != nil {
		t.Fatal(err)
	}
	next = fill(t, dir, next, audit.SegmentLimit)
	appendCalls(t, dir, next, 3) // rotates agent.log to agent.log.1 first
	if _, err := os.Stat(filepath.Join(dir, audit.PrevName)); err != nil {
		t.Fatal("no rotation happened:", err)
	}
	st, err := s.step(context.Background())
	if err != nil || st.GapBytes != -1 {
		t.Fatalf("stats %+v, %v", st, err)
	}
	if diff := cmp.Diff(want(0, next+3), sessions(rc.records())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestRotationOvertookCursor: the collector is down while the log rotates twice; the
// log stays within its bound, and once the collector answers the gap is reported with
// an honest lower bound and everything retained arrives once.
func TestRotationOvertookCursor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolGRPC)
	s := newTestShipper(t, dir, rc)
	s.o.MaxBatch = 5000
	next := fill(t, dir, 0, 1000)
	st, err := s.step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := st.Exported
	cur, _ := readCursor(filepath.Join(dir, audit.CursorName))
	rc.down.Store(true)
	lostFrom := next
	next = fill(t, dir, next, audit.SegmentLimit)
	appendCalls(t, dir, next, 1) // rotation 1: the cursor's segment becomes agent.log.1
	next++
	keptFrom := next - 1
	if _, err := s.step(context.Background()); err == nil {
		t.Fatal("collector down, yet a pass succeeded")
	}
	next = fill(t, dir, next, audit.SegmentLimit)
	appendCalls(t, dir, next, 1) // rotation 2: the cursor's segment is discarded
	next++
	var total int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fi, _ := e.Info()
		total += fi.Size()
	}
	if bound := int64(2*(audit.SegmentLimit+audit.MaxRecordBytes)) + 4096; total > bound {
		t.Fatalf("data directory holds %d bytes, more than the log's bound %d", total, bound)
	}
	rc.down.Store(false)
	st, err = s.step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(audit.SegmentLimit) - cur.Offset; st.GapBytes != want {
		t.Fatalf("gap %d bytes, want at least-count %d", st.GapBytes, want)
	}
	got := rc.records()
	var gaps int
	for _, r := range got {
		if r.EventName == GapEventName {
			gaps++
			if r.Attrs["wda.audit.gap.bytes_at_least"] != st.GapBytes || r.Severity != "WARN" {
				t.Errorf("gap record %+v", r)
			}
		}
	}
	if gaps != 1 {
		t.Fatalf("%d gap records, want 1", gaps)
	}
	wantS := append(want(0, first), want(keptFrom, next-keptFrom)...)
	if diff := cmp.Diff(wantS, sessions(got)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	_ = lostFrom
	// A further pass finds nothing new and no gap.
	if st, err := s.step(context.Background()); err != nil || st.Exported != 0 || st.GapBytes != -1 {
		t.Fatalf("second pass %+v %v", st, err)
	}
}
