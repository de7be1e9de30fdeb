package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewVocabulary(t *testing.T) {
	for _, bad := range []string{"", "OK", "ok!", "1ok", "_ok", "ok ok", "ok-ish", "é", strings.Repeat("a", MaxStatusWord+1)} {
		if v, err := NewVocabulary("ok", bad); err == nil || v != nil {
			t.Errorf("NewVocabulary(ok, %q) = %v, %v; want an error and no vocabulary", bad, v, err)
		} else if !strings.Contains(err.Error(), "status vocabulary word") {
			t.Errorf("error %q does not name the rule", err)
		}
	}
	v, err := NewVocabulary("ok", "issues_found", "v2", strings.Repeat("a", MaxStatusWord))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{strings.Repeat("a", MaxStatusWord), "issues_found", "ok", "v2"}, v.Words()); d != "" {
		t.Errorf("Words (-want +got):\n%s", d)
	}
	if v.Has("completed") || !v.Has("ok") {
		t.Error("Has does not follow the words")
	}
	var none *Vocabulary
	if !none.Has("completed") || none.Has("secret") {
		t.Error("a nil vocabulary is not DefaultVocabulary")
	}
}

func TestResultStatusVocabulary(t *testing.T) {
	onlyOK, err := NewVocabulary("ok")
	if err != nil {
		t.Fatal(err)
	}
	empty, err := NewVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   OutcomeInput
		want *string
	}{
		{"default vocabulary keeps a known word", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "completed"}}, new("completed")},
		{"a free string is not established", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": secret}}, nil},
		{"a word shape is not enough", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "sk_live_abc"}}, nil},
		{"case matters", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "Completed"}}, nil},
		{"the call's own vocabulary wins", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "completed"}, Vocabulary: onlyOK}, nil},
		{"in the call's own vocabulary", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "ok"}, Vocabulary: onlyOK}, new("ok")},
		{"an empty vocabulary records no status", OutcomeInput{Event: EventPostToolUse, Result: obj{"status": "ok"}, Vocabulary: empty}, nil},
		// A plan without a status is "planned" whatever the vocabulary: the word is the
		// derivation's own, not the result's.
		{"plan fallback", OutcomeInput{Event: EventPostToolUse, HasExecute: true, Vocabulary: empty}, new("planned")},
		// A plan whose result has an unknown status: not established, still not executed.
		{"plan with a planted status", OutcomeInput{Event: EventPostToolUse, HasExecute: true, Result: obj{"status": secret}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, ResultStatus(tt.in)); d != "" {
				t.Errorf("ResultStatus (-want +got):\n%s", d)
			}
		})
	}
	if o := Outcome(OutcomeInput{Event: EventPostToolUse, HasExecute: true, Result: obj{"status": secret}}); o != NotExecuted {
		t.Errorf("a plan with a planted status is %q, want not_executed", o)
	}
}

// TestPlantedStatusNeverStored is issue 15.9 end to end for the hook path: a
// tool_response whose status is a secret (and one of 64 KiB) gives a record with
// result_status null, and neither string reaches the file.
func TestPlantedStatusNeverStored(t *testing.T) {
	dir := t.TempDir()
	big := "x" + strings.Repeat("Y", 64*1024)
	for _, status := range []string{secret, big, "completed " + secret} {
		for _, resp := range []any{
			obj{"status": status, "execution_started": true},
			obj{"content": []any{obj{"type": "text", "text": `{"status":"` + status + `"}`}}},
		} {
			in := FromToolInput(EventPostToolUse, "mcp__windows-dev-agent__capability_run", obj{"execute": true}, DecodeResult(resp))
			r := Record{Event: EventPostToolUse, ExecutionStarted: ExecutionStarted(in), ExecutionOutcome: Outcome(in), ResultStatus: ResultStatus(in)}
			if r.ResultStatus != nil {
				t.Fatalf("result_status %.40q was kept", *r.ResultStatus)
			}
			if err := Append(dir, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	assertNoLeak(t, dir, secret, "YYYYYYYY")
	recs, _ := rawLines(t, filepath.Join(dir, LogName))
	for _, rec := range recs {
		if v, has := rec["result_status"]; !has || v != nil {
			t.Errorf("result_status = %v (present %v), want null", v, has)
		}
	}
}

// TestAppendRefusesFreeStatus: a hand-built record cannot store a free string either,
// and the refusal does not repeat it.
func TestAppendRefusesFreeStatus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	err := Append(dir, Record{Event: EventPostToolUse, ExecutionOutcome: Unknown, ResultStatus: new(secret)})
	if err == nil || !strings.Contains(err.Error(), "result_status") {
		t.Fatalf("Append = %v, want an error naming result_status", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("the error repeats the refused value: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused record created the data dir (%v)", err)
	}
}

// secret is planted in fields that must never reach the log.
const secret = "SECRET-7f3a9c-do-not-log"

// assertNoLeak greps every retained segment for each needle.
func assertNoLeak(t *testing.T, dir string, needles ...string) {
	t.Helper()
	for _, name := range []string{LogName, PrevName} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for _, n := range needles {
			if strings.Contains(string(data), n) {
				t.Errorf("%s contains %q:\n%s", name, n, data)
			}
		}
	}
}

// TestIdentifiersAreBounded: identifier fields copied from hook events keep only values
// shaped like identifiers, so a planted secret with spaces, or 64 KiB of anything, is
// left out.
func TestIdentifiersAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	planted := secret + " " + strings.Repeat("x", 70000)
	err := Append(dir, Record{Event: EventPostToolUse, ExecutionOutcome: NotApplicable,
		SessionID: planted, AgentID: "a b", AgentType: "t\n", ToolUseID: strings.Repeat("u", MaxIdentifier+1),
		ToolName: "mcp__windows-dev-agent__env_inspect"})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Read(dir)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v %v", recs, err)
	}
	for _, k := range []string{"session_id", "agent_id", "agent_type", "tool_use_id"} {
		if _, ok := recs[0][k]; ok {
			t.Errorf("%s kept: %v", k, recs[0][k])
		}
	}
	if recs[0]["tool_name"] != "mcp__windows-dev-agent__env_inspect" {
		t.Errorf("tool_name = %v", recs[0]["tool_name"])
	}
	assertNoLeak(t, dir, secret)
}
