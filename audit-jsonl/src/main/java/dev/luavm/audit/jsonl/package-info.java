/**
 * The audit log as a JSON Lines file ({@link dev.luavm.audit.jsonl.JsonLinesAuditSink}), kept
 * out of the interpreter module so that it depends on the ANTLR runtime alone.
 */
package dev.luavm.audit.jsonl;
