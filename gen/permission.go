package gen

import (
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/tools"
)

// permissionRequestTools are the tools the Codex PermissionRequest hook can ever allow;
// the matcher sends it exactly those, so the hook's allow table and the packaging cannot
// drift apart.
func permissionRequestTools(reg *tools.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		if hook.CodexMayAllow(t.Name()) {
			out = append(out, t.Name())
		}
	}
	return out
}
