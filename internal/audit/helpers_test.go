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

// checkSnapshot verifies one read of a log written with seqRecord, given the
// tool_use_id of each record read: every record names a writer and a sequence number,
// none appears twice, and each writer's records form one contiguous run of its
// sequence, in order. The log only ever drops its oldest records (one whole segment at
// a rotation), so every consistent snapshot has this shape; a read that mixed segments
// of different moments would show a gap or a repeat. With fromZero (nothing was
// discarded yet) each run must start at 0. It returns the next sequence number expected
// of each writer, i.e. how many of its records the read covered.
func checkSnapshot(ids []string, fromZero bool) (map[int]int, error) {
	next := map[int]int{}
	for i, id := range ids {
		var w, seq int
		if _, err := fmt.Sscanf(id, "w%03d-%07d", &w, &seq); err != nil {
			return nil, fmt.Errorf("record %d: bad tool_use_id %q", i, id)
		}
		want, seen := next[w]
		switch {
		case !seen && fromZero && seq != 0:
			return nil, fmt.Errorf("writer %d: first record read is %d, want 0 (records lost)", w, seq)
		case seen && seq < want:
			return nil, fmt.Errorf("writer %d: record %d read twice or out of order (after %d)", w, seq, want-1)
		case seen && seq > want:
			return nil, fmt.Errorf("writer %d: records %d..%d missing from the read", w, want, seq-1)
		}
		next[w] = seq + 1
	}
	return next, nil
}

// rawIDs is a fast reader for the concurrency tests: one snapshot of the log, exactly
// as Read takes it, with the tool_use_id of each whole seqRecord line picked out by a
// byte search instead of a JSON decode, so a reader loops hundreds of times while the
// writers run. A line still being written (no closing brace yet) is skipped, as Read
// skips it.
func rawIDs(dir string) ([]string, error) {
	segs, err := readRetained(dir, openRead)
	if err != nil {
		return nil, err
	}
	marker := []byte(`"tool_use_id":"`)
	var ids []string
	for _, seg := range segs {
		var bad error
		eachLine(seg, func(line []byte) {
			if line[len(line)-1] != '}' || bad != nil {
				return
			}
			i := bytes.Index(line, marker)
			if i < 0 {
				bad = fmt.Errorf("a whole line without tool_use_id: %.80q", line)
				return
			}
			rest := line[i+len(marker):]
			ids = append(ids, string(rest[:bytes.IndexByte(rest, '"')]))
		})
		if bad != nil {
			return nil, bad
		}
	}
	return ids, nil
}

// useIDs lists the tool_use_id of each record.
func useIDs(evs []map[string]any) []string {
	out := []string{}
	for _, ev := range evs {
		s, _ := ev["tool_use_id"].(string)
		out = append(out, s)
	}
	return out
}
