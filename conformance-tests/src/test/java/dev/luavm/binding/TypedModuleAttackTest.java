package dev.luavm.binding;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaHandle;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.Safety;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed host modules under attack (issue 23, item 7): recursive callbacks, callbacks kept past
 * their call, out-of-range numbers, huge and cyclic values both ways, Optional and enum edge
 * cases. Each must end as a Lua error with a clear message or as a limit, never as a Java
 * exception in the host, a hung thread or a value silently changed.
 */
class TypedModuleAttackTest {
    enum Colour { RED, GREEN }

    public record Node(String name, List<Node> children) {}

    public record Box(Optional<Integer> n, Colour colour) {}

    @LuaModule("m")
    public static class Target {
        LuaCallback keptCallback;
        Supplier<Object> keptSupplier;
        LuaHandle keptHandle;

        @LuaFunction(description = "calls f with x", safety = Safety.SAFE)
        public Object apply(Function<Object, Object> f, Object x) {
            return f.apply(x);
        }

        @LuaFunction(description = "calls f, swallowing whatever it throws", safety = Safety.SAFE)
        public String swallow(Runnable f, int times) {
            int caught = 0;
            for (int i = 0; i < times; i++) {
                try {
                    f.run();
                } catch (Throwable t) {
                    caught++;
                }
            }
            return "caught " + caught;
        }

        @LuaFunction(description = "ints", safety = Safety.SAFE)
        public String ints(int i) {
            return "int " + i;
        }

        @LuaFunction(description = "shorts", safety = Safety.SAFE)
        public String shorts(short s) {
            return "short " + s;
        }

        @LuaFunction(description = "bytes", safety = Safety.SAFE)
        public String bytes(byte b) {
            return "byte " + b;
        }

        @LuaFunction(description = "longs", safety = Safety.SAFE)
        public String longs(long l) {
            return "long " + l;
        }

        @LuaFunction(description = "floats", safety = Safety.SAFE)
        public String floats(float f) {
            return "float " + f;
        }

        @LuaFunction(description = "returns each Java number type", safety = Safety.SAFE)
        public List<Object> numbers() {
            return List.of(1, (short) 2, (byte) 3, 4L, 5.5f, 6.5, 'x', Float.NaN);
        }

        @LuaFunction(description = "counts a tree", safety = Safety.SAFE)
        public int count(Node n) {
            int c = 1;
            if (n.children() != null) for (Node k : n.children()) c += count(k);
            return c;
        }

        @LuaFunction(description = "distinct nodes of a tree, by identity", safety = Safety.SAFE)
        public int distinct(Node n) {
            java.util.Set<Node> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>(List.of(n));
            while (!todo.isEmpty()) {
                Node x = todo.pop();
                if (seen.add(x) && x.children() != null) todo.addAll(x.children());
            }
            return seen.size();
        }

        @LuaFunction(description = "a tree sharing its nodes", safety = Safety.SAFE)
        public Node shared(int levels) {
            Node n = new Node("leaf", null);
            for (int i = 0; i < levels; i++) n = new Node("n" + i, List.of(n, n));
            return n;
        }

        @LuaFunction(description = "length of a list", safety = Safety.SAFE)
        public int size(List<Object> xs) {
            return xs.size();
        }

        @LuaFunction(description = "calls f from another thread", safety = Safety.SAFE)
        public String otherThread(Runnable f) throws InterruptedException {
            String[] problem = new String[1];
            Thread t = new Thread(() -> {
                try {
                    f.run();
                } catch (IllegalStateException e) {
                    problem[0] = e.getMessage();
                }
            });
            t.start();
            t.join();
            return problem[0];
        }

        @LuaFunction(description = "a chain of nodes", safety = Safety.SAFE)
        public Node chain(int length) {
            Node n = new Node("end", null);
            for (int i = 0; i < length; i++) n = new Node("n" + i, List.of(n));
            return n;
        }

        @LuaFunction(description = "a cyclic tree", safety = Safety.SAFE)
        public Node cyclic() {
            List<Node> kids = new ArrayList<>();
            Node root = new Node("root", kids);
            kids.add(root);
            return root;
        }

