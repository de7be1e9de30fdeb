package auditexport

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// secret is planted in arguments, results and error texts; it must never reach the
// collector.
const secret = "s3cr3t-AKIA-7f3e9b"

// appendCalls appends n server records with planted secrets in their result; each
// record's session id numbers it.
func appendCalls(t *testing.T, dir string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		res, _ := json.Marshal(map[string]any{"status": "completed", "succeeded": i%3 != 0, "execution_started": true,
			"stdout": secret, "error": "boom " + secret, "command": "git push " + secret})
		r := audit.FromCall(audit.Call{Tool: "capability_run", Class: "approval-required", Host: "claude",
			SessionID: fmt.Sprintf("s-%05d", i), Duration: 1500 * time.Microsecond, Execute: true, PlanFirst: true,
			MayStartProcess: true, Result: res, Capability: "git.status"})
		if err := audit.Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
}

func newTestShipper(t *testing.T, dir string, rc *receiver) *Shipper {
	t.Helper()
	exp, err := NewExporter(context.Background(), rc.config())
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{DataDir: dir, Exporter: exp, Resource: Resource("1.2.3"), MaxBatch: 50})
}

// sessions lists the session ids received, in order.
func sessions(recs []received) []string {
	var out []string
	for _, r := range recs {
		if s, ok := r.Attrs["session_id"].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func want(from, n int) []string {
	var out []string
	for i := from; i < from+n; i++ {
		out = append(out, fmt.Sprintf("s-%05d", i))
	}
	return out
}

func TestExportBothProtocols(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{ProtocolHTTP, ProtocolGRPC} {
		t.Run(proto, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			rc := newReceiver(t, proto)
			appendCalls(t, dir, 0, 120)
			// A legacy line that carried the arguments and output: only the fields the
			// record type has may leave.
			legacy := fmt.Sprintf(`{"event":"PostToolUse","tool_name":"Bash","session_id":"legacy-1","tool_input":{"command":"curl -H 'X: %s'"},"tool_response":"%s","execution_outcome":"succeeded"}`+"\n", secret, secret)
			f, err := os.OpenFile(filepath.Join(dir, audit.LogName), os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(legacy)
			f.Close()
			s := newTestShipper(t, dir, rc)
			st, err := s.step(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.Exported != 121 || st.GapBytes != -1 {
				t.Fatalf("stats %+v, want 121 exported and no gap", st)
			}
			got := rc.records()
			if diff := cmp.Diff(append(want(0, 120), "legacy-1"), sessions(got)); diff != "" {
				t.Fatalf("sessions (-want +got):\n%s", diff)
			}
			r0 := got[0]
			for _, k := range []string{"service.name", "service.version", "host.name", "os.type", "host.arch"} {
				if r0.Resource[k] == nil || r0.Resource[k] == "" {
					t.Errorf("resource attribute %s missing: %v", k, r0.Resource)
				}
			}
			if r0.Resource["service.name"] != "wda" || r0.Resource["service.version"] != "1.2.3" {
				t.Errorf("resource %v", r0.Resource)
			}
			wantAttrs := map[string]any{"schema_version": int64(1), "lifecycle_event": "tools/call", "event": "tools/call",
				"lifecycle_success": true, "success": true, "execution_started": true, "execution_outcome": "failed",
				"result_status": "completed", "session_id": "s-00000", "tool_name": "capability_run", "duration_ms": 1.5,
				"error_present": true, "safety_class": "approval-required", "host": "claude", "capability": "git.status",
				"ts": mustRead(t, dir)[0]["ts"]}
			if diff := cmp.Diff(wantAttrs, r0.Attrs); diff != "" {
				t.Errorf("attributes (-want +got):\n%s", diff)
			}
			if r0.EventName != EventName || r0.Severity != "ERROR" || r0.Body != "tools/call capability_run" || r0.Scope != ScopeName {
				t.Errorf("record %+v", r0)
			}
			if got[1].Severity != "INFO" {
				t.Errorf("a succeeded call has severity %s", got[1].Severity)
			}
			ts, _ := time.Parse(time.RFC3339Nano, mustRead(t, dir)[0]["ts"].(string))
			if !r0.Time.Equal(ts) {
				t.Errorf("timestamp %v, the record's ts %v", r0.Time, ts)
			}
			leg := got[120]
			if diff := cmp.Diff(map[string]any{"event": "PostToolUse", "lifecycle_event": "PostToolUse", "tool_name": "Bash",
				"session_id": "legacy-1", "execution_outcome": "succeeded"}, leg.Attrs); diff != "" {
				t.Errorf("legacy record attributes (-want +got):\n%s", diff)
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			for _, b := range rc.raw {
				if strings.Contains(string(b), secret) || strings.Contains(string(b), "git push") {
					t.Fatal("an argument, output or error text reached the collector")
				}
			}
		})
	}
}

func mustRead(t *testing.T, dir string) []map[string]any {
	t.Helper()
	recs, err := audit.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCollectorDownThenUp: while the collector refuses, nothing moves; once it answers,
// every record arrives exactly once, in order.
func TestCollectorDownThenUp(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{ProtocolHTTP, ProtocolGRPC} {
		t.Run(proto, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			rc := newReceiver(t, proto)
			s := newTestShipper(t, dir, rc)
			appendCalls(t, dir, 0, 30)
			rc.down.Store(true)
			if _, err := s.step(context.Background()); err == nil {
				t.Fatal("a pass with the collector down reported success")
			}
			if _, err := os.Stat(filepath.Join(dir, audit.CursorName)); !os.IsNotExist(err) {
				t.Fatalf("the cursor moved while the collector was down: %v", err)
			}
			appendCalls(t, dir, 30, 30)
			rc.down.Store(false)
			if _, err := s.step(context.Background()); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want(0, 60), sessions(rc.records())); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCollectorDownMidway: a collector that fails after some batches were acknowledged
// gets the rest, and not the acknowledged ones again.
func TestCollectorDownMidway(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolHTTP)
	s := newTestShipper(t, dir, rc)
	appendCalls(t, dir, 0, 75)
	// A failing exporter after the first batch: wrap it.
	exp := s.o.Exporter
	calls := 0
	s.o.Exporter = exporterFunc{exp, func() { calls++; rc.down.Store(calls > 1) }}
	if _, err := s.step(context.Background()); err == nil {
		t.Fatal("want an error from the second batch")
	}
	rc.down.Store(false)
	s.o.Exporter = exp
	if _, err := s.step(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want(0, 75), sessions(rc.records())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestRestart: a new shipper (a restarted server) sends what came after the cursor and
// nothing before it.
func TestRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolGRPC)
	appendCalls(t, dir, 0, 40)
	if _, err := newTestShipper(t, dir, rc).step(context.Background()); err != nil {
		t.Fatal(err)
	}
	appendCalls(t, dir, 40, 25)
	st, err := newTestShipper(t, dir, rc).step(context.Background())
	if err != nil || st.Exported != 25 {
		t.Fatalf("restart exported %d (%v), want 25", st.Exported, err)
	}
	if diff := cmp.Diff(want(0, 65), sessions(rc.records())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// fakeClock hands Run a channel per wait and records what it asked for.
type fakeClock struct {
	mu    sync.Mutex
	waits []time.Duration
	asked chan time.Duration
	fire  chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{asked: make(chan time.Duration, 100), fire: make(chan time.Time)}
}

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	c.asked <- d
	return c.fire
}

// next waits until Run asks for a wait and returns it.
func (c *fakeClock) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-c.asked:
		return d
	case <-time.After(20 * time.Second):
		t.Fatal("the shipper did not wait")
	}
	return 0
}

// TestTwoShippersNoDuplicates: two servers share a log; one exports, the other stands
// by and takes over when the first exits, and no record arrives twice.
func TestTwoShippersNoDuplicates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolHTTP)
	appendCalls(t, dir, 0, 20)
	a, b := newTestShipper(t, dir, rc), newTestShipper(t, dir, rc)
	ca, cb := newFakeClock(), newFakeClock()
	a.o.After, b.o.After = ca.after, cb.after
	ctxA, stopA := context.WithCancel(context.Background())
	ctxB, stopB := context.WithCancel(context.Background())
	doneA, doneB := make(chan struct{}), make(chan struct{})
	go func() { a.Run(ctxA); close(doneA) }()
	if d := ca.next(t); d != DefaultPoll { // a holds the lock and passed once
		t.Fatalf("first wait %v", d)
	}
	go func() { b.Run(ctxB); close(doneB) }()
	appendCalls(t, dir, 20, 10)
	ca.fire <- time.Now()
	ca.next(t)
	rc.waitFor(30)
	appendCalls(t, dir, 30, 5)
	stopA() // a's last pass sends the 5, then it lets go of the lock
	<-doneA
	if d := cb.next(t); d != DefaultPoll { // b took over and passed once
		t.Fatalf("b's first wait %v", d)
	}
	appendCalls(t, dir, 35, 7)
	stopB()
	<-doneB
	if diff := cmp.Diff(want(0, 42), sessions(rc.records())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestBackoff: while the collector is down the waits double up to the bound (no busy
// loop); once it answers, the waiting records go out and the poll interval returns.
func TestBackoff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := newReceiver(t, ProtocolHTTP)
	rc.down.Store(true)
	appendCalls(t, dir, 0, 3)
	s := newTestShipper(t, dir, rc)
	s.o.MaxBackoff = 8 * time.Second
	var warns []string
	var wmu sync.Mutex
	s.o.Warn = func(m string) { wmu.Lock(); warns = append(warns, m); wmu.Unlock() }
	c := newFakeClock()
	s.o.After = c.after
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	var got []time.Duration
	for range 5 {
		got = append(got, c.next(t))
		c.fire <- time.Now()
	}
	rc.down.Store(false)
	got = append(got, c.next(t))
	stop()
	<-done
	if diff := cmp.Diff([]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, DefaultPoll}, got); diff != "" {
		t.Fatalf("waits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want(0, 3), sessions(rc.records())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	wmu.Lock()
	defer wmu.Unlock()
	if len(warns) != 2 {
		t.Fatalf("want one warning going down and one coming back, got %q", warns)
	}
	for _, w := range warns {
		if strings.Contains(w, "test-token") {
			t.Fatal("a warning printed a header value")
		}
	}
}

// exporterFunc wraps an exporter with a hook run before each export.
type exporterFunc struct {
	sdkExporter
	before func()
}

func (e exporterFunc) Export(ctx context.Context, recs []sdklogRecord) error {
	e.before()
	return e.sdkExporter.Export(ctx, recs)
}
