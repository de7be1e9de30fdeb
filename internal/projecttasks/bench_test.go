package projecttasks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadTypical reads a project with all five sources (testdata/layouts/typical:
// package.json with a lockfile, .vscode/tasks.json, Makefile, justfile, Taskfile.yml)
// through the guarded root, as a caller does once per call.
func BenchmarkReadTypical(b *testing.B) {
	p := layoutProject(b, "typical", "linux")
	b.ReportAllocs()
	for b.Loop() {
		set, _ := Read(p, Options{GOOS: "linux"})
		if len(set.Tasks) == 0 {
			b.Fatal("no tasks")
		}
	}
}

// BenchmarkParse runs each parser on its layout file, without the file system.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct {
		src  Source
		file string
	}{
		{SourceNPM, "node-npm/package.json"}, {SourceVSCode, "vscode/.vscode/tasks.json"},
		{SourceMake, "make/Makefile"}, {SourceJust, "just/justfile"}, {SourceTask, "taskfile/Taskfile.yml"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "layouts", c.file))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(c.src), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				parseOne(c.src, string(data), "linux")
			}
		})
	}
}

// BenchmarkLargest runs each parser on an input near MaxFileBytes shaped to cost the
// most: many tasks, long continuation lines, many targets sharing many prerequisites.
// The figures show the work stays linear in the size of the file.
func BenchmarkLargest(b *testing.B) {
	inputs := map[Source]string{
		SourceNPM:    largeNPM(),
		SourceVSCode: largeVSCode(),
		SourceMake:   largeMake(),
		SourceJust:   largeJust(),
		SourceTask:   largeTaskfile(),
	}
	for _, src := range sourceOrder {
		data := inputs[src]
		b.Run(string(src), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				parseOne(src, data, "linux")
			}
		})
	}
}

func fill(head string, item func(i int) string, sep, tail string) string {
	var sb strings.Builder
	sb.WriteString(head)
	for i := 0; sb.Len() < MaxFileBytes-1024; i++ {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(item(i))
	}
	sb.WriteString(tail)
	return sb.String()
}

func largeNPM() string {
	return fill(`{"scripts": {`, func(i int) string { return fmt.Sprintf("\n\"s%d\": \"echo %d && node build.js\"", i, i) }, ",", "}}")
}

func largeVSCode() string {
	env := strings.Repeat(`"V": "1", `, 200)
	return fill(`{"version": "2.0.0", "options": {"env": {`+env+`"W": "2"}}, "tasks": [`,
		func(i int) string {
			return fmt.Sprintf("\n{\"label\": \"t%d\", \"type\": \"shell\", \"command\": \"go\", \"args\": [\"a b\", \"c\"], \"options\": {\"env\": {\"X\": \"1\"}}}", i)
		}, ",", "]}")
}

func largeMake() string {
	targets := make([]string, 1500)
	for i := range targets {
		targets[i] = fmt.Sprintf("t%d", i)
	}
	line := strings.Join(targets, " ") + ": " + strings.Join(targets[:1000], " ") + "\n\techo \\\n"
	return fill(line, func(i int) string { return "\t  more \\" }, "\n", "\n\techo done\n")
}

func largeJust() string {
	return fill("", func(i int) string {
		return fmt.Sprintf("# doc %d\nr%d a='x' *rest: \n    echo {{a}} \\\n      {{rest}}\n", i, i)
	}, "", "")
}

func largeTaskfile() string {
	return fill("version: '3'\ntasks:\n", func(i int) string {
		return fmt.Sprintf("  t%d:\n    desc: task %d\n    cmds:\n      - echo %d\n      - cmd: go test ./...\n", i, i, i)
	}, "", "")
}