        @LuaFunction(description = "a cyclic map", safety = Safety.SAFE)
        public Map<String, Object> cyclicMap() {
            Map<String, Object> m = new HashMap<>();
            m.put("self", m);
            return m;
        }

        @LuaFunction(description = "a huge list", safety = Safety.SAFE)
        public List<Long> huge(int n) {
            return java.util.Collections.nCopies(n, 7L);
        }

        @LuaFunction(description = "a colour", safety = Safety.SAFE)
        public String colour(Colour c) {
            return c.name();
        }

        @LuaFunction(description = "an optional colour", safety = Safety.SAFE)
        public String maybeColour(Optional<Colour> c) {
            return c.map(Colour::name).orElse("none");
        }

        @LuaFunction(description = "a box", safety = Safety.SAFE)
        public String box(Box b) {
            return b.n() + " " + b.colour();
        }

        @LuaFunction(description = "keeps a callback", safety = Safety.SAFE)
        public void keep(LuaCallback f, Supplier<Object> s, LuaHandle h) {
            keptCallback = f;
            keptSupplier = s;
            keptHandle = h;
        }

        @LuaFunction(description = "calls the kept callback", safety = Safety.SAFE)
        public Object callKept() {
            return keptCallback.call();
        }

        @LuaFunction(description = "calls the kept handle through this call", safety = Safety.SAFE)
        public Object callKeptHandle(dev.luavm.host.HostCall call) {
            return call.callLua(keptHandle).get(0);
        }

        @LuaFunction(description = "returns the kept handle", safety = Safety.SAFE)
        public LuaHandle keptHandle() {
            return keptHandle;
        }
    }

    @LuaModule("c")
    public static class Chars {
        @LuaFunction(description = "chars", safety = Safety.SAFE)
        public String chars(char c) {
            return "char " + (int) c;
        }

        @LuaFunction(description = "returns a char", safety = Safety.SAFE)
        public char letter() {
            return 'é';
        }
    }

    private static Sandbox sandbox(Target t, Tier tier, Limits limits) {
        LuaVM vm = LuaVM.builder().tier(tier).build();
        return vm.sandbox().capabilities(Capabilities.standard().toBuilder().module(t).build()).limits(limits).build();
    }

    private static Sandbox sandbox(Target t) {
        return sandbox(t, Tier.INTERP, Limits.defaults());
    }

    private static String eval(Target t, String script) {
        try (Sandbox sb = sandbox(t)) {
            sb.eval(script);
            return sb.output();
        }
    }

    // ------------------------------------------------------------------ recursion through callbacks

    @ParameterizedTest
    @EnumSource(value = Tier.class, names = {"INTERP", "COMPILE_ALL"})
    void recursionThroughCallbacksEndsAsALuaErrorEvenWithAHugeDepthLimit(Tier tier) throws Exception {
        // a thread with a small stack: the bound must come from the runtime, not from luck
        Object[] result = new Object[1];
        Thread th = new Thread(null, () -> {
            try (Sandbox sb = sandbox(new Target(), tier, Limits.defaults().withCallDepth(200_000))) {
                result[0] = sb.eval("""
                        local n = 0
                        local function f(x) n = n + 1 return m.apply(f, x) end
                        local ok, err = pcall(f, 1)
                        return tostring(ok) .. ' ' .. tostring(err) .. ' ' .. n""");
            } catch (Throwable e) {
                result[0] = e;
            }
        }, "small", 512 * 1024);
        th.start();
        th.join();
        assertTrue(result[0] instanceof String s && s.startsWith("false ") && s.contains("stack overflow"), String.valueOf(result[0]));
    }

    @ParameterizedTest
    @EnumSource(value = Tier.class, names = {"INTERP", "COMPILE_ALL"})
    void gasSpentInCallbacksEndsTheRunEvenWhenTheHostSwallowsIt(Tier tier) {
        try (Sandbox sb = sandbox(new Target(), tier, Limits.defaults().withGas(200_000))) {
            LuaLimitException e = assertThrows(LuaLimitException.class,
                    () -> sb.eval("return m.swallow(function() while true do end end, 5)"));
            assertEquals(LuaLimitException.Limit.GAS, e.limit());
        }
    }

