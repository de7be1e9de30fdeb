// Package plan holds what the plan-first tools (capability_run, package_install,
// sandbox_run) share about executing a reviewed plan: the identity echo check that
// decides between running, invalid_input and stale_plan (docs/tools/package_install.md,
// "Decision order", steps 4-7; docs/tools/capability_run.md, "Decision order", step 9),
// the runner receipt as results merge it, and the display rendering of an argv.
//
// The echoed identity is a staleness precondition, never an approval token: passing
// the check proves only that the executable about to run is the one the plan showed.
// The use-time seal (internal/proc, Request.Expected) closes the gap between this
// check and the spawn.
//
// It must never start a process or resolve a name itself; callers pass what they
// resolved and fingerprinted.
package plan
