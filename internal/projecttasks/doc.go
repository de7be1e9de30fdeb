// Package projecttasks reads the tasks a project declares for itself — package.json
// scripts, .vscode/tasks.json, the top-level Makefile's explicit targets, justfile
// recipes and Taskfile tasks — from one directory of a bound project, and describes
// each as data: an id (<source>:<name>), the argv that runs it, the working directory,
// the exact text it runs and a SHA-256 over all of that (docs/project-tasks.md).
//
// It owns the parsers of those five formats and the task identity (DefinitionSHA256).
// Every definition is untrusted input: a definition the parsers do not understand, a
// name with control characters, a file or a task list over its budget is skipped with
// a Warning naming the file, the line and the rule, never turned into data and never
// an error of the whole read.
//
// It must never start a process (not even the runner it names), never decide a safety
// class (the caller runs the definitions through host/classify), never read a file
// except through internal/guard from the project's held root (no link is followed,
// reads are bounded), never read a file outside the one directory it was asked for
// (plus its .vscode/tasks.json), and never read the environment or PATH: everything
// that depends on the machine (the target OS, the default shell) is an Option.
package projecttasks
