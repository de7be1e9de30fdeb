package hook

import (
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// replacementClass reads a capability's class from a replacement catalog. The file is
// read through catalog.ReadFile, which stops past catalog.MaxBytes, and only the one
// capability is decoded and classified (catalog.Find), so a hook's work is bounded by
// the catalog's cap rather than by whatever file the variable names
// (docs/catalog.md, "Limits"). An unreadable, oversized or invalid catalog answers
// "unknown", which classifies an execution as approval-required: the server refuses to
// start with such a catalog anyway.
func replacementClass(path, id string) (tools.Class, bool) {
	src, err := catalog.ReadFile(path)
	if err != nil {
		return "", false
	}
	cp, ok, err := catalog.Find(src, id)
	if err != nil || !ok {
		return "", false
	}
	return cp.Safety, true
}
