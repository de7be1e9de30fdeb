package projecttasks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// parseOne runs one parser on content as the file name of the directory read.
func parseOne(src Source, content, goos string) output {
	in := &input{dir: ".", data: []byte(content), goos: goos, workspace: fakeRoot[goos], runner: "npm"}
	switch src {
	case SourceNPM:
		in.file = "package.json"
		return parseNPM(in)
	case SourceVSCode:
		in.file = ".vscode/tasks.json"
		return parseVSCode(in)
	case SourceMake:
		in.file = "Makefile"
		return parseMake(in)
	case SourceJust:
		in.file = "justfile"
		return parseJust(in)
	case SourceTask:
		in.file = "Taskfile.yml"
		return parseTaskfile(in)
	}
	panic("unknown source " + src)
}

func ids(ts []Task) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

type ruleAt struct {
	Rule Rule
	Line int
}

func rulesOf(ws []Warning) []ruleAt {
	out := []ruleAt{}
	for _, w := range ws {
		out = append(out, ruleAt{w.Rule, w.Line})
	}
	return out
}

// long is a name one byte over MaxNameBytes.
var long = strings.Repeat("n", MaxNameBytes+1)

// warningCases are bad definitions of each format, with the warnings and the tasks
// they must give; the fuzz targets start from them too.
var warningCases = []struct {
	name    string
	src     Source
	goos    string
	content string
	want    []ruleAt
	tasks   []string
}{
	// package.json
	{"npm syntax", SourceNPM, "", "{\n \"scripts\": {\n  \"a\": \"x\",\n  SECRET\n }\n}", []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm comments are not JSON", SourceNPM, "", "{\n // SECRET\n \"scripts\": {\"a\": \"x\"}\n}", []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm trailing comma", SourceNPM, "", `{"scripts": {"a": "x",}}`, []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm top level array", SourceNPM, "", `["SECRET"]`, []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm scripts not object", SourceNPM, "", "{\n\"scripts\": [\"SECRET\"]}", []ruleAt{{RuleShape, 2}}, nil},
	{"npm control char in name", SourceNPM, "", "{\"scripts\": {\n\"SECRET\\u001b[2J\": \"x\",\n\"ok\": \"y\"}}", []ruleAt{{RuleName, 2}}, []string{"npm:ok"}},
	{"npm bidi override in name", SourceNPM, "", "{\"scripts\": {\n\"SECRET\u202e\": \"x\"}}", []ruleAt{{RuleName, 2}}, nil},
	{"npm name too long", SourceNPM, "", "{\"scripts\": {\n\"" + long + "\": \"x\"}}", []ruleAt{{RuleNameLength, 2}}, nil},
	{"npm name is an option", SourceNPM, "", "{\"scripts\": {\n\"--SECRET\": \"x\"}}", []ruleAt{{RuleName, 2}}, nil},
	{"npm blank name", SourceNPM, "", "{\"scripts\": {\n\" \": \"x\"}}", []ruleAt{{RuleName, 2}}, nil},
	{"npm value not string", SourceNPM, "", "{\"scripts\": {\n\"a\": {\"SECRET\": 1}}}", []ruleAt{{RuleShape, 2}}, nil},
	{"npm duplicate", SourceNPM, "", "{\"scripts\": {\n\"a\": \"x\",\n\"a\": \"y\"}}", []ruleAt{{RuleDuplicate, 3}}, []string{"npm:a"}},
	{"npm empty script", SourceNPM, "", "{\"scripts\": {\n\"a\": \"  \"}}", []ruleAt{{RuleNoCommand, 2}}, nil},
	{"npm escape in script", SourceNPM, "", "{\"scripts\": {\n\"a\": \"echo \\u001b]0;SECRET\\u0007\"}}", []ruleAt{{RuleText, 2}}, nil},
	{"npm NUL in script", SourceNPM, "", "{\"scripts\": {\n\"a\": \"echo \\u0000SECRET\"}}", []ruleAt{{RuleText, 2}}, nil},
	{"npm placeholder is no task", SourceNPM, "", `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`, []ruleAt{}, nil},
	{"npm too deep", SourceNPM, "", `{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm not UTF-8", SourceNPM, "", "{\"scripts\": {\"a\": \"\xff\"}}", []ruleAt{{RuleSyntax, 0}}, nil},
	{"npm no scripts", SourceNPM, "", `{"name": "x"}`, []ruleAt{}, nil},

	// .vscode/tasks.json
	{"vscode syntax", SourceVSCode, "", "{\n\"version\": \"2.0.0\",\n\"tasks\": [SECRET]}", []ruleAt{{RuleSyntax, 0}}, nil},
	{"vscode no version", SourceVSCode, "", `{"tasks": []}`, []ruleAt{{RuleVersion, 0}}, nil},
	{"vscode old version", SourceVSCode, "", "{\n\"version\": \"0.1.0\", \"tasks\": []}", []ruleAt{{RuleVersion, 2}}, nil},
	{"vscode tasks not array", SourceVSCode, "", "{\"version\": \"2.0.0\",\n\"tasks\": {}}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode task not object", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [\n\"SECRET\"]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode no label", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [\n{\"type\": \"shell\", \"command\": \"SECRET\"}]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode label not string", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": 1, \"command\": \"x\"}]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode label control", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"SECRET\\r\", \"command\": \"x\"}]}", []ruleAt{{RuleName, 2}}, nil},
	{"vscode dependsOn", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"all\", \"dependsOn\": [\"a\"]}]}", []ruleAt{{RuleDependsOn, 2}}, nil},
	{"vscode dependsOn with command", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"all\", \"command\": \"x\", \"dependsOn\": \"a\"}]}", []ruleAt{{RuleDependsOn, 2}}, nil},
	{"vscode input variable", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x ${input:SECRET}\"}]}", []ruleAt{{RuleVariable, 2}}, nil},
	{"vscode env variable in args", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"args\": [\"${env:SECRET}\"]}]}", []ruleAt{{RuleVariable, 2}}, nil},
	{"vscode file variable in cwd", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"options\": {\"cwd\": \"${fileDirname}\"}}]}", []ruleAt{{RuleVariable, 2}}, nil},
	{"vscode odd variable", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x ${SECRET SECRET}\"}]}", []ruleAt{{RuleVariable, 2}}, nil},
	{"vscode cwd climbs out", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"options\": {\"cwd\": \"sub/../../SECRET\"}}]}", []ruleAt{{RuleCwd, 2}}, nil},
	{"vscode cwd absolute", SourceVSCode, "windows", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"options\": {\"cwd\": \"D:\\\\SECRET\"}}]}", []ruleAt{{RuleCwd, 2}}, nil},
	{"vscode cwd sibling prefix", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"options\": {\"cwd\": \"/work/project-SECRET\"}}]}", []ruleAt{{RuleCwd, 2}}, nil},
	{"vscode shell quoting", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"type\": \"shell\", \"command\": \"x\", \"options\": {\"shell\": {\"executable\": \"bash\", \"quoting\": {\"strong\": \"'\"}}}}]}", []ruleAt{{RuleShell, 2}}, nil},
	{"vscode shell args alone", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"type\": \"shell\", \"command\": \"x\", \"options\": {\"shell\": {\"args\": [\"-l\"]}}}]}", []ruleAt{{RuleShell, 2}}, nil},
	{"vscode no command", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"type\": \"shell\"}]}", []ruleAt{{RuleNoCommand, 2}}, nil},
	{"vscode args not array", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"args\": \"SECRET\"}]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode bad quoting", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"args\": [{\"value\": \"v\", \"quoting\": \"SECRET\"}]}]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode env not object", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\", \"options\": {\"env\": [\"SECRET\"]}}]}", []ruleAt{{RuleShape, 2}}, nil},
	{"vscode bad global options", SourceVSCode, "", "{\"version\": \"2.0.0\", \"options\": {\"cwd\": 1}, \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\"}]}", []ruleAt{{RuleShape, 0}}, nil},
	{"vscode global command", SourceVSCode, "", "{\"version\": \"2.0.0\", \"command\": \"SECRET\", \"tasks\": [{\n\"label\": \"a\"}]}", []ruleAt{{RuleNotUnderstood, 0}, {RuleNoCommand, 2}}, nil},
	{"vscode duplicate label", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"command\": \"x\"},\n{\"label\": \"a\", \"command\": \"y\"}]}", []ruleAt{{RuleDuplicate, 3}}, []string{"vscode:a"}},
	{"vscode bidi in command", SourceVSCode, "", "{\"version\": \"2.0.0\", \"tasks\": [{\n\"label\": \"a\", \"type\": \"shell\", \"command\": \"echo \u202eSECRET\"}]}", []ruleAt{{RuleText, 2}}, nil},
	{"vscode contributed task is no definition", SourceVSCode, "", `{"version": "2.0.0", "tasks": [{"type": "npm", "script": "lint"}]}`, []ruleAt{}, nil},
	{"vscode trailing commas and comments", SourceVSCode, "", "{\"version\": \"2.0.0\", /* c */ \"tasks\": [{\"label\": \"a\", \"command\": \"x\",},], // c\n}", []ruleAt{}, []string{"vscode:a"}},

	// Makefile
	{"make not UTF-8", SourceMake, "", "a:\n\techo \xff\n", []ruleAt{{RuleEncoding, 0}}, nil},
	{"make recipe prefix", SourceMake, "", "a:\n\techo a\n.RECIPEPREFIX = >\nb:\n> echo SECRET\n", []ruleAt{{RuleRecipePrefix, 3}}, nil},
	{"make missing separator", SourceMake, "", "a:\n\techo a\nSECRET words\n", []ruleAt{{RuleSyntax, 3}}, nil},
	{"make conditional target", SourceMake, "", "ifdef X\na:\n\techo SECRET\nendif\nb:\n\techo b\n", []ruleAt{{RuleConditional, 2}}, []string{"make:b"}},
	{"make second recipe", SourceMake, "", "a:\n\techo one\n\na:\n\techo two\n", []ruleAt{{RuleOverride, 4}}, []string{"make:a"}},
	{"make include", SourceMake, "", "-include .env\na:\n\techo a\n", []ruleAt{{RuleInclude, 1}}, []string{"make:a"}},
	{"make eval", SourceMake, "", "$(eval $(call SECRET))\na:\n\techo a\n", []ruleAt{{RuleNotUnderstood, 1}}, []string{"make:a"}},
	{"make long target", SourceMake, "", long + ":\n\techo a\n", []ruleAt{{RuleNameLength, 1}}, nil},
	{"make control in recipe", SourceMake, "", "a:\n\techo \x1bSECRET\n", []ruleAt{{RuleText, 1}}, nil},
	{"make special and pattern lines", SourceMake, "", ".PHONY: a\n%.o: %.c\n\tcc $<\n$(X): y\n\ttouch $@\nV := 1\nW ?= 2\nZ += 3\na:\n\techo a\n", []ruleAt{}, []string{"make:a"}},
	{"make define block", SourceMake, "", "define RECIPE\nnot: a rule\n\techo no\nendef\na:\n\techo a\n", []ruleAt{}, []string{"make:a"}},

	// justfile
	{"just not UTF-8", SourceJust, "", "a:\n    echo \xff\n", []ruleAt{{RuleEncoding, 0}}, nil},
	{"just stray indent", SourceJust, "", "x := '1'\n    SECRET\na:\n    echo a\n", []ruleAt{{RuleSyntax, 2}}, nil},
	{"just duplicate", SourceJust, "", "a:\n    echo 1\na:\n    echo 2\n", []ruleAt{{RuleDuplicate, 3}}, nil},
	{"just duplicate allowed", SourceJust, "", "set allow-duplicate-recipes\na:\n    echo 1\na:\n    echo 2\n", []ruleAt{}, []string{"just:a"}},
	{"just duplicate on two OSes", SourceJust, "linux", "[windows]\na:\n    echo 1\n[unix]\na:\n    echo 2\n", []ruleAt{}, []string{"just:a"}},
	{"just unknown dependency", SourceJust, "", "a: SECRET\n    echo a\n", []ruleAt{{RuleUnknownTask, 1}}, nil},
	{"just alias to nothing", SourceJust, "", "alias x := SECRET\na:\n    echo a\n", []ruleAt{{RuleUnknownTask, 1}}, nil},
	{"just unknown attribute", SourceJust, "", "[SECRET]\na:\n    echo a\nb:\n    echo b\n", []ruleAt{{RuleNotUnderstood, 2}}, []string{"just:b"}},
	{"just inconsistent indent", SourceJust, "", "a:\n    echo a\n\techo SECRET\nb:\n    echo b\n", []ruleAt{{RuleNotUnderstood, 1}}, []string{"just:b"}},
	{"just bad header", SourceJust, "", "a b=:\n    echo a\nb:\n    echo b\n", []ruleAt{{RuleNotUnderstood, 1}}, []string{"just:b"}},
	{"just working directory out", SourceJust, "", "[working-directory('../SECRET')]\na:\n    echo a\n", []ruleAt{{RuleCwd, 2}}, nil},
	{"just garbage line", SourceJust, "", "a:\n    echo a\n!SECRET\n", []ruleAt{{RuleSyntax, 3}}, nil},
	{"just import", SourceJust, "", "import 'more.just'\na: other\n    echo a\n", []ruleAt{{RuleInclude, 1}}, []string{"just:a"}},
	{"just blank line before the body", SourceJust, "", "a:\n\n    echo a\n\n    #!not a shebang\n", []ruleAt{}, []string{"just:a"}},
	{"just multi-line assignment", SourceJust, "", "x := '''\na:\n  not a recipe\n'''\nb:\n    echo b\n", []ruleAt{}, []string{"just:b"}},

	// Taskfile
	{"taskfile syntax", SourceTask, "", "version: '3'\ntasks:\n  a: [\n", []ruleAt{{RuleSyntax, 3}}, nil},
	{"taskfile version 2", SourceTask, "", "version: '2'\ntasks:\n  a: echo\n", []ruleAt{{RuleVersion, 1}}, nil},
	{"taskfile no version", SourceTask, "", "tasks:\n  a: echo\n", []ruleAt{{RuleVersion, 0}}, nil},
	{"taskfile duplicate task", SourceTask, "", "version: '3'\ntasks:\n  a: echo 1\n  a: echo 2\n", []ruleAt{{RuleDuplicate, 4}}, nil},
	{"taskfile unknown dep", SourceTask, "", "version: '3'\ntasks:\n  a:\n    deps: [SECRET]\n    cmds: [echo a]\n  b: echo b\n", []ruleAt{{RuleUnknownTask, 3}}, []string{"task:b"}},
	{"taskfile template dir", SourceTask, "", "version: '3'\ntasks:\n  a:\n    dir: '{{.SECRET}}'\n    cmds: [echo a]\n", []ruleAt{{RuleVariable, 3}}, nil},
	{"taskfile command shape", SourceTask, "", "version: '3'\ntasks:\n  a:\n    cmds:\n      - silent: true\n", []ruleAt{{RuleNotUnderstood, 3}}, nil},
	{"taskfile cmds not list", SourceTask, "", "version: '3'\ntasks:\n  a:\n    cmds: {x: SECRET}\n", []ruleAt{{RuleShape, 3}}, nil},
	{"taskfile control in name", SourceTask, "", "version: '3'\ntasks:\n  \"SECRET\\x07\": echo\n", []ruleAt{{RuleName, 3}}, nil},
	{"taskfile alias bomb", SourceTask, "", aliasBomb(), []ruleAt{{RuleTooLarge, 0}}, nil},
	{"taskfile included dependency", SourceTask, "", "version: '3'\nincludes:\n  docs: ./docs\ntasks:\n  a:\n    deps: ['docs:build']\n    cmds: [echo a]\n", []ruleAt{{RuleInclude, 3}}, []string{"task:a"}},
}

// TestWarnings: every bad definition is skipped with a warning naming its line and
// rule, the good tasks around it survive, and no warning repeats a byte of a refused
// name or value (each case hides SECRET only where it must not be echoed).
func TestWarnings(t *testing.T) {
	for _, c := range warningCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			goos := c.goos
			if goos == "" {
				goos = "linux"
			}
			out := parseOne(c.src, c.content, goos)
			if diff := cmp.Diff(c.want, rulesOf(out.warns)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s\n%v", diff, out.warns)
			}
			want := c.tasks
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, ids(out.tasks)); diff != "" {
				t.Errorf("tasks (-want +got):\n%s", diff)
			}
			for _, w := range out.warns {
				if strings.Contains(w.Message, "SECRET") {
					t.Errorf("warning echoes refused content: %s", w)
				}
				if w.File == "" {
					t.Errorf("warning names no file: %s", w)
				}
			}
		})
	}
}

// aliasBomb is a YAML document whose merge keys expand tenfold at each level.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("version: '3'\nx0: &x0 {a: 1}\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "x%d: &x%d {<<: [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*x%d", i-1)
		}
		b.WriteString("]}\n")
	}
	b.WriteString("vars: *x8\n")
	return b.String()
}

// TestReadWarnings covers what only Read sees: budgets, links, the directory asked for.
func TestReadWarnings(t *testing.T) {
	t.Parallel()
	write := func(t *testing.T, files map[string]string) string {
		dir := testkit.TempDir(t)
		for name, content := range files {
			testkit.WriteFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
		}
		return dir
	}
	manyScripts := func(n int) string {
		var b strings.Builder
		b.WriteString("{\"scripts\": {\n")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "\"s%d\": \"echo %d\"", i, i)
		}
		b.WriteString("}}\n")
		return b.String()
	}
	t.Run("file too large", func(t *testing.T) {
		t.Parallel()
		dir := write(t, map[string]string{"Makefile": "a:\n\techo " + strings.Repeat("x", MaxFileBytes) + "\n", "justfile": "b:\n    echo b\n"})
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if diff := cmp.Diff([]ruleAt{{RuleTooLarge, 0}}, rulesOf(warns)); diff != "" {
			t.Error(diff)
		}
		if diff := cmp.Diff([]string{"just:b"}, ids(set.Tasks)); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("too many tasks", func(t *testing.T) {
		t.Parallel()
		dir := write(t, map[string]string{"package.json": manyScripts(MaxTasks - 1), "justfile": "a:\n    echo a\nb:\n    echo b\n"})
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if len(set.Tasks) != MaxTasks {
			t.Errorf("%d tasks, want %d", len(set.Tasks), MaxTasks)
		}
		if diff := cmp.Diff([]ruleAt{{RuleTooMany, 3}}, rulesOf(warns)); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("too many in one file", func(t *testing.T) {
		t.Parallel()
		dir := write(t, map[string]string{"package.json": manyScripts(MaxTasks + 10)})
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if len(set.Tasks) != MaxTasks || len(warns) != 1 || warns[0].Rule != RuleTooMany {
			t.Errorf("%d tasks, warnings %v", len(set.Tasks), warns)
		}
	})
	t.Run("two justfiles", func(t *testing.T) {
		t.Parallel()
		dir := write(t, map[string]string{"justfile": "a:\n    echo a\n", ".justfile": "b:\n    echo b\n"})
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if len(set.Tasks) != 0 || len(warns) != 1 || warns[0].Rule != RuleMultipleFiles {
			t.Errorf("tasks %v, warnings %v", ids(set.Tasks), warns)
		}
	})
	t.Run("lockfiles of two managers", func(t *testing.T) {
		t.Parallel()
		dir := write(t, map[string]string{"package.json": `{"scripts": {"a": "x"}}`, "yarn.lock": "", "package-lock.json": "{}"})
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if set.NodeRunner != "yarn" || len(warns) != 1 || warns[0].Rule != RuleLockfiles {
			t.Errorf("runner %q, warnings %v", set.NodeRunner, warns)
		}
	})
	for _, d := range []string{"../x", "/etc", `C:\x`, "a/../../b", "missing"} {
		t.Run("dir "+d, func(t *testing.T) {
			t.Parallel()
			dir := write(t, map[string]string{"package.json": `{"scripts": {"a": "x"}}`})
			set, warns := Read(dirProject(t, dir, ""), Options{Dir: d, GOOS: "linux"})
			if len(set.Tasks) != 0 || len(warns) != 1 || warns[0].Rule != RuleDir {
				t.Errorf("tasks %v, warnings %v", ids(set.Tasks), warns)
			}
		})
	}
	t.Run("links are not followed", func(t *testing.T) {
		t.Parallel()
		outside := write(t, map[string]string{"package.json": `{"scripts": {"steal": "x"}}`, "sub/package.json": `{"scripts": {"steal": "x"}}`})
		dir := write(t, map[string]string{"justfile": "a:\n    echo a\n"})
		if !testkit.Symlink(filepath.Join(outside, "package.json"), filepath.Join(dir, "package.json")) ||
			!testkit.Symlink(filepath.Join(outside, "sub"), filepath.Join(dir, "sub")) {
			t.Skip("no symbolic links here")
		}
		p := dirProject(t, dir, "")
		set, warns := Read(p, Options{GOOS: "linux"})
		if diff := cmp.Diff([]string{"just:a"}, ids(set.Tasks)); diff != "" {
			t.Error(diff)
		}
		if diff := cmp.Diff([]ruleAt{{RuleUnreadable, 0}}, rulesOf(warns)); diff != "" {
			t.Error(diff, warns)
		}
		set, warns = Read(p, Options{Dir: "sub", GOOS: "linux"})
		if len(set.Tasks) != 0 || len(warns) != 1 || warns[0].Rule != RuleDir {
			t.Errorf("tasks %v, warnings %v", ids(set.Tasks), warns)
		}
	})
	t.Run("hard links are not read", func(t *testing.T) {
		t.Parallel()
		outside := write(t, map[string]string{"Makefile": "steal:\n\techo x\n"})
		dir := write(t, map[string]string{})
		if err := os.Link(filepath.Join(outside, "Makefile"), filepath.Join(dir, "Makefile")); err != nil {
			t.Skip("no hard links here")
		}
		set, warns := Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
		if len(set.Tasks) != 0 || len(warns) != 1 || warns[0].Rule != RuleUnreadable {
			t.Errorf("tasks %v, warnings %v", ids(set.Tasks), warns)
		}
	})
}
