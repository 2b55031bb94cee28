/**
 * Replaying recorded runs: a {@link dev.luavm.replay.Recording} (what entered a sandbox, read
 * from an audit log written with {@code Sandbox.Builder.record(true)}) and the
 * {@link dev.luavm.replay.Replayer}, which runs it again with no live host and reports
 * {@link dev.luavm.replay.ReplayResult#identical() identical} or the first
 * {@link dev.luavm.replay.Divergence}. Reading JSON Lines logs back is in the
 * {@code luavm-audit-jsonl} module ({@code JsonLinesAuditLog}).
 */
package dev.luavm.replay;
