package audit

import (
	"fmt"
	"slices"
	"strings"
)

// Summary is the audit summary of a list of records (discovery.md §4.8). JSON names are
// the reference's keys.
type Summary struct {
	TotalEvents            int            `json:"total_events"`
	EventTypes             map[string]int `json:"event_types"`
	Tools                  map[string]int `json:"tools"`
	ExecutionSucceeded     int            `json:"execution_succeeded"`
	ExecutionFailed        int            `json:"execution_failed"`
	ExecutionUnknown       int            `json:"execution_unknown"`
	NotExecuted            int            `json:"not_executed"`
	NotApplicable          int            `json:"not_applicable"`
	ExternalProcessStarted int            `json:"external_process_started"`
	PermissionDenials      int            `json:"permission_denials"`
	LastFailureTool        string         `json:"last_failure_tool,omitempty"`
	LastDeniedTool         string         `json:"last_denied_tool,omitempty"`
}

// IsFailure is the failure rule shared by the failures filter and the summary: outcome
// failed, or a legacy record without execution_outcome whose success is false.
// unknown is never a failure.
func IsFailure(ev map[string]any) bool {
	if o, has := ev["execution_outcome"]; has {
		return o == Failed
	}
	return ev["success"] == false
}

// Summarize counts events. Outcome counters count only the five legal values;
// external_process_started counts execution_started === true whatever the outcome; a
// permission denial counts only as a denial.
func Summarize(events []map[string]any) Summary {
	s := Summary{TotalEvents: len(events), EventTypes: map[string]int{}, Tools: map[string]int{}}
	for _, ev := range events {
		name, _ := ev["event"].(string)
		if name == "" {
			name = "unknown"
		}
		s.EventTypes[name]++
		tool, _ := ev["tool_name"].(string)
		if tool != "" {
			s.Tools[tool]++
		}
		switch ev["execution_outcome"] {
		case Succeeded:
			s.ExecutionSucceeded++
		case Unknown:
			s.ExecutionUnknown++
		case NotExecuted:
			s.NotExecuted++
		case NotApplicable:
			s.NotApplicable++
		}
		if IsFailure(ev) {
			s.ExecutionFailed++
			s.LastFailureTool = tool
		}
		if ev["execution_started"] == true {
			s.ExternalProcessStarted++
		}
		if ev["permission_denied"] == true {
			s.PermissionDenials++
			s.LastDeniedTool = tool
		}
	}
	return s
}

// CodexMessage is the Codex Stop hook's systemMessage text (hosts.md §2.6).
func (s Summary) CodexMessage() string {
	return fmt.Sprintf("Windows Dev Agent session audit: events=%d, execution_succeeded=%d, execution_failed=%d, execution_unknown=%d, not_executed=%d, external_process_started=%d, permission_denials=%d.",
		s.TotalEvents, s.ExecutionSucceeded, s.ExecutionFailed, s.ExecutionUnknown, s.NotExecuted, s.ExternalProcessStarted, s.PermissionDenials)
}

// Text is the Claude Stop report (discovery.md §4.8): "Session Audit" when scoped to one
// session, "Persistent Audit History" otherwise.
func (s Summary) Text(scoped bool) string {
	var b strings.Builder
	heading, where := "Persistent Audit History", "in the retained history"
	if scoped {
		heading, where = "Session Audit", "in this session"
	}
	fmt.Fprintf(&b, "Windows Dev Agent %s\n", heading)
	if s.TotalEvents == 0 {
		fmt.Fprintf(&b, "no Windows Dev Agent events recorded %s\n", where)
		return b.String()
	}
	fmt.Fprintf(&b, "Events: %d\n", s.TotalEvents)
	fmt.Fprintf(&b, "succeeded: %d\nfailed: %d\nunknown: %d\nnot-executed: %d\n",
		s.ExecutionSucceeded, s.ExecutionFailed, s.ExecutionUnknown, s.NotExecuted)
	fmt.Fprintf(&b, "external processes started: %d\npermission denials: %d\n",
		s.ExternalProcessStarted, s.PermissionDenials)
	tools := make([]string, 0, len(s.Tools))
	for t := range s.Tools {
		tools = append(tools, t)
	}
	slices.Sort(tools)
	for _, t := range tools {
		fmt.Fprintf(&b, "  %s: %d\n", t, s.Tools[t])
	}
	if s.LastFailureTool != "" {
		fmt.Fprintf(&b, "last failed execution: %s\n", s.LastFailureTool)
	}
	if s.LastDeniedTool != "" {
		fmt.Fprintf(&b, "last denied request: %s\n", s.LastDeniedTool)
	}
	return b.String()
}
