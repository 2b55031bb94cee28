package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The REPL on JLine, through a dumb terminal over pipes: history, results, Ctrl-C, Ctrl-D. */
@Timeout(60)
class ReplTerminalTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Console console() {
        return new Console(System.in, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), true);
    }

    /** JLine's dumb terminal straight on the streams: no pseudo-terminal, no external process. */
    private static Terminal dumb(PipedInputStream in, ByteArrayOutputStream screen) throws IOException {
        return new DumbTerminal("test", "dumb", in, screen, StandardCharsets.UTF_8);
    }

    @Test
    void entriesRunWithHistoryInAFileAndCtrlDExits() throws Exception {
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(keys, 1 << 16);
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        Path history = dir.resolve("history");
        LuaVM vm = LuaVM.builder().build();
        try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).output(out).build()) {
            Repl repl = new Repl(vm, sb, console(), new TerminalLines(dumb(in, screen), history));
            keys.write("return 1, 2\nfor i = 1, 2 do\nprint(i)\nend\nerror('boom')\n".getBytes(StandardCharsets.UTF_8));
            keys.write(4); // Ctrl-D at an empty prompt
            keys.flush();
            keys.close();
            assertEquals(0, repl.loop());
        }
        assertEquals("1\t2\n1\n2\n\n", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("stdin:1: boom\n"), err.toString());
        String saved = Files.readString(history);
        assertTrue(saved.contains("return 1, 2"), saved);
        assertTrue(saved.contains("for i = 1, 2 do"), saved);
        assertTrue(saved.contains("error('boom')"), saved);
    }

    @Test
    void ctrlCInterruptsTheRunningChunkAndTheReplGoesOn() throws Exception {
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(keys, 1 << 16);
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        LuaVM vm = LuaVM.builder().build();
        try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).output(out).build()) {
            Terminal terminal = dumb(in, screen);
            Repl repl = new Repl(vm, sb, console(), new TerminalLines(terminal, null));
            Thread user = new Thread(() -> {
                try {
                    keys.write("while true do end\n".getBytes(StandardCharsets.UTF_8));
                    keys.flush();
                    while (!sb.isRunning()) Thread.sleep(5);
                    long t = System.nanoTime();
                    terminal.raise(Terminal.Signal.INT);
                    while (sb.isRunning()) Thread.sleep(5);
                    System.out.printf("interrupt latency %.1f ms%n", (System.nanoTime() - t) / 1e6);
                    keys.write("print('after')\n".getBytes(StandardCharsets.UTF_8));
                    keys.write(4);
                    keys.flush();
                    keys.close();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            user.start();
            assertEquals(0, repl.loop());
            user.join();
        }
        assertEquals("interrupted!\n", err.toString(StandardCharsets.UTF_8));
        assertEquals("after\n\n", out.toString(StandardCharsets.UTF_8));
    }
}
