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
    void theDefaultsAreStockLua53sAndStandardIsStrict() {
        // LUA_COMPAT_5_2 names and require 'debug', as Debian's lua5.3 has them
        Outcome o = luavm("-e", "print(bit32.band(6, 3), math.pow(2, 10), math.atan2(0, -1) == math.pi,"
                + " require('bit32') == bit32, require('debug').traceback ~= nil, pcall(string.dump, print))");
        assertEquals(0, o.status, o.err);
        assertEquals("2\t1024.0\ttrue\ttrue\ttrue\tfalse\tunable to dump given function (binary chunks are not supported)\n", o.out);
        Outcome strict = luavm("--caps", "standard", "-e", "print(bit32, math.pow, string.dump, debug)");
        assertEquals("nil\tnil\tnil\tnil\n", strict.out, strict.err);
    }

    @Test
    void depthSetsTheCallDepthAndHelpNamesIt() {
        String deep = "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end local a, b = pcall(f, 150) print(a, b, pcall(f, 5000))";
        Outcome o = luavm("--depth", "1000", "-e", deep);
        assertEquals(0, o.status, o.err);
        assertTrue(o.out.startsWith("true\t150\tfalse\t"), o.out);
        assertTrue(o.out.contains("stack overflow"), o.out);
        assertEquals("true\t150\ttrue\t5000\n", luavm("-e", deep).out);
        assertEquals(1, luavm("--depth", "9", "-e", "print(1)").status);
        assertTrue(luavm("--depth=abc", "-e", "print(1)").err.contains("--depth"));
        assertTrue(luavm("--help").out.contains("--depth N"));
    }

    /** An error through a coroutine.wrap function: message and traceback as lua5.3 prints them (its output, pasted). */
    @Test
    void anErrorThroughCoroutineWrapIsReportedAsLua53ReportsIt() throws IOException {
        Path w = script("w.lua", "local f = coroutine.wrap(function() local x = nil; return x.y end)\nf()\n");
        Outcome o = luavm(w.toString());
        assertEquals(1, o.status);
        assertEquals("luavm: " + w + ":2: " + w + ":1: attempt to index a nil value (local 'x')\n"
                + "stack traceback:\n\t[C]: in local 'f'\n\t" + w + ":2: in main chunk\n\t[C]: in ?\n", o.err);
        Path w2 = script("w2.lua", "local function inner() error('boom') end\n"
                + "local f = coroutine.wrap(function() inner() end)\nlocal function outer() f() end\nouter()\n");
        o = luavm(w2.toString());
        assertEquals("luavm: " + w2 + ":3: " + w2 + ":1: boom\nstack traceback:\n\t[C]: in upvalue 'f'\n\t"
                + w2 + ":3: in local 'outer'\n\t" + w2 + ":4: in main chunk\n\t[C]: in ?\n", o.err);
        // xpcall's handler sees the resumer's stack with the wrap function on top
        o = luavm("-e", "print(xpcall(coroutine.wrap(function() error('x') end), debug.traceback))");
        assertEquals("false\t(command line):1: x\nstack traceback:\n\t[C]: in ?\n\t[C]: in function 'xpcall'\n"
                + "\t(command line):1: in main chunk\n\t[C]: in ?\n", o.out);
        // caught by pcall around the wrap call: the caller's position, once
        o = luavm("-e", "local f = coroutine.wrap(function() error('x') end) print(pcall(function() return f() end))");
        assertEquals("false\t(command line):1: (command line):1: x\n", o.out);
    }

    @Test
    void replHistoryLivesInHome() {
        assertEquals(Path.of("/home/someone/.luavm_history"), Repl.historyFile("/home/someone", "/root"));
        assertEquals(Path.of("/root/.luavm_history"), Repl.historyFile(null, "/root"));
        assertEquals(Path.of("/root/.luavm_history"), Repl.historyFile("", "/root"));
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
        // as lua5.3 (readline) on a pipe: each prompt, then the line echoed
        assertTrue(o.out.endsWith("> 1 + 1\n2\n> x = 5\n> x, x * 2\n5\t10\n> function f()\n>> return 7\n>> end\n"
                + "> f()\n7\n> error('oops')\n> =x\n5\n> print()\n\n> \n"), o.out);
        assertTrue(o.err.startsWith("stdin:1: oops\n"), o.err);
    }

    @Test
    void replPrintsEveryResultAndPositionsAtStdin1() {
        Outcome o = luavm("return 1, nil, 3\nlocal t = setmetatable({}, {__tostring = function() return 'T' end}) return t, t\nnil + 1\n", false, "-i");
        assertTrue(o.out.contains("> return 1, nil, 3\n1\tnil\t3\n"), o.out);
        assertTrue(o.out.contains("T\tT\n"), o.out);
        assertTrue(o.err.startsWith("stdin:1: attempt to perform arithmetic on a nil value\n"), o.err);
    }

    @Test
    void replBannerWithDashIAndOsExitEndsIt() {
        Outcome o = luavm("print(1)\nos.exit(4)\nprint(2)\n", false, "-i");
        assertEquals(4, o.status);
        assertTrue(o.out.startsWith(Main.VERSION + "\n> print(1)\n1\n> os.exit(4)\n"), o.out);
        assertTrue(!o.out.contains("2\n"), o.out);
    }

    @Test
    void replIncompleteAtEndOfInput() {
        Outcome o = luavm("x = \n", false, "-i");
        assertEquals(0, o.status);
        assertTrue(o.out.endsWith("> x = \n>> > \n"), o.out);
        assertEquals("stdin:1: unexpected symbol near <eof>\n", o.err);
    }

    @Test
    void requireFindsModulesNextToTheScriptAndOnPath() throws IOException {
        Files.createDirectories(dir.resolve("lib/pkg"));
        script("mod.lua", "return {x = 1}\n");
        script("lib/pkg/init.lua", "return {y = ...}\n");
        script("lib/other.lua", "\uFEFF#!/bin/lua\nreturn select(2, ...)\n");
        Path main = script("main.lua", "print(require('mod').x, require('pkg').y, require('other'))\n");
        Outcome o = luavm("--path", dir.resolve("lib").toString(), main.toString());
        assertEquals(0, o.status, o.err);
        assertEquals("1\tpkg\t" + dir.resolve("lib") + "/other.lua\n", o.out);
    }

    @Test
    void aRelativePathIsResolvedOnceThroughLinksAndNamesUnderItStayInside() throws IOException {
        Files.createDirectories(dir.resolve("real/src/Test"));
        Files.createDirectories(dir.resolve("t"));
        script("real/src/Test/More.lua", "return 'more'\n");
        script("secret.lua", "return 'SECRET'\n");
        Files.createSymbolicLink(dir.resolve("real/src/Test/out.lua"), dir.resolve("secret.lua"));
        Files.createSymbolicLink(dir.resolve("src"), dir.resolve("real/src")); // the directory given is a link
        // as a user in a test directory types it: ../../../tmp/junit.../src from the working directory
        String rel = Path.of("").toAbsolutePath().relativize(dir.resolve("src")).toString();
        assertTrue(rel.startsWith(".."), rel);
        Path main = script("t/main.lua", String.join("\n",
                "print(require 'Test.More', package.path:find('" + rel + "/?.lua', 1, true) ~= nil)",
                "print(pcall(require, 'Test.out'))",
                "print(package.searchpath('Test.More', '" + rel + "/?.lua'))",
                "package.path = '" + rel + "/../?.lua;" + rel + "/Test/../../secret.lua'",
                "print(pcall(require, 'secret'))", ""));
        Outcome o = luavm("--path", rel, main.toString());
        assertEquals(0, o.status, o.err);
        String[] lines = o.out.split("\n");
        assertEquals("more\ttrue", lines[0]);
        assertTrue(lines[1].startsWith("false\tmodule 'Test.out' not found:"), o.out); // a link leading out
        assertTrue(o.out.contains("\n" + rel + "/Test/More.lua\n"), o.out);
        assertTrue(o.out.contains("false\tmodule 'secret' not found:\n\tno field package.preload['secret']\n"
                + "\tno file '" + rel + "/../secret.lua'\n\tno file '" + rel + "/Test/../../secret.lua'\n"), o.out);
        assertTrue(!o.out.contains("SECRET"), o.out);
    }

    @Test
    void requireNotFoundListsThePlacesTriedAsLua53() throws IOException {
        Path main = script("main.lua", "require 'nope.sub'\n");
        Outcome o = luavm("--path", "extra", main.toString());
        assertEquals(1, o.status);
        assertTrue(o.err.startsWith("luavm: " + main + ":1: module 'nope.sub' not found:\n"
                + "\tno field package.preload['nope.sub']\n"
                + "\tno file '" + dir + "/nope/sub.lua'\n\tno file '" + dir + "/nope/sub/init.lua'\n"
                + "\tno file 'extra/nope/sub.lua'\n\tno file 'extra/nope/sub/init.lua'\n"
                + "stack traceback:\n\t[C]: in function 'require'\n"), o.err);
    }

    @Test
    void requireNeverReadsOutsideItsDirectories() throws IOException {
        Path inside = Files.createDirectories(dir.resolve("app"));
        script("secret.lua", "return 'SECRET'\n");
        Files.createSymbolicLink(inside.resolve("link.lua"), dir.resolve("secret.lua"));
        Files.createSymbolicLink(inside.resolve("linkdir"), dir);
        Path main = script("app/main.lua", String.join("\n",
                "package.path = '" + inside + "/../?.lua;" + dir + "/?.lua;" + inside + "/?.lua;" + inside + "/linkdir/?.lua'",
                "for _, name in ipairs{'secret', 'link'} do",
                "  local ok, err = pcall(require, name)",
                "  print(ok, (err:gsub('\\n.*', '')))",
                "end",
                "print(package.searchpath('secret', package.path))",
                "package.path = '/etc/?'",
                "print(pcall(require, 'passwd'))", ""));
        Outcome o = luavm(main.toString());
        assertEquals(0, o.status, o.err);
        assertTrue(!o.out.contains("SECRET"), o.out);
        assertTrue(o.out.startsWith("false\tmodule 'secret' not found:\n"
                + "false\tmodule 'link' not found:\nnil\t"), o.out);
        assertTrue(o.out.contains("false\tmodule 'passwd' not found:\n\tno field package.preload['passwd']\n\tno file '/etc/passwd'\n"), o.out);
    }

    @Test
    void binaryModulesNeverLoad() throws IOException {
        script("bin.lua", "\u001bLua\u0053\u0000");
        Path main = script("main.lua", "require 'bin'\n");
        Outcome o = luavm(main.toString());
        assertEquals(1, o.status);
        assertTrue(o.err.contains("error loading module 'bin' from file '" + dir + "/bin.lua':"), o.err);
        assertTrue(o.err.contains("binary"), o.err);
    }

    @Test
    void ioWritesAndReadsTheCliStreams() {
        Outcome o = luavm("line one\n42 rest\n", false, "-e",
                "io.write('a', 1, 2.5, '\\n') io.stdout:write('b'):write('\\n') io.stderr:write('to err\\n')"
                + " print(io.read(), io.read('n'), io.read('a'))"
                + " print(io.stdout:close()) print(io.stdout:setvbuf('no'), io.flush(), io.type(io.stdout), io.type(1))"
                + " print(io.open, io.popen, io.tmpfile, pcall(io.lines, 'x'))"
                + " print(tostring(io.stdout):match('^file %(0x%x+%)$') ~= nil)");
        assertEquals(0, o.status, o.err);
        assertEquals("a12.5\nb\nline one\t42\t rest\n\nnil\tcannot close standard file\ntrue\ttrue\tfile\tnil\n"
                + "nil\tnil\tnil\tfalse\tbad argument #1 to 'io.lines' (no files in this sandbox)\ntrue\n", o.out);
        assertEquals("to err\n", o.err);
    }

    @Test
    void ioWriteCountsAgainstTheOutputLimit() {
        Outcome o = luavm("--output", "10", "-e", "io.write(string.rep('x', 100))");
        assertEquals(3, o.status);
        assertEquals("xxxxxxxxxx", o.out);
        assertEquals("luavm: output limit exceeded\n", o.err);
    }

    @Test
    void osExitEndsTheRunWithItsStatus() {
        assertEquals(7, luavm("-e", "pcall(os.exit, 7) print('not reached')").status);
        assertEquals(1, luavm("-e", "os.exit(false)").status);
        Outcome o = luavm("-e", "io.write('kept') os.exit(true)", "-e", "print('not reached')");
        assertEquals(0, o.status);
        assertEquals("kept", o.out);
    }

    @Test
    void bomAndHashLineAreSkippedAsLuaLoadfile() throws IOException {
        Path p = dir.resolve("bom.lua");
        Files.write(p, ("\uFEFF#!/usr/bin/env luavm\nprint('ok')\nerror('line 3')\n").getBytes(StandardCharsets.UTF_8));
        Outcome o = luavm(p.toString());
        assertEquals("ok\n", o.out);
        assertTrue(o.err.startsWith("luavm: " + p + ":3: line 3\n"), o.err);
        o = luavm("\uFEFFprint('stdin ok')\n", false);
        assertEquals("stdin ok\n", o.out);
    }

    @Test
    void errorObjectsPrintThroughTostringInsideTheSandbox() {
        Outcome o = luavm("-e", "error(setmetatable({}, {__tostring = function() return 'custom' end}))");
        assertEquals(1, o.status);
        assertEquals("luavm: custom\n", o.err); // lua5.3 prints the __tostring text alone
        o = luavm("-e", "error({})");
        assertTrue(o.err.startsWith("luavm: (error object is a table value)\nstack traceback:"), o.err);
        o = luavm("--gas", "100000", "-e", "error(setmetatable({}, {__tostring = function() while true do end end}))");
        assertEquals(3, o.status);
        assertEquals("luavm: gas limit exceeded\n", o.err);
        o = luavm("--timeout", "200ms", "-e", "error(setmetatable({}, {__tostring = function() while true do end end}))");
        assertEquals(3, o.status);
        assertEquals("luavm: time limit exceeded\n", o.err);
    }
}
