// Package platform is the home of the operating-system layer every other package uses
// instead of writing its own copy (docs/platform.md): final paths of open handles
// (finalpath); containment of one resolved path in another, directory resolution and
// the opened project directory a call is bound to (contain: Within, ResolveDir,
// Root.Open); the user's home directory and ~ (home); and cross-process file locks
// (filelock). Each subpackage keeps its Windows code in _windows.go files behind a
// portable twin that the Linux tests exercise.
package platform
