// Package audit owns the persistent audit log of Windows Dev Agent: <data dir>/agent.log
// and its single rotated predecessor agent.log.1, serialised across processes by
// <data dir>/agent.log.lock. Its contract is docs/audit.md.
//
// It owns:
//   - the record format (Record: JSON Lines, schema_version 1, UTC timestamps);
//   - the one pure outcome derivation (Outcome, ResultStatus, ExecutionStarted,
//     DecodeResult) shared by the MCP server's sink and every hook;
//   - appends that lose nothing (Append): one queue and one writer per data directory
//     in a process, a cross-process lock among writers (internal/platform/filelock)
//     held across the rotate-then-append steps of one batch, rotation at SegmentLimit
//     bytes to exactly one predecessor, a record written whole or not at all, and a
//     record that cannot be written yet kept and retried (ErrNotYetWritten, Flush);
//   - lock-free reading of retained history (Read, ReadSession) and session summaries
//     (Summarize);
//   - the server's runtime.AuditSink (Sink).
//
// It must never store tool arguments, commands, paths, stdout/stderr, error text, raw
// tool responses or environment values: results are parsed in memory only to derive
// result_status, execution_outcome and execution_started, then dropped. It must never
// fail a tool call or a hook (Sink swallows errors; callers of Append warn and go on),
// never write to stdout, and never start a process.
//
// The decisions behind the format, the locking, the outcome rules, the status
// vocabulary and the Stop summary are written down in docs/audit.md; in brief:
//   - The MCP server writes one record per tools/call with event "tools/call"
//     (EventToolCall), lifecycle_success = the call was not a JSON-RPC error, and
//     host = the server's host adapter.
//   - execution_started, result_status and lifecycle_success/success are always
//     present (null when not established); the other optional fields are omitted when
//     unset rather than written as null.
//   - A record whose JSON line exceeds MaxRecordBytes is refused, so "2 MiB + one
//     record" is a real bound; Read likewise reads at most SegmentLimit+MaxRecordBytes
//     from the end of a segment that some other writer made larger.
//   - A PostToolUseFailure without a decodable result is unknown when the tool may
//     start a process and not_applicable otherwise.
//   - result_status is only ever a word of the call's status Vocabulary.
//   - Reads take no lock: a reader opens both segments, checks that no rotation ran
//     meanwhile (retrying if one did) and reads each held file up to the size it had,
//     so it never holds a writer off and never sees a record twice or misses one that
//     was retained at its moment. The log lock serialises appends only; a caller waits
//     at most LockTimeout for its record, which otherwise stays queued and is written
//     later (the writer itself never gives up). Because
//     readers hold segments open, rotation on Windows moves an open predecessor aside
//     before replacing it (Windows refuses to replace an open file even with
//     FILE_SHARE_DELETE; Wine behaves the same).
//   - The Stop summary counts calls, not records (Summarize).
package audit
