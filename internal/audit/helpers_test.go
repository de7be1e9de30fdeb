package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// seqRecord is a record of fixed length whose tool_use_id names its writer and its
// sequence number, so survivors can be checked per writer.
func seqRecord(writer, seq int, pad int) Record {
	return Record{
		Event:            EventPostToolUse,
		Success:          new(true),
		ExecutionStarted: new(true),
		ExecutionOutcome: Succeeded,
		ResultStatus:     new("completed"),
		SessionID:        "session-fixed",
		ToolName:         "capability_run",
		ToolUseID:        fmt.Sprintf("w%03d-%07d", writer, seq),
		AgentID:          strings.Repeat("x", pad),
	}
}

// lineLen is the length in bytes of seqRecord's JSON line (ts is fixed width).
func lineLen(t testing.TB, pad int) int {
	t.Helper()
	line, err := seqRecord(0, 0, pad).normalize(fixedNow).line()
	if err != nil {
		t.Fatal(err)
	}
	return len(line)
}

// rawLines reads a segment strictly: it must end in a newline and every line must be a
// JSON object. A missing file is zero lines.
func rawLines(t testing.TB, path string) ([]map[string]any, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, 0
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil, 0
	}
	if data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a newline: a torn record", filepath.Base(path))
	}
	var out []map[string]any
	for i, line := range bytes.Split(data[:len(data)-1], []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m == nil {
			t.Fatalf("%s line %d is not a JSON object (%v): %.120q", filepath.Base(path), i+1, err, line)
		}
		out = append(out, m)
	}
	return out, int64(len(data))
}

// checkSequenced verifies a log written by `writers` writers of `per` fixed-length
// records of `lineLen` bytes each under cap `limit`:
//   - every line of both segments parses and none is torn; no agent.log.2 exists;
//   - each segment is at most limit-1+lineLen bytes;
//   - the survivors are exactly what the bound allows. Appends are serialised, so the
//     records form one global sequence of N = writers*per; a segment is rotated when it
//     has reached limit bytes, i.e. after k = ceil(limit/lineLen) records. The current
//     file holds the last ((N-1) mod k)+1 records and agent.log.1 the k before them
//     (when N > k), so k + ((N-1) mod k) + 1 survive;
//   - the survivors are a global suffix, so each writer's survivors are a contiguous run
//     of its sequence ending at its last record, in order, agent.log.1 first.
func checkSequenced(t *testing.T, dir string, writers, per, lineLen int, limit int64) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "agent.log.2")); !os.IsNotExist(err) {
		t.Fatalf("a second predecessor exists: %v", err)
	}
	prev, prevSize := rawLines(t, filepath.Join(dir, PrevName))
	cur, curSize := rawLines(t, filepath.Join(dir, LogName))
	bound := limit - 1 + int64(lineLen)
	if prevSize > bound || curSize > bound {
		t.Fatalf("segment sizes %d (.1) and %d exceed the bound %d", prevSize, curSize, bound)
	}
	n := writers * per
	k := int((limit + int64(lineLen) - 1) / int64(lineLen))
	wantCur := (n-1)%k + 1
	wantPrev := 0
	if n > k {
		wantPrev = k
	}
	if len(prev) != wantPrev || len(cur) != wantCur {
		t.Fatalf("survivors: agent.log.1 has %d, agent.log has %d; want %d and %d (N=%d, k=%d)",
			len(prev), len(cur), wantPrev, wantCur, n, k)
	}
	next := map[int]int{} // writer -> next expected seq
	for _, ev := range append(prev, cur...) {
		id, _ := ev["tool_use_id"].(string)
		var w, seq int
		if _, err := fmt.Sscanf(id, "w%03d-%07d", &w, &seq); err != nil {
			t.Fatalf("bad tool_use_id %q", id)
		}
		if want, seen := next[w]; seen && seq != want {
			t.Fatalf("writer %d: record %d follows %d: survivors are not a contiguous suffix", w, seq, want-1)
		}
		next[w] = seq + 1
	}
	for w, nx := range next {
		if nx != per {
			t.Fatalf("writer %d: last surviving record is %d, want %d", w, nx-1, per-1)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
