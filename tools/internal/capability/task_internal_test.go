package capability

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/projecttasks"
)

// TestTaskEnviron: a task's variables replace those of the same name (on Windows
// whatever their case, as Windows names them) and follow the rest in sorted order.
func TestTaskEnviron(t *testing.T) {
	t.Parallel()
	base := []string{"Path=C:\\bin", "FOO=old", "=C:=C:\\x", "HOME=/h"}
	add := map[string]string{"PATH": "D:\\bin", "BAR": "1", "FOO": "new"}
	if diff := cmp.Diff([]string{"=C:=C:\\x", "HOME=/h", "BAR=1", "FOO=new", "PATH=D:\\bin"}, taskEnviron(base, add, true)); diff != "" {
		t.Errorf("windows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Path=C:\\bin", "=C:=C:\\x", "HOME=/h", "BAR=1", "FOO=new", "PATH=D:\\bin"}, taskEnviron(base, add, false)); diff != "" {
		t.Errorf("unix (-want +got):\n%s", diff)
	}
}

func TestSourceOfFile(t *testing.T) {
	t.Parallel()
	for f, want := range map[string]projecttasks.Source{"package.json": "npm", "web/package.json": "npm", ".vscode/tasks.json": "vscode",
		"Makefile": "make", "GNUmakefile": "make", "makefile": "make", "Justfile": "just", ".justfile": "just",
		"Taskfile.yml": "task", "taskfile.dist.yaml": "task", "pnpm-lock.yaml": "", ".": ""} {
		if got := sourceOfFile(f); got != want {
			t.Errorf("sourceOfFile(%s) = %q, want %q", f, got, want)
		}
	}
}
