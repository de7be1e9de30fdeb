// Package hostcheck proves a distribution (dist/release, docs/release.md) with the
// real, pinned host clients, offline (docs/hostcheck.md). It installs the clients into
// a cache folder, builds dist/release for HEAD unless one is given or already there,
// installs the release into Claude Code and Codex from the marketplace folder as a user
// would, and runs sessions in which a loopback stand-in plays the model: env_inspect
// answers from the shipped binary, a Bash `format C:` is denied by the hook, and an
// executing capability_run is asked. Under Wine it does the same with the Windows
// builds of both hosts. It prints one line per check and a summary.
//
// Every client runs with a fresh home folder, so nothing it writes reaches the user's
// configuration. It starts processes only through internal/proc and writes nothing
// under the repository except dist/release when it builds one.
package hostcheck
