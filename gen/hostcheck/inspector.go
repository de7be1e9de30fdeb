package hostcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen/release"
)

// inspectorGroup drives the shipped server (the claude/ payload's bin/wda, through its
// dispatch script on Linux and macOS) with the MCP Inspector's CLI: the tool list must
// pass its strict schema checks, and two calls must answer.
func (e *Env) inspectorGroup() Group {
	var home, project, data string
	inspect := func(ctx context.Context, args ...string) (receipt, error) {
		server := filepath.Join(e.release, release.ClaudeDir, "bin", "wda"+exe())
		cli := []string{"--cli", "-e", "WINDOWS_DEV_AGENT_DATA_DIR=" + data, "-e", "WINDOWS_DEV_AGENT_PROJECT_DIR=" + project,
			server, "mcp", "--host", "claude"}
		r := e.clientFor(ctx, Inspector, project, e.clientEnv(home), 2*time.Minute, append(cli, args...)...)
		return r, r.err()
	}
	return Group{Name: "mcp-inspector " + Inspector.Version, Checks: []Check{
		{Name: "tools/list --strict: ten tool schemas", Run: func(ctx context.Context) error {
			var err error
			if home, err = e.home("inspector"); err != nil {
				return err
			}
			project, data = filepath.Join(e.work, "inspector project"), filepath.Join(e.work, "inspector data")
			for _, d := range []string{project, data} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			r, err := inspect(ctx, "--method", "tools/list", "--strict")
			if err != nil {
				return err
			}
			var list struct {
				Tools []struct{ Name string } `json:"tools"`
			}
			if err := json.Unmarshal([]byte(r.Stdout[max(0, strings.Index(r.Stdout, "{")):]), &list); err != nil || len(list.Tools) != 10 {
				return fmt.Errorf("want 10 tools: %v %s", err, tail(r.Stdout))
			}
			return nil
		}},
		{Name: "tools/call env_inspect", Independent: true, Run: func(ctx context.Context) error {
			r, err := inspect(ctx, "--method", "tools/call", "--tool-name", "env_inspect", "--tool-args-json", "{}")
			if err == nil && !strings.Contains(r.Stdout, `status`) {
				err = fmt.Errorf("no status in the answer: %s", tail(r.Stdout))
			}
			return err
		}},
		{Name: "tools/call workflow_plan", Independent: true, Run: func(ctx context.Context) error {
			r, err := inspect(ctx, "--method", "tools/call", "--tool-name", "workflow_plan", "--tool-args-json", `{"task":"run the go tests"}`)
			if err == nil && !strings.Contains(r.Stdout, `status`) {
				err = fmt.Errorf("no status in the answer: %s", tail(r.Stdout))
			}
			return err
		}},
	}}
}
