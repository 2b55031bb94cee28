package dev.luavm.compiler;

import java.util.function.LongConsumer;

/**
 * What a compilation charges to whoever asked for it: work as gas and the compiler's own heap
 * as held memory. The compiler calls {@link #work} and {@link #hold} before the work or the
 * allocation they pay for (in batches, see {@link CompileAccount}); either may throw to end the
 * compilation (gas exhausted, cancelled, timed out, not enough memory). Held bytes are given
 * back with {@link #release} as they become garbage (a pass's data when the pass ends, a
 * function's working state when the function is done), and when the compilation ends, by
 * success or by error, all the rest: only the resulting prototypes outlive it, and they are the
 * caller's to account for.
 */
public interface CompileMeter {
    /** Gas for compile work about to be done. */
    void work(long units);

    /** Bytes of compiler data about to be allocated, held until {@link #release}. */
    void hold(long bytes);

    /** Gives back {@code bytes} held by this compilation (all of it by the time it ends). */
    void release(long bytes);

    /** A meter that counts nothing: for trusted callers and tests. */
    CompileMeter NONE = of(units -> { });

    /** A meter that charges work to {@code work} and does not bound memory. */
    static CompileMeter of(LongConsumer work) {
        return new CompileMeter() {
            @Override
            public void work(long units) {
                work.accept(units);
            }

            @Override
            public void hold(long bytes) {
            }

            @Override
            public void release(long bytes) {
            }
        };
    }
}
