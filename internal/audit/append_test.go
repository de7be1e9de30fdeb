package audit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)

func TestAppendFillsWriterFields(t *testing.T) {
	tests := []struct {
		name string
		in   Record
		want map[string]any
	}{
		{
			name: "legacy names are backfilled into lifecycle_*",
			in:   Record{Event: EventPostToolUseFailure, Success: new(false), ExecutionOutcome: Unknown},
			want: map[string]any{"schema_version": 1.0, "lifecycle_event": "PostToolUseFailure", "lifecycle_success": false,
				"event": "PostToolUseFailure", "success": false, "execution_started": nil, "execution_outcome": "unknown", "result_status": nil},
		},
		{
			name: "lifecycle names are mirrored into the legacy ones",
			in: Record{LifecycleEvent: EventPreToolUse, ExecutionOutcome: NotApplicable, PermissionDenied: new(true),
				PermissionDecision: DecisionDeny, SafetyClass: "forbidden", SessionID: "s1", ToolName: "Bash", ToolUseID: "u1"},
			want: map[string]any{"schema_version": 1.0, "lifecycle_event": "PreToolUse", "lifecycle_success": nil,
				"event": "PreToolUse", "success": nil, "execution_started": nil, "execution_outcome": "not_applicable", "result_status": nil,
				"permission_denied": true, "permission_decision": "deny", "safety_class": "forbidden",
				"session_id": "s1", "tool_name": "Bash", "tool_use_id": "u1"},
		},
		{
			name: "codex post-tool record keeps success null and its host",
			in: Record{Event: EventPostToolUse, ExecutionOutcome: Unknown, ExecutionStarted: new(true),
				ResultStatus: new("launched"), DurationMS: new(12.5), Host: "codex", ToolName: "sandbox_run"},
			want: map[string]any{"schema_version": 1.0, "lifecycle_event": "PostToolUse", "lifecycle_success": nil,
				"event": "PostToolUse", "success": nil, "execution_started": true, "execution_outcome": "unknown",
				"result_status": "launched", "duration_ms": 12.5, "host": "codex", "tool_name": "sandbox_run"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := Append(dir, tt.in); err != nil {
				t.Fatal(err)
			}
			got, _ := rawLines(t, filepath.Join(dir, LogName))
			if len(got) != 1 {
				t.Fatalf("got %d records, want 1", len(got))
			}
			ts, _ := got[0]["ts"].(string)
			parsed, err := time.Parse(TimeLayout, ts)
			if err != nil || !strings.HasSuffix(ts, "Z") || parsed.Location() != time.UTC {
				t.Errorf("ts %q is not a UTC ISO-8601 time: %v", ts, err)
			}
			delete(got[0], "ts")
			if d := cmp.Diff(tt.want, got[0]); d != "" {
				t.Errorf("record (-want +got):\n%s", d)
			}
		})
	}
}

// TestAppendKeepsOnlyIdentifiers: a tool name that is not shaped like an identifier
// (non-ASCII, markup, 1 MiB of anything) is left out rather than stored.
func TestAppendKeepsOnlyIdentifiers(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"ツール<&>", strings.Repeat("s", MaxRecordBytes), "mcp__windows-dev-agent__env_inspect"} {
		if err := Append(dir, Record{Event: "PostToolUse", ExecutionOutcome: Succeeded, ToolName: name}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), `"tool_name"`) != 1 || !strings.Contains(string(data), `"tool_name":"mcp__windows-dev-agent__env_inspect"`) {
		t.Errorf("log: %s", data)
	}
}

func TestAppendRejectsAndWritesNothing(t *testing.T) {
	ok := Record{Event: EventPostToolUse, ExecutionOutcome: Succeeded}
	tests := []struct {
		name    string
		mutate  func(*Record)
		wantErr string
	}{
		{"unknown outcome", func(r *Record) { r.ExecutionOutcome = "maybe" }, "execution_outcome"},
		{"missing outcome", func(r *Record) { r.ExecutionOutcome = "" }, "execution_outcome"},
		{"no event", func(r *Record) { r.Event = "" }, "lifecycle_event"},
		{"bad decision", func(r *Record) { r.PermissionDecision = "maybe" }, "permission_decision"},
		{"bad class", func(r *Record) { r.SafetyClass = "harmless" }, "safety_class"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			r := ok
			tt.mutate(&r)
			err := Append(dir, r)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Append error = %v, want one naming %q", err, tt.wantErr)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("a rejected record created the data dir (%v)", err)
			}
		})
	}
	if err := Append("", ok); err == nil {
		t.Error("Append with an empty data dir succeeded")
	}
}

