// Package capability is the capability engine behind capability_run
// (docs/tools/capability_run.md): it turns a catalog entry into a reviewed plan (absolute
// executable, its identity, the exact argv, the effective safety class) and executes that
// plan only when the caller echoes the reviewed executable identity unchanged.
//
// The decision order is fixed (docs/tools/capability_run.md, "Decision order"): unknown
// id, tool selection, extra_args validation, effective class, identity, plan, forbidden,
// identity echo, cwd, run. Forbidden is checked before the echo so a forbidden capability
// is blocked even without one. Approval belongs to the host: the engine never accepts an
// approval flag, it only reports requires_host_approval. The echo rules, the receipt
// fields and the display rendering are internal/plan's, shared with the other plan-first
// tools; only the wording of capability_run's errors is its own.
//
// It must never start a process itself or interpret a command string: resolution,
// fingerprinting and running come in through proc.Resolver, a fingerprint function
// and proc.Runner, so tests need no PATH and the real runner stays the only spawner.
// The `command` field is a display rendering only and is never executed.
//
// A project's own task (an id such as npm:dev, tools.IsProjectTaskID) is read from the
// bound project with internal/projecttasks on every call, never looked up in the
// catalog: its class comes from ClassifyTask (approval-required at least, unless its
// argv is exactly a catalog capability's; every text it runs through the shell
// classifier), its program from PATH or from inside the project (ProgramRel), and its
// execution needs the definition identity echoed as well as the executable's
// (docs/tools/capability_run.md, "Project tasks"; docs/project-tasks.md, "How they
// run"). The engine never starts a shell of its own: a task that runs a shell names it
// as its program, and the plan shows it.
package capability
