package copilot_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/host/copilot"
)

func TestInstalledPlugins(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, raw string
		want      []copilot.Plugin
		err       bool
	}{
		{"comment lines at the top", "// written by the CLI\n// do not edit\n{\"installedPlugins\":[{\"name\":\"windows-dev-agent\",\"cache_path\":\"/h/.copilot/p\"}]}\n",
			[]copilot.Plugin{{Name: "windows-dev-agent", CachePath: "/h/.copilot/p"}}, false},
		{"// inside a string is data", `{"installedPlugins":[{"name":"x","cache_path":"C://p"}]}`,
			[]copilot.Plugin{{Name: "x", CachePath: "C://p"}}, false},
		{"none", `{"theme":"dark"}`, nil, false},
		{"broken", "// c\n{\"installedPlugins\":[", nil, true},
	} {
		got, err := copilot.InstalledPlugins([]byte(c.raw))
		if (err != nil) != c.err {
			t.Errorf("%s: err %v", c.name, err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
