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
package capability
