// Package policy owns the managed policy (docs/policy.md): the one definition of its
// settings (Settings), which drives the parser, the registry reader, the schema in
// docs/policy.md and the ADMX/ADML templates gen renders; reading the policy from its
// sources, strongest first; and deciding whether a call of one of the ten tools is
// blocked by it (State.Check).
//
// It must never execute anything, write anything, or read a source an unprivileged
// caller chooses: no environment variable, argument, user catalog or project file
// names a source or changes a rule, and a rule can only refuse calls, never allow one
// the rest of the runtime refuses. A policy that does not parse is kept as an error
// and refuses every call that would execute (fail closed).
package policy
