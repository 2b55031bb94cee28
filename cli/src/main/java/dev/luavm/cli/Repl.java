package dev.luavm.cli;

import dev.luavm.CompiledChunk;
import dev.luavm.LuaException;
import dev.luavm.LuaExitException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaSyntaxException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The interactive loop, as {@code lua.c}'s ({@code doREPL}, {@code loadline}): prompt
 * {@code > }; a line that compiles as {@code return <line>} is an expression list whose values
 * are all printed through the global {@code print} (a line starting with {@code =} is
 * {@code return} too, as in 5.3); otherwise lines are read with {@code >> } while the chunk is
 * incomplete (its syntax error ends in {@code <eof>}). Chunks are named {@code =stdin}, so
 * errors read {@code stdin:1:}; they are printed without the program-name prefix and the loop
 * goes on. Each entry is one run, with fresh time and output budgets (gas is the sandbox's).
 *
 * <p>On a terminal, lines come from JLine ({@link TerminalLines}): editing, history in
 * {@code ~/.luavm_history}, Ctrl-C at the prompt drops the line, Ctrl-C while a chunk runs
 * cancels it ("interrupted!") and the loop goes on, Ctrl-D exits. Otherwise lines come from
 * stdin as lua5.3 (built with readline) takes them from a pipe: the prompt, then the line
 * echoed. {@code os.exit} ends the loop with its status.
 *
 * <p>Two commands are not Lua: {@code :save FILE} writes a snapshot of the session's state to
 * FILE (atomically), {@code :load FILE} replaces the session with the one FILE holds (the
 * command line's capabilities and limits, its streams re-bound). Lua never starts a line with a
 * single colon, so neither hides a chunk.
 */
final class Repl {
    /** Where the lines come from. */
    interface Lines extends AutoCloseable {
        /** The next line, or null at end of input; {@link Interrupted} when Ctrl-C drops it. */
        String read(String prompt) throws IOException;

        /** Adds an entry to the history. */
        default void remember(String entry) {
        }

        /** Ctrl-C while a chunk runs calls this. */
        default void onInterrupt(Runnable action) {
        }

        @Override
        default void close() {
        }
    }

    /** Ctrl-C at the prompt. */
    static final class Interrupted extends IOException {
        Interrupted() {
            super("interrupted");
        }
    }

    private final LuaVM vm;
    private Sandbox sandbox;
    private final Console console;
    private final Lines lines;
    /** a sandbox of the command line's settings from a snapshot ({@code :load}), or null: no {@code :load} */
    private final java.util.function.Function<byte[], Sandbox> restorer;

    Repl(LuaVM vm, Sandbox sandbox, Console console) {
        this(vm, sandbox, console, null, null);
    }

    /** With {@code lines} null, stdin as a pipe (JLine on the process's own terminal). */
    Repl(LuaVM vm, Sandbox sandbox, Console console, Lines lines) {
        this(vm, sandbox, console, lines, null);
    }

    Repl(LuaVM vm, Sandbox sandbox, Console console, Lines lines, java.util.function.Function<byte[], Sandbox> restorer) {
        this.vm = vm;
        this.sandbox = sandbox;
        this.console = console;
        // JLine drives the process's own terminal only; injected streams (tests) read as a pipe
        this.lines = lines != null ? lines : console.interactiveTerminal && console.in == System.in
                ? TerminalLines.system(historyFile()) : new PipeLines(console);
        this.restorer = restorer;
    }

    static Path historyFile() {
        return historyFile(System.getenv("HOME"), System.getProperty("user.home"));
    }

    /**
     * {@code ~/.luavm_history}, where {@code ~} is {@code $HOME} as the shell and lua.c's
     * readline see it ({@code HOME=/tmp/x luavm} keeps its history there); Java's
     * {@code user.home} (the password database's entry) only when {@code HOME} is unset or empty.
     */
    static Path historyFile(String home, String userHome) {
        return Path.of(home != null && !home.isEmpty() ? home : userHome, ".luavm_history");
    }

    /** Runs until end of input (status 0) or os.exit (its status). */
    int loop() {
        console.out.flush(); // the banner and the script's output before JLine draws a prompt
        lines.onInterrupt(() -> sandbox.cancel());
        try (lines) {
            while (true) {
                String chunk;
                try {
                    chunk = readEntry();
                } catch (Interrupted e) {
                    continue;
                }
                if (chunk == null) break;
                if (chunk.startsWith(COMMAND)) {
                    command(chunk.substring(COMMAND.length()));
                    continue;
                }
                Integer exit = evaluate(chunk);
                if (exit != null) return exit;
            }
            console.out.println();
            console.out.flush();
            return 0;
        } catch (IOException e) {
            console.error("luavm", "cannot read stdin", null);
            return 1;
        }
    }

    /** Marks a REPL command (never Lua source) among the entries {@link #readEntry} gives. */
    private static final String COMMAND = "\0:";

    /** {@code :save FILE} and {@code :load FILE}; anything else is a usage message. */
    private void command(String line) {
        String[] w = line.trim().split("\\s+", 2);
        String file = w.length == 2 ? w[1].trim() : "";
        try {
            if (w[0].equals("save") && !file.isEmpty()) {
                byte[] snap = sandbox.snapshot();
                SnapshotFiles.write(Path.of(file), snap);
                console.out.println("saved " + snap.length + " bytes to " + file);
            } else if (w[0].equals("load") && !file.isEmpty() && restorer != null) {
                Sandbox restored = restorer.apply(SnapshotFiles.read(Path.of(file)));
                Sandbox old = sandbox;
                sandbox = restored;
                old.close();
                console.out.println("loaded " + file);
            } else {
                console.error(null, "usage: :save FILE | :load FILE", null);
            }
        } catch (LuaException e) {
            console.error(null, e.getMessage(), null);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            console.error(null, "cannot " + (w[0].equals("save") ? "write " : "read ") + file + " (" + e.getMessage() + ")", null);
        }
        console.out.flush();
    }

    /** The source of the next entry, compiled or not; null at end of input. */
    private String readEntry() throws IOException {
        String line = lines.read("> ");
        if (line == null) return null;
        if (line.startsWith(":") && !line.startsWith("::")) {
            lines.remember(line);
            return COMMAND + line.substring(1);
        }
        if (line.startsWith("=")) line = "return " + line.substring(1); // 5.3: "=x" prints x
        String ret = "return " + line;
        if (syntaxError(ret) == null) {
            if (!line.isEmpty()) lines.remember(line);
            return ret;
        }
        StringBuilder buffer = new StringBuilder(line);
        while (true) {
            LuaSyntaxException error = syntaxError(buffer.toString());
            if (error == null || !incomplete(error)) break;
            String more = lines.read(">> ");
            if (more == null) break;
            buffer.append('\n').append(more);
        }
        lines.remember(buffer.toString());
        return buffer.toString();
    }

    /** Runs one entry, printing its values or its error; the status when it called os.exit. */
    private Integer evaluate(String code) {
        try {
            CompiledChunk chunk = vm.compile("=stdin", code);
            sandbox.runAndPrint(chunk, "print");
            console.out.flush();
        } catch (LuaExitException e) {
            console.out.flush();
            return e.status();
        } catch (LuaLimitException e) {
            console.out.flush();
            if (e.limit() == LuaLimitException.Limit.CANCELLED) console.error(null, "interrupted!", null);
            else Runner.report(console, sandbox, null, e);
        } catch (LuaException e) {
            console.out.flush();
            int status = Runner.report(console, sandbox, null, e);
            if (status != 1 && status != 3) return status; // the error's __tostring called os.exit
        }
        return null;
    }

    /** lua.c's test: the chunk is incomplete when its syntax error is about the end of the input. */
    private static boolean incomplete(LuaSyntaxException e) {
        return e.getMessage().endsWith("<eof>");
    }

    private LuaSyntaxException syntaxError(String code) {
        try {
            vm.compile("=stdin", code);
            return null;
        } catch (LuaSyntaxException e) {
            return e;
        } catch (LuaException e) {
            return null; // too big to compile: let the run report it
        }
    }

    /** Stdin that is not a terminal: the prompt, then the line echoed, as lua5.3 with readline. */
    static final class PipeLines implements Lines {
        private final Console console;
        private final BufferedReader in;

        PipeLines(Console console) {
            this.console = console;
            this.in = new BufferedReader(new InputStreamReader(console.in, StandardCharsets.UTF_8));
        }

        @Override
        public String read(String prompt) throws IOException {
            console.out.print(prompt);
            console.out.flush();
            String line = in.readLine();
            if (line != null) {
                console.out.println(line);
                console.out.flush();
            }
            return line;
        }
    }
}
