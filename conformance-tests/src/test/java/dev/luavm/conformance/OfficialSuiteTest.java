package dev.luavm.conformance;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the official Lua 5.3.6 test suite, one file per sandbox, the way all.lua would (see
 * {@link OfficialSuite}), and writes target/official-report.txt: PASS, FAIL or SKIP per file
 * with the first error. The suite is not part of this repository: give its testes/ directory
 * with {@code -Dlua.suite.dir=...}; without it the test is skipped with a message.
 *
 * <p>Every class A and B file ({@link OfficialSuite#MUST_PASS}) must pass.
 */
class OfficialSuiteTest {
    static final String SENTINEL = "@@LUAVM-OFFICIAL-FILE-DONE@@";

    record Result(String file, String status, double seconds, String detail) {
        String line() {
            return String.format("%-7s %-15s %7.2fs  %s", status, file, seconds, detail);
        }
    }

    @Test
    void officialSuite() throws IOException {
        String dir = System.getProperty("lua.suite.dir", System.getenv("LUA_SUITE_DIR"));
        Assumptions.assumeTrue(dir != null && !dir.isBlank(),
                "official suite not run: pass -Dlua.suite.dir=<lua/lua v5.3.6 testes/ directory>");
        Path suite = Path.of(dir);
        Assumptions.assumeTrue(Files.isRegularFile(suite.resolve("all.lua")), "no all.lua in " + suite);
        String only = System.getProperty("lua.suite.only", "");

        List<OfficialSuite.Skip> skips = OfficialSuite.loadSkips();
        LuaVM vm = TestTier.vm(); // -Dluavm.test.tier=interp|auto|compile-all
        List<Result> results = new ArrayList<>();
        for (String file : OfficialSuite.FILES) {
            if (!only.isBlank() && !List.of(only.split(",")).contains(file)) continue;
            Result r = runFile(vm, suite, file, skips);
            System.out.println(r.line());
            results.add(r);
        }
        long pass = results.stream().filter(r -> r.status().equals("PASS")).count();
        long skip = results.stream().filter(r -> r.status().equals("SKIP")).count();
        long fail = results.size() - pass - skip;
        StringBuilder report = new StringBuilder("Lua 5.3.6 official suite under luavm (skips: official/skips.txt)\n");
        for (Result r : results) report.append(r.line()).append('\n');
        report.append(pass).append(" passed, ").append(fail).append(" failed, ").append(skip).append(" skipped\n");
        List<String> refused = TestTier.compileFailures(vm);
        report.append("tier ").append(vm.tier()).append(", ").append(vm.compiledFunctions().size()).append(" functions compiled, ")
                .append(refused.size()).append(" refused by the generator or the JVM\n");
        for (String f : refused) report.append("  refused: ").append(f).append('\n');
        Path out = Path.of("target", "official-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);

        List<String> mustPassFailures = results.stream()
                .filter(r -> OfficialSuite.MUST_PASS.contains(r.file()) && !r.status().equals("PASS"))
                .map(Result::line).toList();
        assertTrue(mustPassFailures.isEmpty(), "class A/B files failing:\n" + String.join("\n", mustPassFailures));
        assertTrue(refused.isEmpty(), "generated classes refused (a code generator bug):\n" + String.join("\n", refused));
    }

    static Result runFile(LuaVM vm, Path suite, String file, List<OfficialSuite.Skip> skips) throws IOException {
        long start = System.nanoTime();
        byte[] source = OfficialSuite.applySkips(file, Files.readAllBytes(suite.resolve(file)), skips);
        if (source == null) {
            String reason = skips.stream().filter(s -> s.file().equals(file) && s.all())
                    .map(s -> s.category() + ": " + s.reason()).findFirst().orElse("");
            return new Result(file, "SKIP", 0, "skip list: " + reason);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Capabilities caps = Capabilities.builder().bundles(Capabilities.standard().bundles())
                .bundle("package").bundle("debug").build();
        Limits limits = Limits.unlimited().withTimeout(Duration.ofSeconds(120)).withMemory(2L << 30);
        String status;
        String detail = "";
        try (Sandbox sb = vm.sandbox().capabilities(caps).limits(limits).output(out).build()) {
            sb.setGlobal("__src", source);
            String driver = OfficialSuite.PRELUDE + "\n"
                    + "local __f = assert(load(__src, '@" + file + "')); __src = nil\n"
                    + (file.equals("big.lua")
                        ? "local __co = coroutine.wrap(__f); local __r = __co(); if __r == 'b' then __r = __co() end\n"
                          + "assert(__r == 'a', 'big.lua must finish with a')\n"
                        : "local __r = __f()\n" + OfficialSuite.returnCheck(file) + "\n")
                    + "assert(rawget(_G, 'debug') == nil, 'no test module should define debug')\n"
                    + "print('" + SENTINEL + "')\n";
            sb.evalAll("=driver", driver);
            String printed = out.toString(StandardCharsets.ISO_8859_1);
            String banner = OfficialSuite.SELF_SKIP_BANNERS.get(file);
            if (!printed.contains(SENTINEL)) {
                status = "FAIL";
                detail = "no completion sentinel";
            } else if (banner != null && !printed.contains(banner)) {
                status = "SKIP";
                detail = "the file skipped itself (needs " + (file.equals("big.lua") ? "_soft = false" : "T or the stand-alone interpreter") + ")";
            } else {
                status = "PASS";
            }
        } catch (LuaException e) {
            status = "FAIL";
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            detail = m.split("\n", 2)[0];
            if (detail.length() > 200) detail = detail.substring(0, 200);
        }
        return new Result(file, status, (System.nanoTime() - start) / 1e9, detail);
    }
}
