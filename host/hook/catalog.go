package hook

import (
	"os"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// replacementClass reads a capability's class from a replacement catalog. An
// unreadable or invalid catalog answers "unknown", which classifies an execution as
// approval-required: the server refuses to start with such a catalog anyway.
func replacementClass(path, id string) (tools.Class, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	cat, err := catalog.Load(src)
	if err != nil {
		return "", false
	}
	cp, ok := cat.Get(id)
	if !ok {
		return "", false
	}
	return cp.Safety, true
}
