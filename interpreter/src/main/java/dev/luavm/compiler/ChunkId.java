package dev.luavm.compiler;

/**
 * Chunk names as they appear in messages, exactly as PUC's {@code luaO_chunkid}: {@code "@file"}
 * gives {@code file} (its start cut to {@code "..."} to fit {@link #LUA_IDSIZE}), {@code "=name"}
 * gives {@code name} (truncated), anything else is source text and gives
 * {@code [string "first line..."]}.
 *
 * <p>Like the source, chunk names are byte strings seen one char per byte (Latin-1); the
 * result is the same kind of string. The VM uses this for runtime error positions too.
 */
public final class ChunkId {
    /** PUC's LUA_IDSIZE: the buffer size for a chunk id, including the terminating NUL. */
    public static final int LUA_IDSIZE = 60;

    private static final String RETS = "...";
    private static final String PRE = "[string \"";
    private static final String POS = "\"]";

    private ChunkId() {}

    /** The printable id of chunk {@code chunkName}, as in {@code chunk:line: message}. */
    public static String of(String chunkName) {
        String source = chunkName == null ? "?" : chunkName;
        int nul = source.indexOf('\0');
        if (nul >= 0) source = source.substring(0, nul); // C strings end at NUL
        int l = source.length();
        int bufflen = LUA_IDSIZE;
        if (source.startsWith("=")) {
            // 'literal' source: at most bufflen - 1 chars of the name
            return l <= bufflen ? source.substring(1) : source.substring(1, bufflen);
        } else if (source.startsWith("@")) {
            // file name: keep its end, which is the informative part
            if (l <= bufflen) return source.substring(1);
            int keep = bufflen - RETS.length() - 1;
            return RETS + source.substring(l - keep);
        } else {
            int nl = source.indexOf('\n');
            bufflen -= PRE.length() + RETS.length() + POS.length() + 1;
            StringBuilder out = new StringBuilder(PRE);
            if (l < bufflen && nl < 0) {
                out.append(source);
            } else {
                if (nl >= 0) l = nl;
                if (l > bufflen) l = bufflen;
                out.append(source, 0, l).append(RETS);
            }
            return out.append(POS).toString();
        }
    }
}
