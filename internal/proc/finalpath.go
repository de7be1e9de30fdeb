package proc

import (
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/finalpath"
)

// finalPathMatches is the "exact path" rule of docs/process-runner.md §3.4: the
// handle's final path must be the requested absolute path, compared case-insensitively
// after both are cleaned of the verbatim prefix (finalpath.StripVerbatim) and trailing
// separators. Any symlink or junction along the way changes the final path and
// therefore fails. It is Windows' rule, portable so it is tested everywhere; it asks
// whether two spellings are one path, not whether one path lies inside another
// (internal/platform/contain).
func finalPathMatches(requested, final string) bool {
	a := strings.TrimRight(finalpath.StripVerbatim(requested), `\`)
	b := strings.TrimRight(finalpath.StripVerbatim(final), `\`)
	return a != "" && strings.EqualFold(a, b)
}
