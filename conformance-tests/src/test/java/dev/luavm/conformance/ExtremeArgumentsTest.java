package dev.luavm.conformance;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every library function, called with extreme arguments, fails only as Lua fails: a Lua error
 * (with PUC's wording, never Java text) or a limit, never a Java exception escaping to the host.
 *
 * <p>A seeded generator (reproducible: a finding names its seed, call number and the call as
 * Lua source) picks a function among every global and library-table function of a sandbox with
 * the standard bundles plus {@code package} and {@code debug}, and 1 to 4 arguments from a pool
 * of hostile values ({@link #POOL}: integer and float extremes, NaN, -0.0, huge and malformed
 * strings, formats and patterns, tables with throwing or lying metamethods, functions that
 * error or yield, coroutines in every state). Each call is one run through the public API under
 * small gas, memory and depth limits. A finding is any throwable other than
 * {@link LuaScriptException} / {@link LuaLimitException}, a limit that stands for a Java
 * {@code StackOverflowError}/{@code OutOfMemoryError} the sandbox had to catch, an error with a
 * host cause, or a message or string result naming a Java class.
 *
 * A second test applies every operator to every pair of the numbers and short strings, since
 * the library's arithmetic and formatting are the VM's.
 *
 * <p>CI runs {@value #DEFAULT_CALLS} calls; {@code -Dluavm.extremeArgs.calls=N} runs more and
 * {@code -Dluavm.extremeArgs.seed=S} picks the seed (e.g. {@code mvn -o -pl conformance-tests -am test
 * -Dtest=ExtremeArgumentsTest -Dsurefire.failIfNoSpecifiedTests=false -Dluavm.extremeArgs.calls=500000}).
 * The messages themselves were checked against lua5.3 by running the same kind of calls under
 * both interpreters and comparing the error text.
 */
class ExtremeArgumentsTest {
    private static final int DEFAULT_CALLS = 20_000;
    /** calls per sandbox before a fresh one (calls may mutate the pool's tables) */
    private static final int CALLS_PER_SANDBOX = 400;
    private static final LuaVM VM = LuaVM.create();
    private static final Limits LIMITS = Limits.defaults()
            .withGas(3_000_000)
            .withMemory(16L << 20)
            .withCallDepth(200)
            .withOutput(16L << 10)
            .withTimeout(Duration.ofSeconds(5));
    private static final Capabilities CAPS = Capabilities.standard().toBuilder().bundle("package", "debug").build();

    /** Numbers and numeric strings (picked more often: most parameters are numbers). */
    static final List<String> NUMBERS = List.of(
            "0", "1", "-1", "2", "3", "4", "7", "8", "16", "100", "255", "256", "1000", "-1000", "-2", "-100",
            "0x10FFFF", "0x110000", "0x7FFFFFFF", "0x80000000", "2^31 - 1",
            "math.maxinteger", "math.mininteger", "math.maxinteger - 1", "math.mininteger + 1",
            "2^31", "-2^31", "2^32", "1 << 31", "1 << 32", "(1 << 53) + 1",
            "2^53", "-2^53", "2^63", "-2^63", "2^64", "1e15", "1e100", "-1e308", "1e308", "5e-324",
            "1/0", "-1/0", "0/0", "-0.0", "0.5", "-0.5", "3.7",
            "'10'", "'0x10'", "' 10 '", "'-0'", "'1e400'", "'nan'", "'inf'",
            "'9223372036854775807'", "'9223372036854775808'", "'-9223372036854775809'", "'0x7fffffffffffffff'",
            "'0x' .. string.rep('f', 40)", "string.rep('9', 400)", "'1' .. string.rep('0', 5000)");

    /** Strings: formats, patterns, pack formats, modes, malformed UTF-8, big ones. */
    static final List<String> STRINGS = List.of(
            "''", "'a'", "'abc'",
            "'#'", "'#x'", "'n'", "'b'", "'t'", "'bt'", "'*t'", "'!*t'", "'*l'", "'!%c'", "'%c'",
            "'%'", "'%d'", "'%s'", "'%q'", "'%a'", "'%5.2s'", "'%99d'", "'%-99.99f'", "'%.99f'", "'%099.99e'",
            "'%z'", "'%E'", "'%O'", "'%Ez'", "'%' .. string.rep('9', 100) .. 'd'", "string.rep('%d', 300)",
            "string.rep('%c%x%Y', 200)", "'%i%u%o%X%e%g%G%A%%'", "'%10.3q'", "'%.3d'", "'%#x'", "'%+ 0#-x'",
            "'%.0a'", "'%.99a'", "'%5c'", "'%-5.3s'", "'%.14g'", "'%99.99g'",
            "'('", "'(()'", "'%b'", "'%bxy'", "'%f'", "'%f['", "'['", "'[^'", "'[a-'", "'%1'", "'(.)%2'",
            "string.rep('(', 40)", "string.rep('.-', 30) .. '$'", "string.rep('a?', 30) .. string.rep('a', 30)",
            "'i17'", "'!17'", "'Xi'", "'s0'", "'z'", "'<>=!'", "'i0'", "'c' .. string.rep('9', 25)",
            "' c9999999999'", "'j'", "'d'", "'s1'", "'!4 i3 Xd'",
            "'\\255\\254'", "'\\237\\160\\128'", "'\\244\\144\\128\\128'", "'\\192\\128'", "'\\0'", "'a\\0b'",
            "string.rep('\\128', 3000)", "utf8.char(0x10FFFF, 0, 0x7FFFFFFF)",
            "string.rep('a', 1 << 20)", "string.rep('x', 65536)", "string.rep('\\0', 1000)",
            "'x = '", "'return ...'", "'return 1'", "'\\27Lua'", "'=(load)'", "'@name'");

    /** Everything else: nil, booleans, tables (some hostile), functions, coroutines. */
    static final List<String> OTHERS = List.of(
            "nil", "true", "false",
            "{}", "{1, 2, 3}", "{n = 2^31}", "{n = -1}", "{1, nil, 3}", "{'a', 'b', 'c', 1, 2}",
            "(function() local t = {} for i = 1, 2000 do t[i] = i end return t end)()",
            "{[math.maxinteger] = 1, [math.mininteger] = 2}", "{year = 2^40, month = 1, day = 1}",
            "{year = 2000, month = 1, day = 1}", "{year = 2000, month = 1, day = 2^31}",
            "{year = 'x', month = 1, day = 1}", "{year = 1e300, month = 1, day = 1}",
            "HOSTILE.erroring()", "HOSTILE.lying()", "HOSTILE.yielding()", "HOSTILE.locked()", "HOSTILE.hugelen()",
            "function() end", "function(...) return ... end", "function() error('e') end",
            "function() error({}) end", "function() error() end", "function() return coroutine.yield(1) end",
            "function(a, b) return true end", "function(a, b) return a end",
            "function(...) return table.unpack({}, 1, 250) end", "function() return {} end",
            "error", "pcall", "select", "tostring", "string.rep", "coroutine.yield", "coroutine.wrap(function() end)",
            "coroutine.create(function() end)", "HOSTILE.suspended()", "HOSTILE.dead()", "HOSTILE.failed()",
            "coroutine.running()");

    /** Every value passed as an argument, as a Lua expression (so a finding prints as a Lua call). */
    static final List<String> POOL = Stream.of(NUMBERS, STRINGS, OTHERS).flatMap(List::stream).toList();

    /** Functions the library hands out (iterators, searchers, wrap functions), as Lua expressions. */
    static final List<String> DERIVED = List.of(
            "(string.gmatch('abc', '()'))", "(string.gmatch(string.rep('a', 100), 'a*'))", "(utf8.codes('a\\255b'))",
            "(ipairs({1, 2}))", "(pairs({}))", "package.searchers[1]", "package.searchers[2]",
            "coroutine.wrap(function(...) while true do coroutine.yield(...) end end)",
            "coroutine.wrap(function(...) return ... end)");

    /** Helpers the pool's expressions use; defined after the function list is taken. */
    private static final String PRELUDE = String.join("\n",
            "local function e() error('mm') end",
            "local y = coroutine.yield",
            "HOSTILE = {",
            "  erroring = function() return setmetatable({}, {__index = e, __newindex = e, __len = e, __call = e,",
            "    __tostring = e, __eq = e, __lt = e, __le = e, __concat = e, __add = e, __unm = e, __band = e,",
            "    __pairs = e, __name = {}, __mode = 'kv', __div = e, __idiv = e, __mod = e, __shl = e}) end,",
            "  lying = function() return setmetatable({1, 2}, {__index = function(t, k) return k end,",
            "    __len = function() return '12' end, __tostring = function() return {} end, __name = 'Lie',",
            "    __lt = function() return true end, __le = function() return false end, __eq = function() return true end,",
            "    __pairs = function(t) return 1, 2, 3 end, __call = function(...) return ... end}) end,",
            "  yielding = function() return setmetatable({}, {__index = function() return y() end,",
            "    __len = function() return y() end, __tostring = function() return y() end,",
            "    __lt = function() return y() end, __newindex = function() y() end, __call = function() y() end}) end,",
            "  locked = function() return setmetatable({}, {__metatable = 'locked', __len = function() return 2^63 end}) end,",
            "  hugelen = function() return setmetatable({}, {__len = function() return math.maxinteger end,",
            "    __index = function(t, k) return k end}) end,",
            "  suspended = function() local co = coroutine.create(function(...) while true do y(...) end end)",
            "    coroutine.resume(co, 1) return co end,",
            "  dead = function() local co = coroutine.create(function() end) coroutine.resume(co) return co end,",
            "  failed = function() local co = coroutine.create(function() error('x') end) coroutine.resume(co) return co end,",
            "}",
            "P = {}",
            "function SETPOOL(i, src)",
            "  local f = load('return ' .. src)",
            "  local ok, v = pcall(f)",
            "  if ok then P[i] = v else P[i] = nil end",
            "end",
            "local F = {}",
            "function SETFN(i, name)",
            "  local v = _G",
            "  for part in string.gmatch(name, '[^.]+') do v = rawget(v, part) end",
            "  F[i] = v",
            "end",
            "function SETDERIVED(i, src) F[i] = load('return ' .. src)() end",
            "local find, type, sub, unpack = string.find, type, string.sub, table.unpack",
            "local function check(...)",
            "  for i = 1, select('#', ...) do",
            "    local v = select(i, ...)",
            "    if type(v) == 'string' and #v < 100000 and (find(v, 'java.', 1, true) or find(v, 'Exception', 1, true)) then",
            "      error('JAVA TEXT in result ' .. i .. ': ' .. sub(v, 1, 300), 0)",
            "    end",
            "  end",
            "end",
            "function PROBE(fi, n, a, b, c, d)",
            "  local f = F[fi]",
            "  if n == 1 then check(f(P[a]))",
            "  elseif n == 2 then check(f(P[a], P[b]))",
            "  elseif n == 3 then check(f(P[a], P[b], P[c]))",
            "  else check(f(P[a], P[b], P[c], P[d])) end",
            "end");

    /** Lists every function reachable from _G in one level of library tables, sorted. */
    private static final String LIST_FUNCTIONS = String.join("\n",
            "local names = {}",
            "for k, v in pairs(_G) do",
            "  if type(v) == 'function' then names[#names + 1] = k",
            "  elseif type(v) == 'table' and type(k) == 'string' and k ~= '_G' then",
            "    for k2, v2 in pairs(v) do",
            "      if type(v2) == 'function' and type(k2) == 'string' then names[#names + 1] = k .. '.' .. k2 end",
            "    end",
            "  end",
            "end",
            "table.sort(names)",
            "return names");

    @Test
    void everyLibraryFunctionFailsOnlyWithLuaErrors() {
        long seed = Long.getLong("luavm.extremeArgs.seed", 20261123L);
        int calls = Integer.getInteger("luavm.extremeArgs.calls", DEFAULT_CALLS);
        List<String> functions = functionNames();
        Random rnd = new Random(seed);
        List<String> findings = new ArrayList<>();
        long start = System.nanoTime();
        int done = 0;
        Sandbox sb = null;
        try {
            for (int i = 0; i < calls && findings.size() < 20; i++) {
                if (sb == null || i % CALLS_PER_SANDBOX == 0) {
                    if (sb != null) sb.close();
                    sb = freshSandbox(functions);
                }
                int fi = rnd.nextInt(functions.size());
                int n = 1 + rnd.nextInt(4);
                int[] a = new int[4];
                for (int k = 0; k < 4; k++) a[k] = pick(rnd);
                String call = describe(functions.get(fi), n, a);
                String finding = probe(sb, fi, n, a);
                done++;
                if (finding != null && !finding.equals(SPENT)) {
                    findings.add("seed " + seed + " call " + i + ": " + call + " -> " + finding);
                }
                if (finding != null) {
                    sb.close();
                    sb = freshSandbox(functions);
                }
            }
        } finally {
            if (sb != null) sb.close();
        }
        System.out.printf("ExtremeArgumentsTest: %d calls of %d functions with %d pool values in %d ms (seed %d)%n",
                done, functions.size(), POOL.size(), (System.nanoTime() - start) / 1_000_000, seed);
        if (!findings.isEmpty()) fail(findings.size() + " findings:\n" + String.join("\n", findings));
    }

    /** Every operator on every pair of pool values, in one run: the arithmetic behind the library. */
    private static final String OPERATORS = String.join("\n",
            "local ops = {'+', '-', '*', '/', '//', '%', '^', '&', '|', '~', '<<', '>>', '..', '==', '<', '<='}",
            "local unary = {'-', '~', '#', 'not '}",
            "local fs = {}",
            "for _, op in ipairs(ops) do fs[#fs + 1] = load('local a, b = ... return a ' .. op .. ' b') end",
            "for _, op in ipairs(unary) do fs[#fs + 1] = load('local a = ... return ' .. op .. 'a') end",
            "local find, type, pcall = string.find, type, pcall",
            "local n = 0",
            "for i = 1, NPOOL do for j = 1, NPOOL do for _, f in ipairs(fs) do",
            "  local ok, r = pcall(f, P[i], P[j])",
            "  n = n + 1",
            "  if type(r) == 'string' and #r < 100000 and (find(r, 'java.', 1, true) or find(r, 'Exception', 1, true)) then",
            "    error('JAVA TEXT for values ' .. i .. ', ' .. j .. ': ' .. r, 0)",
            "  end",
            "end end end",
            "return n");

    @Test
    void everyOperatorOnExtremeValuesFailsOnlyWithLuaErrors() {
        // only numbers, strings and plain tables: hostile metamethods and big strings would only cost time here
        List<String> values = Stream.of(NUMBERS, STRINGS.subList(0, 24), List.of("nil", "true", "{}")).flatMap(List::stream).toList();
        Limits limits = LIMITS.withGas(200_000_000).withMemory(64L << 20).withTimeout(Duration.ofSeconds(60));
        try (Sandbox sb = VM.sandbox().capabilities(CAPS).limits(limits).output(OutputSink.discard()).build()) {
            sb.eval("prelude", PRELUDE);
            for (int i = 0; i < values.size(); i++) sb.call("SETPOOL", (long) i + 1, values.get(i));
            sb.setGlobal("NPOOL", (long) values.size());
            Object n = sb.eval("operators", OPERATORS);
            System.out.printf("ExtremeArgumentsTest: %s operator evaluations on %d values%n", n, values.size());
        } catch (LuaScriptException e) {
            fail("a Java exception's text reached Lua: " + e.getMessage(), e);
        }
    }

    /** A pool index: a number 45% of the time, a string 35%, anything 20%. */
    private static int pick(Random rnd) {
        int roll = rnd.nextInt(100);
        if (roll < 45) return rnd.nextInt(NUMBERS.size());
        if (roll < 80) return NUMBERS.size() + rnd.nextInt(STRINGS.size());
        return rnd.nextInt(POOL.size());
    }

    private static String describe(String fn, int n, int[] a) {
        StringBuilder sb = new StringBuilder(fn).append('(');
        for (int k = 0; k < n; k++) {
            if (k > 0) sb.append(", ");
            String src = POOL.get(a[k]);
            sb.append(src.length() > 80 ? src.substring(0, 77) + "..." : src);
        }
        return sb.append(')').toString();
    }

    /** {@link #probe}'s answer when a limit spent the sandbox (gas, time, output): take a fresh one. */
    private static final String SPENT = "spent";

    /** null when the call ended as Lua would (SPENT if it spent the sandbox), else what went wrong. */
    private static String probe(Sandbox sb, int fi, int n, int[] a) {
        try {
            sb.call("PROBE", (long) fi + 1, (long) n, (long) a[0] + 1, (long) a[1] + 1, (long) a[2] + 1, (long) a[3] + 1);
            return null;
        } catch (LuaLimitException e) {
            Throwable c = e.getCause();
            if (c instanceof StackOverflowError || c instanceof OutOfMemoryError) {
                return "the sandbox had to catch a Java " + c.getClass().getSimpleName() + ": " + stack(c);
            }
            if (e.limit() == LuaLimitException.Limit.MEMORY || e.limit() == LuaLimitException.Limit.DEPTH) return null;
            return SPENT;
        } catch (LuaScriptException e) {
            String m = String.valueOf(e.getMessage());
            if (e.getCause() != null) return "a Lua error with a host cause: " + stack(e.getCause());
            if (m.contains("JAVA TEXT") || m.contains("java.") || m.contains("Exception")) return "Java text: " + m;
            return null;
        } catch (Throwable t) {
            return "escaped: " + stack(t);
        }
    }

    private static String stack(Throwable t) {
        StringBuilder sb = new StringBuilder(t.toString());
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(6, st.length); i++) sb.append("\n      at ").append(st[i]);
        return sb.toString();
    }

    private static Sandbox freshSandbox(List<String> functions) {
        Sandbox sb = VM.sandbox().capabilities(CAPS).limits(LIMITS).output(OutputSink.discard()).randomSeed(7)
                .clock(Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneId.of("Europe/Paris"))).build();
        sb.eval("prelude", PRELUDE);
        for (int i = 0; i < functions.size(); i++) {
            String f = functions.get(i);
            sb.call(DERIVED.contains(f) ? "SETDERIVED" : "SETFN", (long) i + 1, f);
        }
        for (int i = 0; i < POOL.size(); i++) sb.call("SETPOOL", (long) i + 1, POOL.get(i));
        return sb;
    }

    private static List<String> functionNames() {
        try (Sandbox sb = VM.sandbox().capabilities(CAPS).limits(LIMITS).output(OutputSink.discard()).build()) {
            List<String> out = new ArrayList<>();
            for (Object o : (List<?>) sb.eval("list", LIST_FUNCTIONS)) out.add((String) o);
            out.addAll(DERIVED);
            return out;
        }
    }
}
