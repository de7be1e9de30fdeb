package mcpconfig

import "slices"

// MaxFindings bounds the findings one result of mcp_audit or ecosystem_scan carries, so
// a huge config or skill tree cannot flood the model's context (docs/tools/mcp_audit.md,
// "Limits").
const MaxFindings = 50

// Cap keeps at most n findings: the most severe first (high, then medium, then low),
// in their report order, and says how many were left out.
func Cap[T any](findings []T, n int, severity func(T) string) (kept []T, omitted int) {
	if len(findings) <= n {
		return findings, 0
	}
	rank := map[string]int{SeverityHigh: 0, SeverityMedium: 1, SeverityLow: 2}
	idx := make([]int, len(findings))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return rankOf(rank, severity(findings[a])) - rankOf(rank, severity(findings[b]))
	})
	idx = idx[:n]
	slices.Sort(idx)
	kept = make([]T, 0, n)
	for _, i := range idx {
		kept = append(kept, findings[i])
	}
	return kept, len(findings) - n
}

func rankOf(rank map[string]int, s string) int {
	if r, ok := rank[s]; ok {
		return r
	}
	return len(rank)
}
