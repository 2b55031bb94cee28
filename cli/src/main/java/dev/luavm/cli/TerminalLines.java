package dev.luavm.cli;

import org.jline.reader.EndOfFileException;
import org.jline.reader.History;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The REPL's lines from a JLine terminal: line editing, history kept in a file (saved as each
 * entry is added), Ctrl-C at the prompt ({@link Repl.Interrupted}) and while a chunk runs (the
 * INT signal, which JLine gives back to this handler outside {@code readLine}), Ctrl-D at an
 * empty prompt as end of input. JLine's own multi-line parsing and {@code !} history expansion
 * are off: the REPL decides what is incomplete, as lua.c does, and {@code !} is Lua text.
 */
final class TerminalLines implements Repl.Lines {
    private final Terminal terminal;
    private final LineReader reader;

    TerminalLines(Terminal terminal, Path historyFile) {
        this.terminal = terminal;
        DefaultParser parser = new DefaultParser();
        parser.setEofOnUnclosedQuote(false);
        parser.setEofOnEscapedNewLine(false);
        parser.setEofOnUnclosedBracket();
        LineReaderBuilder b = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("luavm")
                .parser(parser)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_SPACE, false)
                .option(LineReader.Option.AUTO_FRESH_LINE, false);
        if (historyFile != null) b.variable(LineReader.HISTORY_FILE, historyFile);
        this.reader = b.build();
        reader.unsetOpt(LineReader.Option.HISTORY_REDUCE_BLANKS);
        // entries are added by the REPL (whole chunks, as lua.c's saveline), not per physical line
        reader.setVariable(LineReader.DISABLE_HISTORY, false);
        reader.unsetOpt(LineReader.Option.AUTO_PARAM_SLASH);
        reader.setOpt(LineReader.Option.DISABLE_HIGHLIGHTER);
    }

    /** The process's own terminal. */
    static TerminalLines system(Path historyFile) {
        try {
            Terminal t = TerminalBuilder.builder().system(true).build();
            // a terminal that reports no size (some pseudo-terminals) would get "...." for a prompt
            if (t.getWidth() <= 0) t.setSize(new org.jline.terminal.Size(80, 24));
            return new TerminalLines(t, historyFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String read(String prompt) throws IOException {
        try {
            // the REPL adds entries itself; keep JLine from adding each physical line
            reader.setVariable(LineReader.DISABLE_HISTORY, true);
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            throw new Repl.Interrupted();
        } catch (EndOfFileException e) {
            return null;
        } finally {
            reader.setVariable(LineReader.DISABLE_HISTORY, false);
        }
    }

    @Override
    public void remember(String entry) {
        History history = reader.getHistory();
        history.add(entry);
        try {
            history.save();
        } catch (IOException ignored) {
            // a history file that cannot be written costs only the history
        }
    }

    @Override
    public void onInterrupt(Runnable action) {
        terminal.handle(Terminal.Signal.INT, signal -> action.run());
    }

    @Override
    public void close() {
        try {
            reader.getHistory().save();
            terminal.close();
        } catch (IOException ignored) {
            // closing at exit: nothing left to do about it
        }
    }
}
