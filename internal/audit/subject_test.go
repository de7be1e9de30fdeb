package audit

import (
	"testing"
	"time"
)

// TestSubjectAndRefusalFields: the subject and refusal fields keep only words of their
// vocabularies' shape (docs/audit.md, "Subject and refusal"): an id with spaces, a
// path, a message or an unknown rule word is left out, never stored.
func TestSubjectAndRefusalFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want Record
	}{
		{Record{Capability: "test-go", PackageID: "Notepad++.Notepad++", RefusalField: "cwd", RefusalRule: RuleOutsideProject},
			Record{Capability: "test-go", PackageID: "Notepad++.Notepad++", RefusalField: "cwd", RefusalRule: RuleOutsideProject}},
		{Record{RefusalRule: "forbidden"}, Record{RefusalRule: "forbidden"}},
		{Record{Capability: "rm -rf /", PackageID: "Git.Git --source evil", RefusalField: "C:\\Users\\me", RefusalRule: "hunter2"},
			Record{}},
		{Record{PackageID: "a\nb", RefusalRule: "Required"}, Record{}},
	}
	for _, c := range cases {
		got := c.in.normalize(time.Time{})
		if got.Capability != c.want.Capability || got.PackageID != c.want.PackageID ||
			got.RefusalField != c.want.RefusalField || got.RefusalRule != c.want.RefusalRule {
			t.Errorf("%+v: kept (%q, %q, %q, %q), want (%q, %q, %q, %q)", c.in, got.Capability, got.PackageID, got.RefusalField,
				got.RefusalRule, c.want.Capability, c.want.PackageID, c.want.RefusalField, c.want.RefusalRule)
		}
	}
	r := FromCall(Call{Tool: "capability_run", Capability: "test-go", RefusalField: "cwd", RefusalRule: RuleOutsideProject,
		Result: []byte(`{"status":"invalid_input","error":"x"}`)})
	if r.Capability != "test-go" || r.RefusalField != "cwd" || r.RefusalRule != RuleOutsideProject {
		t.Fatalf("FromCall lost the subject or the refusal: %+v", r)
	}
}
