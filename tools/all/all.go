// Package all links the ten tools into the default registry, in tools/list order. Import
// it for its side effect; a test asserts the names so a forgotten import fails.
package all

import (
	_ "github.com/windows-dev-agent/wda/tools/capabilityrun"
	_ "github.com/windows-dev-agent/wda/tools/ecosystemscan"
	_ "github.com/windows-dev-agent/wda/tools/envinspect"
	_ "github.com/windows-dev-agent/wda/tools/logsquery"
	_ "github.com/windows-dev-agent/wda/tools/mcpaudit"
	_ "github.com/windows-dev-agent/wda/tools/packageinstall"
	_ "github.com/windows-dev-agent/wda/tools/packagesearch"
	_ "github.com/windows-dev-agent/wda/tools/sandboxrun"
	_ "github.com/windows-dev-agent/wda/tools/tooldiscover"
	_ "github.com/windows-dev-agent/wda/tools/workflowplan"
)
