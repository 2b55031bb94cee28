package dev.luavm.cli;

import java.util.List;

/**
 * A command named by the first argument ({@code luavm replay LOG}, {@code luavm contract show FILE},
 * ...), as opposed to the lua.c-compatible command line {@link Main} handles otherwise. A script
 * whose file name equals a subcommand's runs as {@code luavm ./NAME} or {@code luavm -- NAME}.
 */
interface Subcommand {
    /** Runs with the arguments after the subcommand's name; returns the exit status. */
    int run(List<String> args, Console console);

    /** One line for {@code luavm --help}. */
    String summary();
}
