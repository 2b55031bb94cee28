package dev.luavm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line end to end, with its streams captured. */
@Timeout(60)
class MainTest {
    @TempDir
    Path dir;

    /** Result of one invocation. */
    record Outcome(int status, String out, String err) {}

    static Outcome luavm(String stdin, boolean terminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), terminal);
        int status = Main.run(args, console);
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Outcome luavm(String... args) {
        return luavm("", false, args);
    }

    private Path script(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void usageErrorsExitWithOne() {
        Outcome o = luavm("-x");
        assertEquals(1, o.status);
        assertTrue(o.err.startsWith("luavm: unrecognized option '-x'\nusage: luavm"), o.err);
        assertEquals(1, luavm("--gas", "lots").status);
    }

    @Test
    void helpAndVersion() {
        assertTrue(luavm("--help").out.contains("--timeout"));
        assertTrue(luavm("-v").out.startsWith("luavm "));
    }

    @Test
    void listingDoesNotRun() throws IOException {
        Path p = script("l.lua", "print('ran')\n");
        Outcome o = luavm("-l", p.toString());
        assertEquals(0, o.status, o.err);
        assertTrue(o.out.contains("main <" + p + ":0,0>"), o.out);
        assertTrue(o.out.contains("GETTABUP"), o.out);
        assertTrue(!o.out.contains("ran\n"), o.out);
    }

    @Test
    void listingOfABadScript() throws IOException {
        Path p = script("bad.lua", "x = = 1\n");
        Outcome o = luavm("-l", p.toString());
        assertEquals(1, o.status);
        assertEquals("luavm: " + p + ":1: unexpected symbol near '='\n", o.err);
    }

    @Test
    void missingScript() {
        Outcome o = luavm(dir.resolve("nope.lua").toString());
        assertEquals(1, o.status);
        assertTrue(o.err.startsWith("luavm: cannot open"), o.err);
    }

    @Test
    void scriptArgumentsAndArgTable() throws IOException {
        Path p = script("args.lua", "#!/usr/bin/env luavm\nprint(arg[-2], arg[-1], arg[0], arg[1], arg[2], select('#', ...), ...)\n");
        Outcome o = luavm("-e", "x=1", p.toString(), "a", "b");
        assertEquals(0, o.status, o.err);
        assertEquals("-e\tx=1\t" + p + "\ta\tb\t2\ta\tb\n", o.out);
    }

    @Test
    void runtimeErrorsGoToStderrWithATraceback() throws IOException {
        Path p = script("err.lua", "local t = nil\nprint(t.x)\n");
        Outcome o = luavm(p.toString());
        assertEquals(1, o.status);
        assertTrue(o.err.startsWith("luavm: " + p + ":2: attempt to index a nil value (local 't')\n"), o.err);
        assertTrue(o.err.contains("stack traceback:"), o.err);
    }

    @Test
    void limitsExitWithThree() {
        Outcome o = luavm("--gas", "10000", "-e", "while true do end");
        assertEquals(3, o.status);
        assertEquals("luavm: gas limit exceeded\n", o.err);
        o = luavm("--memory", "1m", "-e", "local s = string.rep('x', 2^21)");
        assertEquals(3, o.status);
        assertEquals("luavm: memory limit exceeded\n", o.err);
        o = luavm("--timeout", "100ms", "-e", "while true do end");
        assertEquals("luavm: time limit exceeded\n", o.err);
        o = luavm("--output", "10", "-e", "print(string.rep('x', 100))");
        assertEquals(3, o.status);
        assertEquals("xxxxxxxxxx", o.out);
        assertEquals("luavm: output limit exceeded\n", o.err);
    }

    @Test
    void capsOption() {
        Outcome o = luavm("--caps", "none", "-e", "print('x')");
        assertEquals(1, o.status);
        assertTrue(o.err.contains("attempt to call a nil value (global 'print')"), o.err);
        o = luavm("--caps", "base,string", "-e", "print(('x'):rep(3), table)");
        assertEquals("xxx\tnil\n", o.out);
        assertEquals(1, luavm("--caps", "nosuch", "-e", "print(1)").status);
    }

    @Test
    void stdinIsTheScriptOnAPipe() {
        Outcome o = luavm("print(1 + 1)\n", false);
        assertEquals("2\n", o.out);
        o = luavm("print(...)\n", false, "-", "a");
        assertEquals("a\n", o.out);
    }

    @Test
    void repl() {
        Outcome o = luavm("1 + 1\nx = 5\nx, x * 2\nfunction f()\nreturn 7\nend\nf()\nerror('oops')\n=x\nprint()\n", true);
        assertEquals(0, o.status, o.err);
        assertTrue(o.out.startsWith("luavm "), o.out);
        assertTrue(o.out.contains("> 2\n> > 5\t10\n> >> >> > 7\n> > 5\n> \n> \n"), o.out);
        assertTrue(o.err.startsWith("stdin:1: oops\n"), o.err);
    }
}
