package dev.luavm.bench;

import java.util.List;

/**
 * What every benchmarked Lua engine offers the harness: compile a chunk once and run it
 * many times, each run in a fresh global environment with its output captured; and open a
 * long-lived environment ("session", a sandbox in luavm's words) to evaluate snippets in.
 *
 * <p>Adapters: {@link LuajEngine} (interpreter and luajc), {@link LunaEngine}, and
 * {@code LuavmEngine} (in {@code src/luavm/java}, built with {@code -Pluavm}). {@link Engines}
 * maps the names used on the command line and in JMH params to adapters.
 */
public interface Engine {

    /** Compiles a chunk; the result can be run any number of times. */
    Program compile(String chunkName, byte[] source) throws Exception;

    /** A fresh global environment with the standard libraries, kept until closed. */
    Session newSession() throws Exception;

    /** A compiled chunk. */
    interface Program {
        /**
         * Runs the chunk in a fresh global environment whose {@code arg} table holds
         * {@code arg[0] = scriptName} and {@code arg[1..n] = args}, as {@code lua5.3 script args}
         * would, and returns everything it printed (bytes mapped one-to-one to chars, ISO-8859-1).
         */
        String run(String scriptName, List<String> args) throws Exception;
    }

    /** A live global environment. */
    interface Session extends AutoCloseable {
        /** Compiles and runs {@code code} in this environment, returning its first result (engine-typed). */
        Object eval(String code) throws Exception;

        @Override
        default void close() throws Exception {
        }
    }
}
