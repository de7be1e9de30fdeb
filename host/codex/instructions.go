package codex

// Instructions is what Codex is told at initialize (docs/hosts/codex.md).
const Instructions = `Windows Dev Agent under Codex.

Project directory: the project-scoped tools (capability_run, workflow_plan, sandbox_run: cwd or workspace_folder; ecosystem_scan, mcp_audit: cwd) require the absolute path of the current Codex project directory in that argument. Pass the session's working directory explicitly; never pass the plugin cache or a relative path such as "." (this server runs from the plugin cache and cannot know the session's project).

Approval: Codex owns approval. Mutating and filesystem-inventory tools are configured to prompt; plan-first tools take execute:false to return the exact argv and executable identity for review, then execute:true with the reviewed expected_executable, expected_executable_identity_kind and expected_executable_identity_sha256 echoed back unchanged.

Trust: the bundled hooks act only once the user trusts them. Then PreToolUse denies forbidden actions and any project argument outside the hook event's cwd, and PermissionRequest may auto-allow a plan-only call whose absolute project path is inside that cwd. Without trusted hooks the project path is chosen by the caller and is visible in the Codex approval prompt.`
