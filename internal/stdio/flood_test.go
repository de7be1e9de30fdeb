package stdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/stdio"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools/all"
)

// scaled divides a flood's size (and its queue) by floodScale, and by at least 5 under
// Wine, whose file reads make each logs_query of a full flood several times slower
// (67 s for the 1,500): a smaller flood still queues far past the bound and checks the
// same promises.
func scaled(f flood) flood {
	d := floodScale
	if testkit.UnderWine() {
		d = max(d, 5)
	}
	f.n /= d
	f.queued /= d
	return f
}

// flood is a number of requests pipelined at once; request i is line(i).
type flood struct {
	name  string
	n     int
	line  func(i int) string
	tools func(i int) string // the tool request i calls, "" for none
	// queued overrides the transport's MaxQueued (0: the default).
	queued int
}

func floodCall(i int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i, tool, args)
}

var mixedKinds = []struct{ tool, args, raw string }{
	{tool: "logs_query", args: `{"last_n":200}`},
	{tool: "workflow_plan", args: `{"task":"run the go tests"}`},
	{raw: `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`},
	{raw: `{"jsonrpc":"2.0","id":%d,"method":"ping"}`},
	{tool: "mcp_audit", args: `{}`},
	{tool: "capability_run", args: `{"capability":"test-go"}`},
}

var floods = []flood{
	{name: "logs_query", n: 1500,
		line:  func(i int) string { return floodCall(i, "logs_query", `{"last_n":200}`) },
		tools: func(int) string { return "logs_query" }},
	// A queue shorter than the flood: some requests are refused as busy, and only the
	// others may leave audit records.
	{name: "mixed", n: 1500, queued: 200,
		line: func(i int) string {
			k := mixedKinds[i%len(mixedKinds)]
			if k.raw != "" {
				return fmt.Sprintf(k.raw, i)
			}
			return floodCall(i, k.tool, k.args)
		},
		tools: func(i int) string { return mixedKinds[i%len(mixedKinds)].tool }},
}

// floodResult is what a flood left behind.
type floodResult struct {
	replies  map[int][]int64 // id -> the error code of each reply (0: a result)
	records  map[string]int  // audit records per tool
	most     int64           // the most requests the server ran at once
	peakHeap uint64          // the most HeapInuse seen as a request ended
	bound    int
}

// runFlood serves the ten tools with the real pipeline and audit log over the
// transport, pipelines the flood after an initialize, reads every reply, and returns
// the replies, the audit records, and what a middleware saw: how many requests ran at
// once and the peak heap (sampled as each request ends, never on a timer).
func runFlood(t testing.TB, f flood) floodResult {
	f = scaled(f)
	dataDir, project := t.TempDir(), t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := runtime.NewServer(all.New(all.Config{}), runtime.Options{DataDir: dataDir, ProjectDir: project, Logger: quiet})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &stdio.Transport{In: inR, Out: outW, MaxQueued: f.queued}
	var running, most atomic.Int64
	var peak atomic.Uint64
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if strings.HasPrefix(method, "notifications/") {
				return next(ctx, method, req)
			}
			raise(&most, running.Add(1))
			defer func() {
				running.Add(-1)
				var ms goruntime.MemStats
				goruntime.ReadMemStats(&ms)
				for p := peak.Load(); ms.HeapInuse > p && !peak.CompareAndSwap(p, ms.HeapInuse); p = peak.Load() {
				}
			}()
			return next(ctx, method, req)
		}
	})
	srv.AddReceivingMiddleware(tr.Middleware())
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), tr)
		outW.Close()
	}()
	go func() {
		w := bufio.NewWriter(inW)
		fmt.Fprintln(w, initLine)
		fmt.Fprintln(w, initializedLine)
		for i := 1; i <= f.n; i++ {
			fmt.Fprintln(w, f.line(i))
		}
		w.Flush()
	}()
	res := floodResult{replies: map[int][]int64{}, records: map[string]int{}, bound: stdio.DefaultMaxInFlight}
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for got := 0; got < f.n+1 && sc.Scan(); {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("output line is not a JSON object: %.200q", sc.Bytes())
		}
		if m["method"] != nil {
			continue
		}
		var id int
		if err := json.Unmarshal(m["id"], &id); err != nil {
			t.Fatalf("reply with id %s", m["id"])
		}
		res.replies[id] = append(res.replies[id], summarize(m).Code)
		got++
	}
	inW.Close()
	go io.Copy(io.Discard, outR) //nolint:errcheck // nothing more is expected; drain whatever comes
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	// A record not written within its caller's wait is kept and written later: wait
	// for those before counting.
	if err := audit.Flush(time.Minute); err != nil {
		t.Fatal(err)
	}
	evs, err := audit.Read(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		name, _ := ev["tool_name"].(string)
		res.records[name]++
	}
	res.most, res.peakHeap = most.Load(), peak.Load()
	return res
}

// TestFloodAnsweredOnceAuditedBounded is issue 22 §3: a flood of pipelined requests
// into the real server (the ten tools, the pipeline, the audit log) over the stdio
// transport. Every request is answered exactly once, with its result or a busy refusal;
// the audit log holds exactly one record per call that ran (none lost, none for a
// refused request); and no more requests ever run at once than the transport's bound,
// counted by a middleware, not timed. Before, all 1,500 ran at once.
func TestFloodAnsweredOnceAuditedBounded(t *testing.T) {
	for _, f := range floods {
		t.Run(f.name, func(t *testing.T) {
			res := runFlood(t, f)
			f = scaled(f)
			wantRecords := map[string]int{}
			busy := 0
			for i := 1; i <= f.n; i++ {
				codes := res.replies[i]
				if len(codes) != 1 {
					t.Fatalf("request %d answered %d times (%v), want once", i, len(codes), codes)
				}
				switch codes[0] {
				case 0:
					if tool := f.tools(i); tool != "" {
						wantRecords[tool]++
					}
				case stdio.CodeServerBusy:
					busy++
				default:
					t.Errorf("request %d answered with error %d", i, codes[0])
				}
			}
			if f.queued == 0 && busy > 0 {
				t.Errorf("%d requests refused as busy with the default queue of %d", busy, stdio.DefaultMaxQueued)
			}
			if d := cmp.Diff(wantRecords, res.records); d != "" {
				t.Errorf("audit records per tool (-one per call that ran +in the log):\n%s", d)
			}
			if res.most > int64(res.bound) {
				t.Errorf("%d requests ran at once, more than the bound %d", res.most, res.bound)
			}
			t.Logf("%d requests: %d busy, at most %d at once, peak heap in use %.1f MiB",
				f.n, busy, res.most, float64(res.peakHeap)/(1<<20))
		})
	}
}

// BenchmarkFlood runs each flood once per iteration and reports the peak heap in use
// (sampled as each request ends) and how many requests ran at once. The guarantee is
// the bound on requests in flight; the heap figure shows what it buys.
func BenchmarkFlood(b *testing.B) {
	for _, f := range floods {
		b.Run(f.name, func(b *testing.B) {
			var peak uint64
			var most int64
			for b.Loop() {
				res := runFlood(b, f)
				peak = max(peak, res.peakHeap)
				most = max(most, res.most)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(most), "max-in-flight")
		})
	}
}
