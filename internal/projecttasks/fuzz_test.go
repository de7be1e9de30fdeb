package projecttasks

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each parser is fuzzed against the invariants every Set keeps, whatever the input:
// no panic, the same answer twice, names and texts that pass the rules, ids unique and
// made of source and name, a working directory inside the directory read, at most
// MaxTasks tasks, and warnings that name the file and a line of it. The seed corpora
// are testdata/fuzz/<target> and the layouts under testdata/layouts.

func FuzzNPM(f *testing.F)      { fuzzParser(f, SourceNPM, "package.json") }
func FuzzVSCode(f *testing.F)   { fuzzParser(f, SourceVSCode, "tasks.json") }
func FuzzMake(f *testing.F)     { fuzzParser(f, SourceMake, "Makefile") }
func FuzzJust(f *testing.F)     { fuzzParser(f, SourceJust, "justfile") }
func FuzzTaskfile(f *testing.F) { fuzzParser(f, SourceTask, "Taskfile.yml") }

func fuzzParser(f *testing.F, src Source, base string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "layouts", "*", base))
	more, _ := filepath.Glob(filepath.Join("testdata", "layouts", "*", ".vscode", base))
	for _, name := range append(files, more...) {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	for _, c := range warningCases {
		if c.src == src {
			f.Add([]byte(c.content), c.goos == "windows")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, windows bool) {
		goos := "linux"
		if windows {
			goos = "windows"
		}
		out := parseOne(src, string(data), goos)
		if again := parseOne(src, string(data), goos); !cmp.Equal(out, again, cmp.AllowUnexported(output{})) {
			t.Fatal("two parses of the same input differ")
		}
		checkOutput(t, src, data, out)
	})
}

func checkOutput(t *testing.T, src Source, data []byte, out output) {
	t.Helper()
	if n := out.count(); n > MaxTasks {
		t.Fatalf("%d tasks, over the budget", n)
	}
	lines := strings.Count(string(data), "\n") + 1
	for _, w := range out.warns {
		if w.File == "" || w.Rule == "" || w.Message == "" || w.Line < 0 || w.Line > lines {
			t.Fatalf("a warning without its file, rule, message or a line of the file: %+v", w)
		}
	}
	seen := map[string]bool{}
	for _, tk := range append(append([]Task{}, out.tasks...), out.helpers...) {
		if tk.Source != src || tk.ID != string(src)+":"+tk.Name || seen[tk.ID] {
			t.Fatalf("bad or repeated id %q", tk.ID)
		}
		seen[tk.ID] = true
		if _, msg, ok := checkName(tk.Name); !ok {
			t.Fatalf("a name that breaks the rules came through: %s", msg)
		}
		if len(tk.Argv) == 0 || tk.Argv[0] == "" {
			t.Fatalf("task %q has nothing to run", tk.ID)
		}
		for _, l := range [][]string{tk.Argv, tk.Definition, tk.Implicit} {
			for _, s := range l {
				if msg, ok := checkText(s); !ok {
					t.Fatalf("task %q: a text that breaks the rules came through: %s", tk.ID, msg)
				}
			}
		}
		if tk.Cwd != path.Clean(tk.Cwd) || tk.Cwd == ".." || strings.HasPrefix(tk.Cwd, "../") ||
			strings.HasPrefix(tk.Cwd, "/") || strings.ContainsAny(tk.Cwd, `\:`) {
			t.Fatalf("task %q: working directory %q is not inside the directory read", tk.ID, tk.Cwd)
		}
		if len(tk.DefinitionSHA256) != 64 || strings.Trim(tk.DefinitionSHA256, "0123456789abcdef") != "" {
			t.Fatalf("task %q: DefinitionSHA256 %q is not hex SHA-256", tk.ID, tk.DefinitionSHA256)
		}
		if tk.Line < 1 || tk.Line > lines {
			t.Fatalf("task %q: line %d is not a line of the file", tk.ID, tk.Line)
		}
		for _, n := range tk.Needs {
			if !strings.HasPrefix(n, string(src)+":") {
				t.Fatalf("task %q needs %q of another source", tk.ID, n)
			}
		}
		if tk.Lang == LangArgv && !cmp.Equal(tk.Argv, tk.Definition) {
			t.Fatalf("task %q: an argv task's definition is not its argv", tk.ID)
		}
	}
}
