package dev.luavm.contract;

/**
 * What a contracted run's audit record keeps. Host calls are always logged (function, verdict,
 * reason, outcome); these choose whether their values are:
 *
 * @param arguments the host calls' arguments (otherwise each is logged as {@code "<not kept>"})
 * @param results   the host calls' results (otherwise {@code "<not kept>"}; a run whose host
 *                  results are not kept cannot be replayed from its log)
 * @param output    what the script printed (otherwise discarded, though still bounded by the
 *                  output limit)
 */
public record AuditRule(boolean arguments, boolean results, boolean output) {
    /** The default when a contract has no {@code audit} field: keep everything. */
    public static final AuditRule ALL = new AuditRule(true, true, true);

    /** What a withheld value is logged as. */
    public static final String NOT_KEPT = "<not kept>";
}
