package tools

// Class is a safety class (hosts.md §2.1). Hooks and the gate map it to decisions.
type Class string

// The safety classes. Checkpoint is recognised by hook mapping (treated like
// approval-required); nothing shipped emits it.
const (
	ReadOnly         Class = "read-only"
	Reversible       Class = "reversible"
	ApprovalRequired Class = "approval-required"
	Checkpoint       Class = "checkpoint"
	Forbidden        Class = "forbidden"
)

// ParseClass validates a catalog or classifier value; unknown values fail closed.
func ParseClass(s string) (Class, bool) {
	switch c := Class(s); c {
	case ReadOnly, Reversible, ApprovalRequired, Checkpoint, Forbidden:
		return c, true
	}
	return "", false
}

// Args is a validated argument map (numbers as json.Number, defaults applied).
type Args map[string]any

// Bool reports whether args[key] is exactly the boolean true.
func (a Args) Bool(key string) bool { b, ok := a[key].(bool); return ok && b }

// String returns args[key] when it is a string.
func (a Args) String(key string) string { s, _ := a[key].(string); return s }