    @Test
    void aTimeoutInACallbackEndsTheRunEvenWhenTheHostSwallowsIt() {
        try (Sandbox sb = sandbox(new Target(), Tier.INTERP, Limits.defaults().withTimeout(java.time.Duration.ofMillis(200)))) {
            LuaLimitException e = assertThrows(LuaLimitException.class,
                    () -> sb.eval("return m.swallow(function() while true do end end, 1000000)"));
            assertEquals(LuaLimitException.Limit.TIME, e.limit());
        }
    }

    @Test
    void memoryInCallbacksIsTheScriptsMemory() {
        try (Sandbox sb = sandbox(new Target(), Tier.INTERP, Limits.defaults().withMemory(4 << 20))) {
            Object r = sb.eval("""
                    local keep = {}
                    local ok, err = pcall(m.apply, function(x) for i = 1, 1e7 do keep[i] = ('x'):rep(64) .. i end end, 1)
                    keep = nil
                    return tostring(ok) .. ' ' .. tostring(err)""");
            assertTrue(String.valueOf(r).startsWith("false ") && String.valueOf(r).contains("not enough memory"), String.valueOf(r));
        }
    }

    @Test
    void aCallbackCannotYieldAcrossTheHostMethod() {
        String out = eval(new Target(), """
                local co = coroutine.wrap(function() return m.apply(function(x) coroutine.yield(x) return x end, 1) end)
                print(pcall(co))""");
        assertEquals("false\tattempt to yield across a C-call boundary\n", out);
    }

    @Test
    void aCallbackCalledFromAnotherThreadIsRefused() {
        assertEquals("a Lua function passed to 'm.other_thread' was called from another thread than its call's\n",
                eval(new Target(), "print(m.other_thread(function() end))"));
    }

    @Test
    void aDeepJavaResultStopsAtTheDepthBoundOnASmallStack() throws Exception {
        Object[] result = new Object[1];
        Thread th = new Thread(null, () -> {
            try (Sandbox sb = sandbox(new Target())) {
                result[0] = sb.eval("local ok, e = pcall(m.chain, 100000) return e");
            } catch (Throwable e) {
                result[0] = e;
            }
        }, "small", 512 * 1024);
        th.start();
        th.join();
        assertEquals("host function 'm.chain' returned a value that cannot cross into Lua (value nested too deep (more than 1000 levels))",
                result[0]);
    }

    // ------------------------------------------------------------------ numbers

    @Test
    void integralParametersRefuseWhatTheyCannotHold() {
        String out = eval(new Target(), """
                local function try(f, v) local ok, r = pcall(f, v) print(r) end
                try(m.ints, 2^31) try(m.ints, -2^31) try(m.ints, 2^53) try(m.ints, 0/0) try(m.ints, 1/0) try(m.ints, -0.0)
                try(m.ints, 3.5) try(m.ints, math.mininteger) try(m.ints, '7')
                try(m.shorts, 32768) try(m.shorts, -32768) try(m.bytes, 128) try(m.bytes, -128) try(m.bytes, 1e300)
                try(m.longs, 2^53) try(m.longs, 2^63) try(m.longs, -2^63) try(m.longs, math.maxinteger) try(m.longs, -1/0)
                try(m.floats, 1e300) try(m.floats, -1e300) try(m.floats, 0/0) try(m.floats, 1/0) try(m.floats, 2^24 + 1)""");
        assertEquals("""
                bad argument #1 to 'm.ints' (value out of range (-2147483648..2147483647))
                int -2147483648
                bad argument #1 to 'm.ints' (value out of range (-2147483648..2147483647))
                bad argument #1 to 'm.ints' (number has no integer representation)
                bad argument #1 to 'm.ints' (number has no integer representation)
                int 0
                bad argument #1 to 'm.ints' (number has no integer representation)
                bad argument #1 to 'm.ints' (value out of range (-2147483648..2147483647))
                bad argument #1 to 'm.ints' (number expected, got string)
                bad argument #1 to 'm.shorts' (value out of range (-32768..32767))
                short -32768
                bad argument #1 to 'm.bytes' (value out of range (-128..127))
                byte -128
                bad argument #1 to 'm.bytes' (number has no integer representation)
                long 9007199254740992
                bad argument #1 to 'm.longs' (number has no integer representation)
                long -9223372036854775808
                long 9223372036854775807
                bad argument #1 to 'm.longs' (number has no integer representation)
                bad argument #1 to 'm.floats' (value out of range for a float)
                bad argument #1 to 'm.floats' (value out of range for a float)
                float NaN
                float Infinity
                float 1.6777216E7
                """, out);
    }

