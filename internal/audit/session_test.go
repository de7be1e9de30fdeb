package audit

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// readSessionOracle is ReadSession as it was before the byte filter: decode every
// retained record, keep those whose session_id is the string sessionID.
func readSessionOracle(dataDir, sessionID string) ([]map[string]any, error) {
	all, err := Read(dataDir)
	if err != nil || sessionID == "" {
		return all, err
	}
	var out []map[string]any
	for _, ev := range all {
		if s, ok := ev["session_id"].(string); ok && s == sessionID {
			out = append(out, ev)
		}
	}
	return out, nil
}

// fixtureSessions are the session ids asked of testdata/session: plain, escaped in the
// log, needing escapes, non-ASCII, U+2028, U+FFFD, invalid UTF-8, absent, and "" (all).
var fixtureSessions = []string{"s1", "s2", "a/b", `q"1`, "セッション", "ls\u20281", "<s1>", "s\uFFFD1", "s\xff1", "1", "missing", ""}

// TestReadSessionGolden: over a fixture log full of near misses, ReadSession returns
// exactly what decoding every record and comparing would (the oracle), and that output
// is pinned in testdata/session.golden.
func TestReadSessionGolden(t *testing.T) {
	var golden bytes.Buffer
	for _, sid := range fixtureSessions {
		got, err := ReadSession("testdata/session", sid)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readSessionOracle("testdata/session", sid)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("ReadSession(%q) differs from decoding everything (-want +got):\n%s", sid, d)
		}
		fmt.Fprintf(&golden, "session %q: %d records\n", sid, len(got))
		for _, ev := range got {
			line, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			golden.Write(append(line, '\n'))
		}
	}
	testkit.Golden(t, "testdata/session.golden", golden.Bytes(), *update)
}

// FuzzSessionFilter: over any bytes, the lines the byte filter hands on that match are
// exactly the matching lines of all lines, in order: none dropped, none twice.
func FuzzSessionFilter(f *testing.F) {
	f.Add([]byte(`{"session_id":"s1"}`), "s1")
	f.Add([]byte(`{"session_id":"s\u0031"}`), "s1")
	f.Add([]byte(`{"session\u005fid":"s1"}`), "s1")
	f.Add([]byte("{\"session_id\":\"s\xff1\"}"), "s\uFFFD1")
	f.Add([]byte("{\"session_id\":\"ls\u20281\"}"), "ls\u20281")
	f.Add([]byte(`{"session_id":"q\"1"}`), `q"1`)
	f.Add([]byte(`{"session_id" : "s1" , "session_id":"s2"}`), "s2")
	f.Add([]byte("{\"a\":\"\\\\\"}\n{\"session_id\":\"s1\"}\n\"s1\"{\"session_id\":\"s1\"}\n"), "s1")
	f.Fuzz(func(t *testing.T, data []byte, sid string) {
		var want, got [][]byte
		eachLine(data, func(line []byte) {
			if s, ok := decodeLine(line)["session_id"].(string); ok && s == sid {
				want = append(want, line)
			}
		})
		sessionLines(data, sid, func(line []byte) {
			if s, ok := decodeLine(line)["session_id"].(string); ok && s == sid {
				got = append(got, line)
			}
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("matching lines for %q (-all lines decoded +filtered):\n%s", sid, d)
		}
	})
}
