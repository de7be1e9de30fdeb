package mcpconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCap: over the cap the most severe findings are kept in report order and the rest
// counted; at or under it nothing changes.
func TestCap(t *testing.T) {
	t.Parallel()
	f := func(sev, detail string) Finding { return Finding{Severity: sev, Detail: detail} }
	in := []Finding{f(SeverityMedium, "m1"), f(SeverityHigh, "h1"), f(SeverityLow, "l1"), f(SeverityMedium, "m2"), f(SeverityHigh, "h2")}
	sev := func(x Finding) string { return x.Severity }
	tests := []struct {
		n       int
		want    []Finding
		omitted int
	}{
		{5, in, 0},
		{9, in, 0},
		{3, []Finding{f(SeverityMedium, "m1"), f(SeverityHigh, "h1"), f(SeverityHigh, "h2")}, 2},
		{2, []Finding{f(SeverityHigh, "h1"), f(SeverityHigh, "h2")}, 3},
		{0, []Finding{}, 5},
	}
	for _, tt := range tests {
		got, omitted := Cap(in, tt.n, sev)
		if diff := cmp.Diff(tt.want, got); diff != "" || omitted != tt.omitted {
			t.Errorf("Cap(%d): omitted %d, want %d (-want +got)\n%s", tt.n, omitted, tt.omitted, diff)
		}
	}
}
