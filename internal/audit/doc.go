// Package audit owns the persistent audit log of Windows Dev Agent: <data dir>/agent.log
// and its single rotated predecessor agent.log.1, serialised across processes by
// <data dir>/agent.log.lock (discovery.md §4).
//
// It owns:
//   - the record format (Record: JSON Lines, schema_version 1, UTC timestamps);
//   - the one pure outcome derivation (Outcome, ResultStatus, ExecutionStarted,
//     DecodeResult) shared by the MCP server's sink and every hook;
//   - bounded appends (Append): a cross-process lock (flock on Unix, LockFileEx on
//     Windows) held across the rotate-then-append step, rotation at SegmentLimit bytes
//     to exactly one predecessor, and a record written whole or not at all;
//   - reading retained history (Read, ReadSession) and session summaries (Summarize);
//   - the server's runtime.AuditSink (Sink).
//
// It must never store tool arguments, commands, paths, stdout/stderr, error text, raw
// tool responses or environment values: results are parsed in memory only to derive
// result_status, execution_outcome and execution_started, then dropped. It must never
// fail a tool call or a hook (Sink swallows errors; callers of Append warn and go on),
// never write to stdout, and never start a process.
//
// Decisions where the spec is silent (README "which text wins", rule 4):
//   - The MCP server writes one record per tools/call with event "tools/call"
//     (EventToolCall), lifecycle_success = the call was not a JSON-RPC error, and
//     host = the server's host adapter. The reference only wrote from hooks.
//   - execution_started, result_status and lifecycle_success/success are always
//     present (null when not established); the other optional fields are omitted when
//     unset rather than written as null.
//   - A record whose JSON line exceeds MaxRecordBytes is refused, so "2 MiB + one
//     record" is a real bound; Read likewise reads at most SegmentLimit+MaxRecordBytes
//     from the end of a segment that some other writer made larger.
//   - A PostToolUseFailure without a decodable result is unknown when the tool may
//     start a process and not_applicable otherwise (§4.3 and its "known divergence"
//     note win over the older tools.md §10.11 line that says failed).
//   - Reads hold the log lock shared when they can get it (the reference reads without
//     it): on Windows an open reader of agent.log.1 makes the writer's rename fail, and a
//     read during rotation could see a record twice or not at all. Without the lock
//     (timeout, read-only dir) a vanished segment is skipped and a line caught mid-write
//     does not parse and is skipped (§4.6).
package audit
