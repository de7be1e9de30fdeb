package audit

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// summaryOracle is decodeLine cut to summaryKeys: what summaryLine must answer.
func summaryOracle(line []byte) map[string]any {
	full := decodeLine(line)
	if full == nil {
		return nil
	}
	m := map[string]any{}
	for _, k := range summaryKeys {
		if v, ok := full[k]; ok {
			m[k] = v
		}
	}
	return m
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
}

func TestSummaryLineMatchesDecode(t *testing.T) {
	t.Parallel()
	for _, in := range summaryLineSeeds {
		if d := cmp.Diff(summaryOracle([]byte(in)), summaryLine([]byte(in), words{})); d != "" {
			t.Errorf("%s (-decode +summaryLine):\n%s", in, d)
		}
	}
	// The common records take the fast path.
	if _, ok := scanFlat([]byte(summaryLineSeeds[0]), nil); !ok {
		t.Error("a record as Append writes it did not take the scanner's path")
	}
}

func FuzzSummaryLine(f *testing.F) {
	for _, s := range summaryLineSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			return // eachLine hands over nothing else
		}
		if d := cmp.Diff(summaryOracle(line), summaryLine(line, words{})); d != "" {
			t.Errorf("%q (-decode +summaryLine):\n%s", line, d)
		}
	})
}

// TestReadSessionSummaryMatchesReadSession: on a real log, the summary reader gives
// ReadSession's records cut to the summary's members, and the same Summary.
func TestReadSessionSummaryMatchesReadSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, r := range []Record{
		{Event: EventPreToolUse, SessionID: "s1", ToolUseID: "u1", ToolName: "Bash", PermissionDenied: new(true), PermissionDecision: DecisionDeny, ExecutionOutcome: NotApplicable},
		{Event: EventPostToolUse, SessionID: "s1", ToolUseID: "u2", ToolName: "t", Success: new(true), ExecutionStarted: new(true), ExecutionOutcome: Succeeded},
		{Event: EventToolCall, SessionID: "s2", ToolName: "t", ExecutionOutcome: Failed},
		{Event: EventToolCall, SessionID: "s1", ToolName: "t", ExecutionOutcome: Failed, DurationMS: new(1.5)},
	} {
		if err := Append(dir, r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	full, err := ReadSession(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	cut, err := ReadSessionSummary(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != 3 || len(cut) != len(full) {
		t.Fatalf("%d full records, %d cut", len(full), len(cut))
	}
	for i := range full {
		want := map[string]any{}
		for _, k := range summaryKeys {
			if v, ok := full[i][k]; ok {
				want[k] = v
			}
		}
		if d := cmp.Diff(want, cut[i]); d != "" {
			t.Errorf("record %d (-want +got):\n%s", i, d)
		}
	}
	if d := cmp.Diff(Summarize(full), Summarize(cut)); d != "" {
		t.Errorf("summary (-full +cut):\n%s", d)
	}
}
