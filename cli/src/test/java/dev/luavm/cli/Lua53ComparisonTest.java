package dev.luavm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The CLI beside the reference {@code lua5.3} (skipped where it is not installed). */
@Timeout(120)
class Lua53ComparisonTest {
    @TempDir
    Path dir;

    record Ran(int status, String out, String err) {}

    private static Ran lua53(Path cwd, String stdin, List<String> env, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("lua5.3"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        for (String kv : env) pb.environment().put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return null;
        }
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return new Ran(p.exitValue(), out, err);
    }

    @Test
    void replOnAPipeMatchesLua53() throws Exception {
        String input = "1 + 1\nreturn 1, nil, 'x'\nlocal a = 5\nfor i = 1, 2 do\nprint(i)\nend\n"
                + "error('boom')\nt = setmetatable({}, {__tostring = function() return 'T' end})\nt, t\n=#'abc'\n";
        Ran ref = lua53(dir, input, List.of(), "-i");
        assumeTrue(ref != null, "lua5.3 is not installed");
        MainTest.Outcome ours = MainTest.luavm(input, false, "-i");
        assertEquals(ref.status(), ours.status());
        // the banners differ by design; everything after them is the same
        assertEquals(afterFirstLine(ref.out()), afterFirstLine(ours.out()));
        assertEquals(ref.err(), ours.err());
    }

    @Test
    void moduleNotFoundMatchesLua53ByteForByte() throws Exception {
        Path main = dir.resolve("main.lua");
        Files.writeString(main, "require 'no.such'\n");
        Ran ref = lua53(dir, "", List.of("LUA_PATH=./?.lua;./?/init.lua;lib/?.lua;lib/?/init.lua", "LUA_CPATH="), "main.lua");
        assumeTrue(ref != null, "lua5.3 is not installed");
        // the same search from elsewhere: the script's directory by its full name, lib relative
        MainTest.Outcome ours = MainTest.luavm("", false, "--path", "lib", dir.resolve("main.lua").toString());
        // the only differences: the program name, and the script named by its full path
        String expected = ref.err().replace("lua5.3: ", "luavm: ").replace("main.lua:", main + ":")
                .replace("'./no/such", "'" + dir + "/no/such");
        assertEquals(expected, ours.err());
        assertEquals(ref.status(), ours.status());
    }

    private static String afterFirstLine(String s) {
        return s.substring(s.indexOf('\n') + 1);
    }
}
