package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaExitException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.conformance.TestTier;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T10 with files in play: {@code require} reads only the host's module directories, read-only
 * (no {@code ..}, no outside absolute name, no symbolic link leaving them, no binary chunk), and
 * {@code io} has no file of the host: only the sandbox's output and the input the host gave.
 */
class T10FilesAndStreamsTest {
    @TempDir
    Path dir;

    private Sandbox sandbox(Path modules, String input) {
        Sandbox.Builder b = TestTier.builder().build().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("package", "io", "os.exit").build())
                .limits(Limits.defaults().withGas(5_000_000))
                .moduleDirectories(List.of(modules));
        if (input != null) b.input(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        return b.build();
    }

    private Path secretOutside() throws IOException {
        Path secret = dir.resolve("secret.lua");
        Files.writeString(secret, "return 'SECRET'");
        return secret;
    }

    @Test
    void dotDotInPackagePathIsRefused() throws IOException {
        secretOutside();
        Path mods = Files.createDirectories(dir.resolve("mods"));
        try (Sandbox sb = sandbox(mods, null)) {
            Object r = sb.eval("package.path = '" + mods + "/../?.lua' return select(2, pcall(require, 'secret'))");
            assertEquals("module 'secret' not found:\n\tno field package.preload['secret']\n\tno file '" + mods + "/../secret.lua'", r);
            assertNull(sb.eval("return (package.searchpath('secret', '" + mods + "/../?.lua'))"));
        }
    }

    @Test
    void absoluteNamesOutsideAreRefused() throws IOException {
        Path secret = secretOutside();
        Path mods = Files.createDirectories(dir.resolve("mods"));
        try (Sandbox sb = sandbox(mods, null)) {
            Object r = sb.eval("package.path = '" + dir + "/?.lua;/etc/?' "
                    + "local ok, err = pcall(require, 'secret') local ok2 = pcall(require, 'passwd') return tostring(ok) .. tostring(ok2)");
            assertEquals("falsefalse", r);
            assertTrue(Files.exists(secret));
        }
    }

    @Test
    void symbolicLinksLeavingTheDirectoryAreRefused() throws IOException {
        Path secret = secretOutside();
        Path mods = Files.createDirectories(dir.resolve("mods"));
        Files.createSymbolicLink(mods.resolve("file.lua"), secret);
        Files.createSymbolicLink(mods.resolve("up"), dir);
        Files.writeString(mods.resolve("inside.lua"), "return 'inside'");
        Files.createSymbolicLink(mods.resolve("alias.lua"), mods.resolve("inside.lua"));
        try (Sandbox sb = sandbox(mods, null)) {
            assertEquals(false, sb.eval("return (pcall(require, 'file'))"));
            assertEquals(false, sb.eval("return (pcall(require, 'up.secret'))"));
            assertEquals("inside", sb.eval("return require 'alias'")); // a link that stays inside is fine
        }
    }

    @Test
    void binaryModulesNeverLoad() throws IOException {
        Path mods = Files.createDirectories(dir.resolve("mods"));
        Files.write(mods.resolve("bin.lua"), new byte[] {27, 'L', 'u', 'a', 0x53, 0, 1, 2, 3});
        try (Sandbox sb = sandbox(mods, null)) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("require 'bin'"));
            assertTrue(e.getMessage().contains("error loading module 'bin' from file '" + mods + "/bin.lua'"), e.getMessage());
        }
    }

    @Test
    void moduleSourcePaysGasAndMemoryLikeLoad() throws IOException {
        Path mods = Files.createDirectories(dir.resolve("mods"));
        Files.writeString(mods.resolve("small.lua"), "x = 1\n".repeat(100) + "return x");
        Files.writeString(mods.resolve("big.lua"), "x = 1\n".repeat(1000) + "return x");
        long small;
        long big;
        try (Sandbox sb = sandbox(mods, null)) {
            sb.eval("require 'small'");
            small = sb.usage().gas();
        }
        try (Sandbox sb = sandbox(mods, null)) {
            sb.eval("require 'big'");
            big = sb.usage().gas();
        }
        System.out.printf("require gas: 100 lines %d, 1000 lines %d%n", small, big);
        assertTrue(big >= 8 * small, small + " vs " + big);
    }

    @Test
    void ioHasNoHostFiles() {
        try (Sandbox sb = sandbox(dir, null)) {
            assertEquals(true, sb.eval("return io.open == nil and io.popen == nil and io.tmpfile == nil "
                    + "and io.read == nil and io.stdin == nil and io.lines == nil and io.input == nil"));
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("io.output('/tmp/x')"));
            assertTrue(e.getMessage().contains("no files in this sandbox"), e.getMessage());
            assertEquals("cannot close standard file", sb.eval("return select(2, io.stdout:close())"));
        }
        try (Sandbox sb = sandbox(dir, "a\nb\n")) {
            assertFalse(sb.evalAll("x", "return pcall(io.lines, '/etc/passwd')").get(0) == Boolean.TRUE);
            assertEquals("a+b", sb.eval("local t = {} for l in io.lines() do t[#t + 1] = l end return table.concat(t, '+')"));
        }
    }

    @Test
    void ioWriteFloodEndsOnTheOutputLimit() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Sandbox sb = TestTier.builder().build().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io").build())
                .limits(Limits.defaults().withOutput(1000)).output(out).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class,
                    () -> sb.eval("local s = string.rep('x', 100) while true do io.stderr:write(s) io.write(s) end"));
            assertEquals(LuaLimitException.Limit.OUTPUT, e.limit());
        }
    }

    @Test
    void inputFloodEndsOnALimit() {
        String flood = "x".repeat(4 << 20);
        try (Sandbox sb = TestTier.builder().build().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io").build())
                .limits(Limits.defaults().withMemory(1 << 20))
                .input(new ByteArrayInputStream(flood.getBytes(StandardCharsets.US_ASCII))).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("return io.read('a')"));
            assertEquals(LuaLimitException.Limit.MEMORY, e.limit());
        }
    }

    @Test
    void osExitIsFinalAndNeverExitsTheJvm() {
        try (Sandbox sb = sandbox(dir, null)) {
            LuaExitException e = assertThrows(LuaExitException.class,
                    () -> sb.eval("pcall(os.exit, 5) error('not reached')"));
            assertEquals(5, e.status());
            assertEquals(2L, sb.eval("return 1 + 1")); // the sandbox goes on
        }
    }

    @Test
    void loopingTostringOfAnErrorObjectEndsOnGas() {
        try (Sandbox sb = sandbox(dir, null)) {
            LuaScriptException e = assertThrows(LuaScriptException.class,
                    () -> sb.eval("error(setmetatable({}, {__tostring = function() while true do end end}))"));
            assertEquals(LuaLimitException.Limit.GAS,
                    assertThrows(LuaLimitException.class, () -> sb.errorMessage(e)).limit());
        }
        try (Sandbox sb = sandbox(dir, null)) {
            LuaScriptException e = assertThrows(LuaScriptException.class,
                    () -> sb.eval("error(setmetatable({}, {__tostring = function() return 'shown' end}))"));
            assertEquals("shown", sb.errorMessage(e));
        }
    }
}
