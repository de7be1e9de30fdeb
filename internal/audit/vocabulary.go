package audit

import (
	"fmt"
	"slices"
)

// Vocabulary is a set of status words a tool may return (docs/audit.md, "Status
// vocabulary"). Only a word of the call's vocabulary is ever written as result_status;
// anything else a result carries in its status field is recorded as null.
type Vocabulary struct {
	words map[string]struct{}
}

// MaxStatusWord bounds a status word's length.
const MaxStatusWord = 64

// NewVocabulary builds a vocabulary. Every word must be a status word: 1 to
// MaxStatusWord bytes of lowercase ASCII letters, digits and underscores, starting with
// a letter. A bad word is an error naming it, and no vocabulary is made.
func NewVocabulary(words ...string) (*Vocabulary, error) {
	v := &Vocabulary{words: make(map[string]struct{}, len(words))}
	for _, w := range words {
		if !isStatusWord(w) {
			return nil, fmt.Errorf("audit: status vocabulary word %q must be 1 to %d lowercase ASCII letters, digits or underscores, starting with a letter", w, MaxStatusWord)
		}
		v.words[w] = struct{}{}
	}
	return v, nil
}

// DefaultVocabulary is the union of the statuses the ten tools return today (and the
// refusals the outcome rules name). It is used where a call's own vocabulary is not
// given.
//
// LEAD: once the registry declares each tool's status vocabulary, pass that instead.
var DefaultVocabulary = mustVocabulary(
	// plans and runs
	"planned", "completed", "failed", "launched", "incomplete", "cancelled", "unknown",
	// refusals before anything runs
	"blocked", "stale_plan", "unavailable", "invalid_input", "unknown_capability",
	"configuration_error", "approval_required",
	// reports
	"ok", "degraded", "issues_found",
)

func mustVocabulary(words ...string) *Vocabulary {
	v, err := NewVocabulary(words...)
	if err != nil {
		panic(err)
	}
	return v
}

// Has reports whether s is a word of v; a nil v is DefaultVocabulary.
func (v *Vocabulary) Has(s string) bool {
	if v == nil {
		v = DefaultVocabulary
	}
	_, ok := v.words[s]
	return ok
}

// Words lists v's words, sorted; a nil v is DefaultVocabulary.
func (v *Vocabulary) Words() []string {
	if v == nil {
		v = DefaultVocabulary
	}
	out := make([]string, 0, len(v.words))
	for w := range v.words {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// isStatusWord is the shape every status word has. Append refuses a record whose
// result_status is not one, so not even a hand-built record can store a free string.
func isStatusWord(s string) bool {
	if len(s) == 0 || len(s) > MaxStatusWord || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