    @Test
    void aCharIsAStringOfOneCharacter() {
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard().toBuilder().module(new Chars()).build(), Limits.defaults())) {
            sb.eval("""
                    local function try(f, v) local ok, r = pcall(f, v) print(r) end
                    try(c.chars, 'a') try(c.chars, 'é') try(c.chars, 'ab') try(c.chars, '') try(c.chars, 65) try(c.chars, '😀')
                    print(c.letter(), #c.letter())""");
            assertEquals("""
                    char 97
                    char 233
                    bad argument #1 to 'c.chars' (one character expected, got 2 characters)
                    bad argument #1 to 'c.chars' (one character expected, got an empty string)
                    bad argument #1 to 'c.chars' (string expected, got number)
                    bad argument #1 to 'c.chars' (a character outside the Basic Multilingual Plane does not fit a Java char)
                    é	2
                    """, sb.output());
        }
    }

    @Test
    void everyJavaNumberTypeComesBackAsALuaNumber() {
        String out = eval(new Target(), """
                local s = ''
                for _, v in ipairs(m.numbers()) do s = s .. (math.type(v) or type(v)) .. ' ' .. tostring(v) .. '; ' end
                print(s)""");
        assertEquals("integer 1; integer 2; integer 3; integer 4; float 5.5; float 6.5; string x; float nan; \n", out);
    }

    // ------------------------------------------------------------------ huge and cyclic values

    @Test
    void cyclicValuesFromLuaAreRefusedClearly() {
        String out = eval(new Target(), """
                local t = {name = 'a'} t.children = {t}
                print(pcall(m.count, t))
                local l = {} l[1] = l
                print(pcall(m.size, l))""");
        assertTrue(!out.contains("Exception") && !out.contains("dev.luavm"), out);
        for (String line : out.split("\n")) assertTrue(line.startsWith("false\t"), out);
    }

    @Test
    void cyclicValuesFromJavaAreAClearLuaError() {
        String out = eval(new Target(), """
                print(pcall(m.cyclic))
                print(pcall(m.cyclic_map))""");
        assertEquals("""
                false\thost function 'm.cyclic' returned a value that cannot cross into Lua (a value that contains itself)
                false\thost function 'm.cyclic_map' returned an unconvertible value (cannot convert a cyclic structure)
                """, out);
    }

    @Test
    void aHugeResultIsChargedBeforeItIsBuilt() {
        try (Sandbox sb = sandbox(new Target(), Tier.INTERP, Limits.defaults().withGas(1_000_000))) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("return #m.huge(50000000)"));
            assertEquals(LuaLimitException.Limit.GAS, e.limit());
        }
        try (Sandbox sb = sandbox(new Target(), Tier.INTERP, Limits.defaults().withMemory(1 << 20))) {
            Object r = sb.eval("local ok, e = pcall(m.huge, 1000000) return tostring(ok) .. ' ' .. tostring(e)");
            assertTrue(String.valueOf(r).contains("not enough memory"), String.valueOf(r));
        }
    }

    @Test
    void aSharedTableIsNotMultipliedOnItsWayToJava() {
        // 2^40 paths through 40 levels of a tree whose every node holds its child twice: converted
        // node by node, 41 records; as paths, the host's heap would not hold them
        try (Sandbox sb = sandbox(new Target(), Tier.INTERP, Limits.defaults().withGas(5_000_000))) {
            assertEquals(41L, sb.eval("""
                    local n = {name = 'leaf'}
                    for i = 1, 40 do n = {name = 'n' .. i, children = {n, n}} end
                    return m.distinct(n)"""));
            assertTrue(sb.usage().gas() < 100_000, "gas " + sb.usage().gas());
            // and the way back: a Java tree sharing its nodes stays shared in Lua
            assertEquals(true, sb.eval("local t = m.shared(40) return t.children[1] == t.children[2]"));
        }
    }

    // ------------------------------------------------------------------ Optional and enums

    @Test
    void enumsAndOptionalsAtTheirEdges() {
        String out = eval(new Target(), """
                local function try(f, ...) local ok, r = pcall(f, ...) print(r) end
                try(m.colour, 'RED') try(m.colour, 'red') try(m.colour, 'BLUE') try(m.colour, nil) try(m.colour, 1)
                try(m.colour, ('X'):rep(100000))
                try(m.maybe_colour, nil) try(m.maybe_colour, 'GREEN') try(m.maybe_colour, 'green') try(m.maybe_colour, false)
                try(m.box, {}) try(m.box, {n = 3, colour = 'RED'}) try(m.box, {n = 2^40}) try(m.box, {colour = 'PINK'})
                try(m.box, {[('k'):rep(100000)] = 1})""");
        String[] lines = out.split("\n");
        assertEquals("RED", lines[0]);
        assertEquals("bad argument #1 to 'm.colour' (invalid option 'red'; expected one of 'RED', 'GREEN')", lines[1]);
        assertEquals("bad argument #1 to 'm.colour' (invalid option 'BLUE'; expected one of 'RED', 'GREEN')", lines[2]);
        assertEquals("bad argument #1 to 'm.colour' (string expected, got nil)", lines[3]);
        assertEquals("bad argument #1 to 'm.colour' (string expected, got number)", lines[4]);
        assertTrue(lines[5].length() < 200 && lines[5].startsWith("bad argument #1 to 'm.colour' (invalid option 'XXXX"), lines[5]);
        assertEquals("none", lines[6]);
        assertEquals("GREEN", lines[7]);
        assertEquals("bad argument #1 to 'm.maybe_colour' (invalid option 'green'; expected one of 'RED', 'GREEN')", lines[8]);
        assertEquals("bad argument #1 to 'm.maybe_colour' (string expected, got boolean)", lines[9]);
        assertEquals("Optional.empty null", lines[10], "an absent field is null (empty for an Optional), as documented");
        assertEquals("Optional[3] RED", lines[11]);
        assertEquals("bad argument #1 to 'm.box' (n: value out of range (-2147483648..2147483647))", lines[12]);
        assertEquals("bad argument #1 to 'm.box' (colour: invalid option 'PINK'; expected one of 'RED', 'GREEN')", lines[13]);
        assertTrue(lines[14].length() < 200 && lines[14].startsWith("bad argument #1 to 'm.box' (unknown field 'kkkk"), lines[14]);
    }

    // ------------------------------------------------------------------ callbacks kept past their call

    @Test
    void aKeptCallbackCalledInALaterCallIsAClearLuaError() {
        Target t = new Target();
        String out = eval(t, """
                m.keep(function() return 'hi' end, function() return 1 end, function() return 'handle' end)
                print(pcall(m.call_kept))
                print(m.call_kept_handle())""");
        assertEquals("false\ta Lua function passed to 'm.keep' was called after that call returned\nhandle\n", out);
    }

    @Test
    void aKeptCallbackAfterTheRunOrAfterCloseThrowsInTheHost() {
        Target t = new Target();
        Sandbox sb = sandbox(t);
        sb.eval("m.keep(function() return 'hi' end, function() return 1 end, function() return 'h' end)");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.keptCallback.call());
        assertEquals("a Lua function passed to 'm.keep' was called after that call returned", e.getMessage());
        sb.close();
        assertThrows(IllegalStateException.class, () -> t.keptSupplier.get());
    }

    @Test
    void aHandleOfOneSandboxIsNothingInAnother() {
        Target t = new Target();
        try (Sandbox a = sandbox(t); Sandbox b = sandbox(t)) {
            a.eval("secret = 's3cret' m.keep(function() end, function() end, function() return secret end)");
            String out;
            b.eval("print(pcall(m.call_kept_handle)) print(pcall(m.kept_handle))");
            out = b.output();
            assertTrue(!out.contains("s3cret"), out);
            assertTrue(out.startsWith("false\t"), out);
        }
    }
}
