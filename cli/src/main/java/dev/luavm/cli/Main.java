package dev.luavm.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * {@code luavm}: the command line, compatible with {@code lua5.3} where it makes sense
 * ({@link Options} lists the options). Exit status: 0 success, 1 an error (usage, syntax,
 * runtime), 3 a run ended by a limit ({@code luavm: gas limit exceeded}), n after
 * {@code os.exit(n)} (the library never exits the JVM; this class does, with the status).
 *
 * <p>Classes: {@link ArgParser} reads the command line, {@link Runner} builds the sandbox and
 * runs {@code -e} chunks and the script, {@link Repl} is the interactive loop, {@link Listing}
 * prints {@code -l}.
 */
public final class Main {
    static final String VERSION = "luavm 0.1.0 (Lua 5.3 for the JVM, sandboxed)";

    private Main() {}

    public static void main(String[] args) {
        // the contract's JSON Schema validator and the MCP SDK log through SLF4J, which has no
        // provider in this jar: no "no providers" notice on stderr, whatever the command
        RunCommand.quietValidatorLogging();
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);
        int status = run(args, new Console(System.in, out, System.err, System.console() != null));
        out.flush();
        System.exit(status);
    }

    /** Runs the command line against the given console; returns the exit status. */
    static int run(String[] args, Console console) {
        Subcommand sub = args.length > 0 ? Subcommands.find(args[0]) : null;
        if (sub != null) return sub.run(java.util.List.of(args).subList(1, args.length), console);
        Options options;
        try {
            options = ArgParser.parse(args);
        } catch (ArgParser.UsageException e) {
            console.err.println("luavm: " + e.getMessage());
            console.err.print(ArgParser.USAGE);
            console.err.print(Subcommands.usage());
            return 1;
        }
        if (options.help) {
            console.out.print(ArgParser.USAGE);
            console.out.print(Subcommands.usage());
            return 0;
        }
        if (options.listing > 0 && options.tier == null) return Listing.print(options, console);
        return new Runner(options, console).run();
    }
}
