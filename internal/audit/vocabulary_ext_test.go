package audit_test

import (
	"testing"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/tools/all"
)

// TestDefaultVocabularyCoversTools: every status word a shipped tool declares is in
// DefaultVocabulary, the vocabulary used where a call's own is not known (records of
// hosts' tools, older records).
func TestDefaultVocabularyCoversTools(t *testing.T) {
	t.Parallel()
	for _, tl := range all.New(all.Config{}).Tools() {
		for _, w := range tl.Statuses() {
			if !audit.DefaultVocabulary.Has(w) {
				t.Errorf("%s declares status %q, which DefaultVocabulary lacks", tl.Name(), w)
			}
		}
	}
}
