package dev.luavm.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** The CLI's streams, injectable for tests. {@code out} is flushed before anything goes to {@code err}. */
final class Console {
    final InputStream in;
    final PrintStream out;
    final PrintStream err;
    final boolean interactiveTerminal;

    Console(InputStream in, PrintStream out, PrintStream err, boolean interactiveTerminal) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.interactiveTerminal = interactiveTerminal;
    }

    /** An error line, {@code prefix: message} (no prefix when null), then the traceback if any. */
    void error(String prefix, String message, String traceback) {
        out.flush();
        err.println(prefix == null ? message : prefix + ": " + message);
        if (traceback != null && !traceback.isEmpty()) err.println(traceback);
        err.flush();
    }
}
