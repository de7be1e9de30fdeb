package tools

// Class is a safety class (docs/safety.md). The pipeline blocks Forbidden; hooks map
// the others to host decisions.
type Class string

// The safety classes, from least to most restricted. Checkpoint is recognised by the
// hooks (treated like approval-required); nothing shipped emits it.
const (
	ReadOnly         Class = "read-only"
	Reversible       Class = "reversible"
	Checkpoint       Class = "checkpoint"
	ApprovalRequired Class = "approval-required"
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

// Rank orders the classes; an unknown class ranks like Forbidden so that a comparison
// never lowers it.
func (c Class) Rank() int {
	switch c {
	case ReadOnly:
		return 0
	case Reversible:
		return 1
	case Checkpoint:
		return 2
	case ApprovalRequired:
		return 3
	}
	return 4
}

// MaxClass is the more restricted of a and b.
func MaxClass(a, b Class) Class {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// Args is a validated argument map (numbers as json.Number, defaults applied).
type Args map[string]any

// Bool reports whether args[key] is exactly the boolean true.
func (a Args) Bool(key string) bool { b, ok := a[key].(bool); return ok && b }

// String returns args[key] when it is a string.
func (a Args) String(key string) string { s, _ := a[key].(string); return s }
