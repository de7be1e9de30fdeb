package payload

import (
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestDataDirThroughJunction: filepath.EvalSymlinks does not follow junctions, so this
// is the case contain.ResolveDir is used for (docs/platform.md).
func TestDataDirThroughJunction(t *testing.T) {
	t.Parallel()
	testDataDirThroughLink(t, testkit.Junction)
}
