package logsquery

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints an answer for people (`wda logs` without --json): one line per event,
// oldest first, then the match count. Absent fields print as "-".
func WriteText(w io.Writer, o Out) error {
	if o.Status.Status != "ok" {
		_, err := fmt.Fprintf(w, "logs_query: %s: %s\n", o.Status.Status, o.Error)
		return err
	}
	var b strings.Builder
	for _, ev := range o.Events {
		event := str(ev, "lifecycle_event")
		if event == "-" {
			event = str(ev, "event") // a legacy record
		}
		fmt.Fprintf(&b, "%s  %s  %s  outcome=%s status=%s", str(ev, "ts"), str(ev, "tool_name"),
			event, str(ev, "execution_outcome"), str(ev, "result_status"))
		if d := str(ev, "permission_decision"); d != "-" {
			fmt.Fprintf(&b, " decision=%s", d)
		}
		if c := str(ev, "safety_class"); c != "-" {
			fmt.Fprintf(&b, " class=%s", c)
		}
		// Which run, and why it was refused (docs/tools/logs_query.md, "Output").
		if c := str(ev, "capability"); c != "-" {
			fmt.Fprintf(&b, " capability=%s", c)
		}
		if p := str(ev, "package_id"); p != "-" {
			fmt.Fprintf(&b, " package=%s", p)
		}
		if r := str(ev, "refusal_rule"); r != "-" {
			if f := str(ev, "refusal_field"); f != "-" {
				r = f + ":" + r
			}
			fmt.Fprintf(&b, " refused=%s", r)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d matching event(s), showing the last %d (%s)\n", o.Matched, len(o.Events), o.Scope)
	_, err := io.WriteString(w, b.String())
	return err
}

func str(ev Event, key string) string {
	switch v := ev[key].(type) {
	case string:
		if v != "" {
			return v
		}
	case nil:
	default:
		return fmt.Sprint(v)
	}
	return "-"
}
