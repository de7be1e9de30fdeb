package projecttasks_test

import (
	"testing"

	"github.com/windows-dev-agent/wda/internal/projecttasks"
)

func TestScriptRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"npm", "test"}, "test"},
		{[]string{"npm", "t"}, "test"},
		{[]string{"pnpm", "tst"}, "test"},
		{[]string{"yarn", "start"}, "start"},
		{[]string{"/opt/nodejs/npm.cmd", "run", "lint"}, "lint"},
		{[]string{"/usr/bin/bun", "run-script", "dev"}, "dev"},
		{[]string{"NPM.exe", "rum", "build"}, "build"},
		{[]string{"npm", "run", "--silent"}, ""},
		{[]string{"npm", "run"}, ""},
		{[]string{"npm", "ci"}, ""},
		{[]string{"npx", "test"}, ""},
		{[]string{"npm"}, ""},
		{nil, ""},
	} {
		if got := projecttasks.ScriptRun(tc.argv); got != tc.want {
			t.Errorf("ScriptRun(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}
