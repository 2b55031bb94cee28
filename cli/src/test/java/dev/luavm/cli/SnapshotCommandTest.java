package dev.luavm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --save}, {@code --restore} and the REPL's {@code :save} and {@code :load}. */
@Timeout(60)
class SnapshotCommandTest {
    @TempDir
    Path dir;

    @Test
    void saveThenRestoreGoesOn() throws IOException {
        Path state = dir.resolve("state.luavm");
        Path build = dir.resolve("build.lua");
        Files.writeString(build, """
                local n = 0
                function bump() n = n + 1 return n end
                bump(); bump()
                gen = coroutine.wrap(function() for i = 1, 5 do coroutine.yield(i * 10) end end)
                print(gen())
                """);
        MainTest.Outcome first = luavm("--save", state.toString(), build.toString());
        assertEquals(0, first.status(), first.err());
        assertEquals("10\n", first.out());
        assertTrue(Files.size(state) > 0);
        MainTest.Outcome second = luavm("--restore", state.toString(), "-e", "print(bump(), gen(), gen())");
        assertEquals(0, second.status(), second.err());
        assertEquals("3\t20\t30\n", second.out());
        // the standard streams are the new process's: io.write goes to this run's stdout
        MainTest.Outcome third = luavm("--restore", state.toString(), "--save", state.toString(), "-e",
                "io.stdout:write(bump(), '\\n') io.stderr:write('err\\n')");
        assertEquals("3\n", third.out());
        assertEquals("err\n", third.err());
        assertEquals("4\t20\n", luavm("--restore", state.toString(), "-e", "print(bump(), gen())").out());
    }

    @Test
    void saveOnlyAfterSuccess() throws IOException {
        Path state = dir.resolve("s.luavm");
        MainTest.Outcome failed = luavm("--save", state.toString(), "-e", "x = 1", "-e", "error('boom')");
        assertEquals(1, failed.status());
        assertFalse(Files.exists(state), "a failed run writes no state");
        assertEquals(0, luavm("--save", state.toString(), "-e", "x = 1").status());
        byte[] kept = Files.readAllBytes(state);
        assertEquals(1, luavm("--restore", state.toString(), "--save", state.toString(), "-e", "x = 2 error('no')").status());
        assertArrayEquals(kept, Files.readAllBytes(state), "the previous state stays when a run fails");
        assertEquals(3, luavm("--save", state.toString(), "--gas", "1000", "-e", "while true do end").status());
        assertArrayEquals(kept, Files.readAllBytes(state));
        assertEquals("1\n", luavm("--restore", state.toString(), "-e", "print(x)").out());
    }

    @Test
    void badSnapshotsAreReported() throws IOException {
        Path junk = dir.resolve("junk");
        Files.writeString(junk, "not a snapshot");
        MainTest.Outcome o = luavm("--restore", junk.toString(), "-e", "print(1)");
        assertEquals(1, o.status());
        assertTrue(o.err().startsWith("luavm: cannot restore " + junk + ": not a luavm snapshot"), o.err());
        assertTrue(luavm("--restore", dir.resolve("missing").toString(), "-e", "print(1)").err().contains("cannot open"));
        Path state = dir.resolve("s.luavm");
        luavm("--save", state.toString(), "-e", "s = string.upper('x')");
        MainTest.Outcome lacking = luavm("--restore", state.toString(), "--caps", "base", "-e", "print(s)");
        assertEquals(1, lacking.status());
        assertTrue(lacking.err().contains("library function"), lacking.err());
        assertEquals(1, luavm("--restore", state.toString(), "--seed", "3", "-e", "print(s)").status());
        assertEquals(1, luavm("--restore", state.toString(), "--seed", "random", "-e", "print(s)").status());
    }

    @Test
    void replSavesAndLoads() throws IOException {
        Path state = dir.resolve("repl.luavm");
        MainTest.Outcome o = luavm("x = 41\n:save " + state + "\nx = 0\n:load " + state + "\n=x + 1\n:save\n:load "
                + dir.resolve("nope") + "\n", false, "-i");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("saved "), o.out());
        assertTrue(o.out().contains("loaded " + state), o.out());
        assertTrue(o.out().contains("> =x + 1\n42\n"), o.out());
        assertTrue(o.err().contains("usage: :save FILE | :load FILE"), o.err());
        assertTrue(o.err().contains("cannot read " + dir.resolve("nope")), o.err());
        // the REPL's state is a state like any other
        assertEquals("41\n", luavm("--restore", state.toString(), "-e", "print(x)").out());
    }
}