// TestRotationContract is the rotation contract of docs/audit.md: with the cap lowered to 30
// bytes, a first record of more than 30 bytes stays in agent.log until the next append
// rotates it to agent.log.1; a third append replaces the old agent.log.1.
func TestRotationContract(t *testing.T) {
	dir := t.TempDir()
	l := logFile{dir: dir, limit: 30, timeout: time.Minute}
	ids := func(path string) []string {
		recs, _ := rawLines(t, path)
		var out []string
		for _, r := range recs {
			out = append(out, r["tool_use_id"].(string))
		}
		return out
	}
	steps := []struct{ prev, cur []string }{
		{nil, []string{"r0"}},
		{[]string{"r0"}, []string{"r1"}},
		{[]string{"r1"}, []string{"r2"}},
	}
	for i, st := range steps {
		if err := l.append(Record{Event: EventPostToolUse, ExecutionOutcome: Succeeded, ToolUseID: "r" + itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(st.prev, ids(filepath.Join(dir, PrevName))); d != "" {
			t.Errorf("after append %d, agent.log.1 (-want +got):\n%s", i, d)
		}
		if d := cmp.Diff(st.cur, ids(filepath.Join(dir, LogName))); d != "" {
			t.Errorf("after append %d, agent.log (-want +got):\n%s", i, d)
		}
	}
}

// TestRotationBound appends records of varying length under a small cap and checks the
// bound after every append: each segment stays within limit-1+longest line, there is
// one predecessor, and the retained records are the newest ones in order.
func TestRotationBound(t *testing.T) {
	dir := t.TempDir()
	const limit = 2000
	l := logFile{dir: dir, limit: limit, timeout: time.Minute}
	longest := 0
	for i := range 300 {
		r := Record{Event: EventPostToolUse, ExecutionOutcome: Succeeded, ToolUseID: itoa(i), AgentID: strings.Repeat("a", (i*37)%400)}
		line, err := r.normalize(fixedNow).line()
		if err != nil {
			t.Fatal(err)
		}
		longest = max(longest, len(line))
		if err := l.append(r); err != nil {
			t.Fatal(err)
		}
		prev, ps := rawLines(t, filepath.Join(dir, PrevName))
		cur, cs := rawLines(t, filepath.Join(dir, LogName))
		if ps > limit-1+int64(longest) || cs > limit-1+int64(longest) {
			t.Fatalf("after %d appends sizes are %d and %d, over %d", i+1, ps, cs, limit-1+longest)
		}
		all := append(prev, cur...)
		for j, ev := range all {
			if want := itoa(i - len(all) + 1 + j); ev["tool_use_id"] != want {
				t.Fatalf("after %d appends record %d is %v, want %s", i+1, j, ev["tool_use_id"], want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "agent.log.2")); !os.IsNotExist(err) {
		t.Errorf("agent.log.2 exists")
	}
}

func TestProductionBoundArithmetic(t *testing.T) {
	// Few records, production cap: everything survives in agent.log.
	dir := t.TempDir()
	for i := range 50 {
		if err := Append(dir, seqRecord(0, i, 10)); err != nil {
			t.Fatal(err)
		}
	}
	checkSequenced(t, dir, 1, 50, lineLen(t, 10), SegmentLimit)
}

func TestAppendLockTimeout(t *testing.T) {
	dir := t.TempDir()
	release, err := acquire(filepath.Join(dir, LockName), true, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	l := logFile{dir: dir, limit: SegmentLimit, timeout: 20 * time.Millisecond}
	r := Record{Event: EventPostToolUse, ExecutionOutcome: Succeeded}
	if err := l.append(r); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("append while the lock is held = %v, want ErrLockTimeout", err)
	}
	if _, err := os.Stat(filepath.Join(dir, LogName)); !os.IsNotExist(err) {
		t.Fatalf("a timed-out append wrote the log (%v)", err)
	}
	release()
	// The abandoned waiter gets the lock and must give it back: a patient append succeeds.
	l.timeout = time.Minute
	if err := l.append(r); err != nil {
		t.Fatalf("append after release: %v", err)
	}
}

// TestReadersNeverBlockWriters: a reader in the middle of a read holds both segments
// open; an append that rotates the log meanwhile neither waits (a 20 ms lock timeout
// is plenty) nor fails, even on Windows, where the open predecessor cannot simply be
// replaced. The reader still reads its snapshot whole, and a read while a writer holds
// the lock answers at once.
func TestReadersNeverBlockWriters(t *testing.T) {
	dir := t.TempDir()
	l := logFile{dir: dir, limit: int64(2*lineLen(t, 10) + 1), timeout: 20 * time.Millisecond}
	for i := range 6 { // prev 0..2, cur 3..5: the next append rotates
		if err := l.append(seqRecord(0, i, 10)); err != nil {
			t.Fatal(err)
		}
	}
	held := snapshot(dir, openRead)
	if len(held) != 2 {
		t.Fatalf("snapshot holds %d segments, want 2", len(held))
	}
	if err := l.append(seqRecord(0, 6, 10)); err != nil {
		t.Fatalf("append (with rotation) while a reader holds the segments: %v", err)
	}
	var old []map[string]any
	for _, h := range held {
		data, err := readHeld(h.f, h.info.Size())
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, ParseLines(data)...)
		h.f.Close()
	}
	if d := cmp.Diff([]string{"w000-0000000", "w000-0000001", "w000-0000002", "w000-0000003", "w000-0000004", "w000-0000005"}, useIDs(old)); d != "" {
		t.Errorf("the held snapshot (-want +got):\n%s", d)
	}
	release, err := acquire(filepath.Join(dir, LockName), true, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"w000-0000003", "w000-0000004", "w000-0000005", "w000-0000006"}, useIDs(got)); d != "" {
		t.Errorf("read after the rotation, writer lock held (-want +got):\n%s", d)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), asidePrefix) {
			t.Errorf("discarded predecessor %s left behind", e.Name())
		}
	}
}

