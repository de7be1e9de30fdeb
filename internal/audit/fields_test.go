package audit

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// factOracle is factOf(decodeLine(line)): what lineFact must answer.
func factOracle(line []byte) (fact, bool) {
	full := decodeLine(line)
	if full == nil {
		return fact{}, false
	}
	return factOf(full), true
}

type factResult struct {
	F  fact
	OK bool
}

func diffFacts(line []byte) string {
	wf, wok := factOracle(line)
	gf, gok := lineFact(line, words{})
	return cmp.Diff(factResult{wf, wok}, factResult{gf, gok}, cmp.AllowUnexported(fact{}))
}

var summaryLineSeeds = []string{
	`{"schema_version":1,"ts":"2026-12-01T10:00:00.000000Z","lifecycle_event":"PostToolUse","lifecycle_success":true,"event":"PostToolUse","success":true,"execution_started":true,"execution_outcome":"succeeded","result_status":"completed","session_id":"s1","tool_name":"mcp__x__capability_run","tool_use_id":"toolu_1","duration_ms":1234.5,"error_present":false}`,
	`{"event":"PreToolUse","permission_denied":true,"permission_decision":"deny","session_id":"s1","tool_use_id":"u"}`,
	`{"execution_outcome":null,"success":false,"session_id":"s1"}`,
	`{"session_id":"s1","session_id":"s2"}`,
	`{"session_id":"s\u0031"}`,
	`{"sess\u0069on_id":"s1"}`,
	`{"session_id":"s1","nested":{"a":[1,2]}}`,
	`{"session_id":"s1","n":1e999}`,
	`{"session_id":"s1","n":-0.5E+3,"m":0}`,
	`{"session_id":"s1","n":01}`,
	`{"session_id":"s1","tool_name":"caf` + "\xc3\xa9" + `"}`,
	`{"session_id":"s1","tool_name":"bad` + "\xff" + `"}`,
	`{"session_id":"s1","x":"tab` + "\t" + `"}`,
	` { "session_id" : "s1" , "success" : true } `,
	`{"session_id":"s1"} trailing`,
	`{"session_id":"s1",}`,
	`{"session_id":truex}`,
	`{}`,
	`{`,
	`[]`,
	`{"session_id":"s1","success":nul}`,
	`{"execution_outcome":"failed","execution_outcome":null,"success":false}`,
	`{"event":"A","event":5,"tool_name":true,"execution_started":"true","permission_denied":1}`,
	`{"session_id":"s1","n":-}`,
	`{"session_id":"s1","n":1.}`,
	// Long strings, read eight bytes at a time, with the byte to stop at in each
	// position of a word.
	`{"session_id":"s1","tool_name":"go test ./... -run TestSomething -count 1 -v"}`,
	`{"session_id":"s1","x":"0123456789abcdef` + "\x01" + `0123"}`,
	`{"session_id":"s1","x":"0123456789abcde` + "\xc3\xa9" + `0123456789abcdef"}`,
	`{"session_id":"s1","x":"0123456789abcdefg` + "\xff" + `0123456789"}`,
	`{"session_id":"s1","x":"0123456789abcdefgh\u00410123456789"}`,
	`{"session_id":"s1","tool_name":"0123456789abcdefghi"}`,
	`{"session_id":"s1","x":"0123456789abcdefghij`,
}

func TestScanFactMatchesDecode(t *testing.T) {
	t.Parallel()
	for _, in := range summaryLineSeeds {
		if d := diffFacts([]byte(in)); d != "" {
			t.Errorf("%s (-decode +scan):\n%s", in, d)
		}
	}
	// The common records take the fast path.
	if _, ok := scanFact([]byte(summaryLineSeeds[0]), nil); !ok {
		t.Error("a record as Append writes it did not take the scanner's path")
	}
}

func FuzzScanFact(f *testing.F) {
	for _, s := range summaryLineSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			return // eachLine hands over nothing else
		}
		if d := diffFacts(line); d != "" {
			t.Errorf("%q (-decode +scan):\n%s", line, d)
		}
	})
}

// TestSessionSummaryMatchesSummarize: on a real log, the Stop hooks' summary is
// Summarize of ReadSession's records.
func TestSessionSummaryMatchesSummarize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, r := range []Record{
		{Event: EventPreToolUse, SessionID: "s1", ToolUseID: "u1", ToolName: "Bash", PermissionDenied: new(true), PermissionDecision: DecisionDeny, ExecutionOutcome: NotApplicable},
		{Event: EventPreToolUse, SessionID: "s1", ToolUseID: "u2", ToolName: "t", ExecutionOutcome: NotApplicable},
		{Event: EventPostToolUse, SessionID: "s1", ToolUseID: "u2", ToolName: "t", Success: new(true), ExecutionStarted: new(true), ExecutionOutcome: Succeeded},
		{Event: EventToolCall, SessionID: "s2", ToolName: "t", ExecutionOutcome: Failed},
		{Event: EventToolCall, SessionID: "s1", ToolName: "u", ExecutionOutcome: Failed, DurationMS: new(1.5)},
		{Event: EventToolCall, SessionID: "s1", ToolUseID: "u2", ToolName: "t", ExecutionOutcome: Succeeded},
	} {
		if err := Append(dir, r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	full, err := ReadSession(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	got, n, err := SessionSummary(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if n != len(full) || n != 5 {
		t.Fatalf("%d records summarised, ReadSession has %d", n, len(full))
	}
	if d := cmp.Diff(Summarize(full), got); d != "" {
		t.Errorf("summary (-Summarize +SessionSummary):\n%s", d)
	}
	if _, n, _ := SessionSummary(dir, "nobody"); n != 0 {
		t.Errorf("a session without records: %d", n)
	}
}

// TestMayStopNeverMisses: for every byte value at every position of a word of plain
// bytes, and for words of random bytes, mayStop is true whenever a byte of the word is
// one plainString must look at (false alarms are allowed).
func TestMayStopNeverMisses(t *testing.T) {
	t.Parallel()
	stops := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	check := func(word [8]byte) {
		want := false
		for _, c := range word {
			want = want || stops(c)
		}
		if want && !mayStop(binary.LittleEndian.Uint64(word[:])) {
			t.Errorf("mayStop(%q) = false; the word holds a byte to stop at", word[:])
		}
	}
	for _, plain := range []byte{'a', ' ', '~', '!', '#', '[', ']'} {
		for pos := range 8 {
			for c := range 256 {
				var w [8]byte
				for i := range w {
					w[i] = plain
				}
				w[pos] = byte(c)
				check(w)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		check(w)
	}
	if mayStop(binary.LittleEndian.Uint64([]byte("plain ok"))) {
		t.Error("mayStop of eight plain ASCII bytes is true: the fast path never runs")
	}
}
