package discovery

// Probe state strings derived from a tri-state (docs/discovery.md, "Tri-states").
const (
	StateAvailable = "available"
	StateMissing   = "missing"
	StateUnknown   = "unknown"
)

// Bool returns a tri-state holding b.
func Bool(b bool) *bool { return &b }

// True and False return fresh established tri-states.
func True() *bool  { return Bool(true) }
func False() *bool { return Bool(false) }

// IsTrue reports whether t is established true; nil is not true.
func IsTrue(t *bool) bool { return t != nil && *t }

// IsFalse reports whether t is established false; nil is not false.
func IsFalse(t *bool) bool { return t != nil && !*t }

// ProbeState maps true to available, false to missing and nil to unknown.
func ProbeState(t *bool) string {
	switch {
	case t == nil:
		return StateUnknown
	case *t:
		return StateAvailable
	default:
		return StateMissing
	}
}

// anyOf is true when any evidence is true, false only when every piece of evidence is
// established false, and nil otherwise. PowerShell's -or would turn nil into false; we
// keep the unknown (docs/discovery.md, "Tri-states").
func anyOf(ts ...*bool) *bool {
	all := true
	for _, t := range ts {
		if IsTrue(t) {
			return True()
		}
		if t == nil {
			all = false
		}
	}
	if all {
		return False()
	}
	return nil
}

// clone copies a tri-state so snapshots never share pointers.
func clone(t *bool) *bool {
	if t == nil {
		return nil
	}
	return Bool(*t)
}
