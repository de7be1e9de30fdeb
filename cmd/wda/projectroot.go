package main

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
)

// The project of a command (docs/cli.md, "The project"): --project, else
// WINDOWS_DEV_AGENT_PROJECT_DIR, else the project the current folder is in. A person
// types `wda plan run the tests` from wherever they are in the tree, so the project is
// the nearest folder, from the current one upward, that holds a project marker: a
// build or task file, an editor's workspace folder, or .git.

// projectMarkers are the names that make a folder a project's root (any letter case:
// Windows file names ignore it, and make and just read several spellings).
var projectMarkers = []string{
	"go.mod", "go.work", "package.json", "Cargo.toml", "pyproject.toml", "CMakeLists.txt",
	"Makefile", "GNUmakefile", "justfile", ".justfile",
	"Taskfile.yml", "Taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml",
	".vscode", ".git",
}

// projectMarkerExts are the extensions of project files whose stem is the project's
// own name (a Visual Studio solution, a C# project).
var projectMarkerExts = []string{".sln", ".slnx", ".csproj"}

// projectMarker reports whether a folder entry called name marks a project's root.
func projectMarker(name string) bool {
	for _, m := range projectMarkers {
		if strings.EqualFold(name, m) {
			return true
		}
	}
	ext := filepath.Ext(name)
	if len(ext) == len(name) {
		return false // ".sln" alone is no project file
	}
	for _, e := range projectMarkerExts {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// findProjectRoot is the nearest folder, from start upward, with a project marker, and
// the marker that made it one (the first of projectMarkers there, else the first
// project file by name); start and "" when none is found. The search never considers
// the home folder or a folder above it (when start is below home), nor a volume's root
// (when start is not that root): a home folder often holds a .vscode folder or a stray
// Makefile, which do not make everything under it one project. names lists a folder's
// entries; a folder that cannot be listed has no markers.
func findProjectRoot(start, home string, names func(dir string) ([]string, error)) (root, marker string) {
	start = filepath.Clean(start)
	if home != "" {
		home = filepath.Clean(home)
	}
	last := func(dir string) bool { return filepath.Dir(dir) == dir || home != "" && samePath(dir, home) }
	for dir := start; ; dir = filepath.Dir(dir) {
		if dir != start && last(dir) {
			return start, ""
		}
		if m := markerIn(dir, names); m != "" {
			return dir, m
		}
		if last(dir) {
			return start, ""
		}
	}
}

// markerIn is the project marker in dir that findProjectRoot names, "" for none.
func markerIn(dir string, names func(dir string) ([]string, error)) string {
	list, err := names(dir)
	if err != nil {
		return ""
	}
	var files []string
	for _, n := range list {
		if projectMarker(n) {
			files = append(files, n)
		}
	}
	if len(files) == 0 {
		return ""
	}
	for _, m := range projectMarkers {
		for _, n := range files {
			if strings.EqualFold(n, m) {
				return n
			}
		}
	}
	slices.Sort(files)
	return files[0]
}

// samePath compares two cleaned paths as the OS does: ignoring letter case on Windows.
func samePath(a, b string) bool {
	if goruntime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// dirNames lists a folder's entry names, in directory order (no sort: only whether a
// marker is there matters, and the folder may be large).
func dirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