// refuseReplace is a rename that fails whenever the target exists, like Windows when a
// reader holds the target open; with failFinal, moving agent.log fails as well.
func refuseReplace(failFinal bool) func(string, string) error {
	return func(oldpath, newpath string) error {
		if _, err := os.Lstat(newpath); err == nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errors.New("access denied")}
		}
		if failFinal && filepath.Base(oldpath) == LogName {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errors.New("sharing violation")}
		}
		return os.Rename(oldpath, newpath)
	}
}

// TestRotationAside is the portable twin of rotation on Windows with a reader holding
// the predecessor: the plain rename is refused, so the predecessor goes aside and is
// removed, and the outcome is the same as a plain rotation. When the final rename fails
// as well, the predecessor is restored, the append reports an error and writes nothing.
func TestRotationAside(t *testing.T) {
	dir := t.TempDir()
	// A leftover of an interrupted rotation is swept by the next one.
	writeSeg(t, dir, asidePrefix+"stale", "{}\n")
	l := logFile{dir: dir, limit: int64(lineLen(t, 10)), timeout: time.Minute, rename: refuseReplace(false)}
	for i := range 4 {
		if err := l.append(seqRecord(0, i, 10)); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	prev, _ := rawLines(t, filepath.Join(dir, PrevName))
	cur, _ := rawLines(t, filepath.Join(dir, LogName))
	if d := cmp.Diff([]string{"w000-0000002", "w000-0000003"}, useIDs(append(prev, cur...))); d != "" {
		t.Errorf("retained records (-want +got):\n%s", d)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 { // agent.log, agent.log.1, agent.log.lock
		t.Errorf("files left: %v", entries)
	}

	l.rename = refuseReplace(true)
	err := l.append(seqRecord(0, 4, 10))
	if err == nil || !strings.Contains(err.Error(), "rotating") {
		t.Fatalf("append with a failing rotation = %v, want a rotation error", err)
	}
	prev, _ = rawLines(t, filepath.Join(dir, PrevName))
	cur, _ = rawLines(t, filepath.Join(dir, LogName))
	if d := cmp.Diff([]string{"w000-0000002", "w000-0000003"}, useIDs(append(prev, cur...))); d != "" {
		t.Errorf("after a failed rotation (-want +got):\n%s", d)
	}
}

func TestWriteWholeReportsFailure(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	if err := writeWhole("/dev/full", []byte("{}\n")); err == nil {
		t.Fatal("a write to a full device reported success")
	}
}
