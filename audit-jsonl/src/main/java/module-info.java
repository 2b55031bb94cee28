/** The audit log as a JSON Lines file: {@link dev.luavm.audit.jsonl.JsonLinesAuditSink}. */
module dev.luavm.audit.jsonl {
    requires transitive dev.luavm;
    requires com.fasterxml.jackson.databind;

    exports dev.luavm.audit.jsonl;
}
