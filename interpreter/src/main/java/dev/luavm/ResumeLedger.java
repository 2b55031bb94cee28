package dev.luavm;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Records the resume tokens of paused runs that were resumed, so that each snapshot of a paused
 * run ({@link LuaSuspendedException#snapshot()}) resumes at most once: an approval acted on twice
 * would run the rest of the script twice. {@link LuaVM#resume} claims the token after reading the
 * snapshot and before the run goes on; a token claimed already fails the resume with
 * {@link LuaSnapshotException}. {@link LuaVM#fork} gives a copy a token of its own, for a host
 * that means to resume a run twice.
 *
 * <p>The default ({@link #inMemory()}) remembers the tokens of one {@link LuaVM}; a host whose
 * paused runs may resume in several processes gives one backed by its database
 * ({@link LuaVM.Builder#resumeLedger}). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface ResumeLedger {
    /**
     * Claims {@code token}: true the first time, false when it was claimed before.
     *
     * @param token 16 bytes (never modified by the ledger)
     */
    boolean claim(byte[] token);

    /** A ledger in this runtime's memory (it grows by one entry per resumed run). */
    static ResumeLedger inMemory() {
        Set<String> used = new HashSet<>();
        // not a lambda: the first of a process links the lambda machinery (~1.5 ms of start-up, PROFILE.md)
        return new ResumeLedger() {
            @Override
            public boolean claim(byte[] token) {
                synchronized (used) {
                    return used.add(HexFormat.of().formatHex(token));
                }
            }
        };
    }
}
