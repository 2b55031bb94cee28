package dev.luavm.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The cases of {@link GasFairness}: every library function of every bundle and every opcode, each
 * as a small Lua loop. In the Lua text, {@code $N} is the input size (the case's size at 1x times
 * the scale) and {@code $K} the repetitions of the loop (its count at 1x divided by the scale, at
 * least 1), so a run does about the same work at every scale.
 */
final class GasFairnessCases {
    private GasFairnessCases() {}

    /**
     * One case. {@code n0} is the input size at 1x (0: the work does not depend on any input, so it
     * is measured once); {@code setup} runs once per scale, unmeasured, and leaves globals;
     * {@code pre} starts the measured chunk (locals), {@code stmt} is repeated {@code $K} times.
     * {@code owner} names the area the path belongs to: "VM work" the VM's input-sized work
     * (tables, string compares, value copies, numerals), "compiler", "library", or "VM" for
     * plain opcodes.
     */
    record Case(String name, String group, String owner, long n0, long k0, String setup, String pre, String stmt) {
        boolean sized() {
            return n0 > 0;
        }

        String setupAt(long n) {
            return setup.replace("$N", Long.toString(n));
        }

        String chunkAt(long n, long k) {
            String body = pre + "\nfor _ = 1, $K do " + stmt + " end";
            return body.replace("$N", Long.toString(n)).replace("$K", Long.toString(k));
        }
    }

    private static final List<Case> CASES = new ArrayList<>();

    private static void lib(String name, String owner, long n0, long k0, String setup, String pre, String stmt) {
        CASES.add(new Case(name, "library", owner, n0, k0, setup, pre, stmt));
    }

    private static void op(String name, String owner, long n0, long k0, String setup, String pre, String stmt) {
        CASES.add(new Case(name, "opcode", owner, n0, k0, setup, pre, stmt));
    }

    /** A library function whose work does not grow with its input: one call per repetition. */
    private static void fixed(String name, String owner, String setup, String stmt) {
        lib(name, owner, 0, 20_000, setup, "", stmt);
    }

    static List<Case> all() {
        return CASES;
    }

    // Sizes at 1x: strings of 1,000 bytes (1 MB at 1000x), lists of 100 values (100,000 at 1000x).
    private static final String S = "s = string.rep('a', $N) s2 = string.rep('a', $N)";
    private static final String LIST = "t = {} for i = 1, $N do t[i] = i end";
    private static final String WORDS = "t = {} for i = 1, $N do t[i] = 'abcdefgh' end";

    static {
        // ---- base
        lib("assert(true, N values)", "library", 100, 200, LIST, "local t = t", "assert(true, table.unpack(t))");
        fixed("collectgarbage('count')", "library", "", "collectgarbage('count')");
        fixed("error (caught by pcall)", "VM", "", "pcall(error, 'x')");
        fixed("getmetatable", "library", "x = setmetatable({}, {})", "getmetatable(x)");
        lib("ipairs over N values", "library", 100, 200, LIST, "local t = t", "for i, v in ipairs(t) do end");
        lib("load of N statements", "compiler", 100, 20, "src = string.rep('x = 1 ', $N)", "local src = src", "load(src)");
        lib("next over a sparse array of N slots", "VM work", 100, 200,
                "t = {} for i = 1, $N do t[i] = true end for i = 1, $N - 1 do t[i] = nil end", "local t = t", "next(t)");
        lib("pairs over N keys", "VM work", 100, 200, "t = {} for i = 1, $N do t['k' .. i] = i end", "local t = t",
                "for k, v in pairs(t) do end");
        fixed("pcall", "VM", "f = function() end", "pcall(f)");
        lib("print of N bytes", "library", 1000, 200, S, "local s = s", "print(s)");
        lib("rawequal of two equal N-byte strings", "library", 1000, 200, S, "local s, s2 = s, s2", "rawequal(s, s2)");
        fixed("rawget", "library", "x = {a = 1}", "rawget(x, 'a')");
        lib("rawlen of a table with N keys in its hash part", "VM work", 100, 200,
                "t = {} for i = $N, 1, -1 do t[i] = true end", "local t = t", "rawlen(t)");
        fixed("rawset", "library", "x = {}", "rawset(x, 'a', 1)");
        lib("select('#', N values)", "VM work", 100, 200, LIST, "local t = t", "select('#', table.unpack(t))");
        fixed("setmetatable", "library", "mt = {}", "setmetatable({}, mt)");
        lib("tonumber of an N-byte numeral", "library", 1000, 200, "s = string.rep('0', $N) .. '1'", "local s = s", "tonumber(s)");
        lib("tonumber(s, 10) of an N-byte numeral", "VM work", 1000, 200, "s = string.rep('0', $N) .. '1'", "local s = s",
                "tonumber(s, 10)");
        lib("tostring of an N-byte string", "library", 1000, 200, S, "local s = s", "tostring(s)");
        fixed("tostring of a table", "library", "x = {}", "tostring(x)");
        fixed("type", "library", "", "type(1)");
        fixed("xpcall", "VM", "f = function() end", "xpcall(f, f)");

        // ---- coroutine
        fixed("coroutine.create", "library", "f = function() end", "coroutine.create(f)");
        fixed("coroutine.isyieldable", "library", "", "coroutine.isyieldable()");
        fixed("coroutine.resume/yield", "library",
                "co = coroutine.create(function() while true do coroutine.yield() end end)", "coroutine.resume(co)");
        lib("coroutine.resume with N values", "library", 100, 200,
                LIST + " co = coroutine.create(function(...) while true do coroutine.yield(...) end end)",
                "local t = t", "coroutine.resume(co, table.unpack(t))");
        fixed("coroutine.running", "library", "", "coroutine.running()");
        fixed("coroutine.status", "library", "co = coroutine.create(function() end)", "coroutine.status(co)");
        fixed("coroutine.wrap", "library", "f = function() end", "coroutine.wrap(f)");

        // ---- string
        lib("string.byte of N bytes", "library", 100, 200, "s = string.rep('a', $N)", "local s = s", "s:byte(1, -1)");
        lib("string.char of N values", "library", 100, 200, "t = {} for i = 1, $N do t[i] = 97 end", "local t = t",
                "string.char(table.unpack(t))");
        lib("string.find plain over N bytes", "library", 1000, 200, S, "local s = s", "s:find('b', 1, true)");
        lib("string.find pattern over N bytes", "library", 1000, 200, S, "local s = s", "s:find('%d')");
        lib("string.find back-reference of N bytes", "library", 1000, 200, "s = string.rep('x', $N) .. '=' .. string.rep('x', $N)",
                "local s = s", "s:find('^(x*)=%1$')");
        lib("string.format('%s') of N bytes", "library", 1000, 200, S, "local s = s", "string.format('%s', s)");
        lib("string.format('%.3s') of N bytes", "library", 1000, 200, S, "local s = s", "string.format('%.3s', s)");
        lib("string.format('%q') of N bytes", "library", 1000, 200, "s = string.rep('a\\n', $N // 2)", "local s = s",
                "string.format('%q', s)");
        lib("string.format of N conversions", "library", 100, 200, LIST + " f = string.rep('%d,', $N)", "local t, f = t, f",
                "string.format(f, table.unpack(t))");
        lib("string.format of an N-byte literal format", "library", 1000, 200, S, "local s = s", "string.format(s)");
        fixed("string.format('%99.99f')", "library", "", "string.format('%99.99f', 1e308)");
        fixed("string.format('%.99f') of a tiny number", "library", "", "string.format('%.99f', 1e-300)");
        fixed("string.format('%.2f')", "library", "", "string.format('%.2f', 3.14159)");
        fixed("string.format('%g')", "library", "", "string.format('%g', 3.14159)");
        lib("string.gmatch over N matches", "library", 100, 200, "s = string.rep('ab ', $N)", "local s = s",
                "for w in s:gmatch('%a+') do end");
        lib("string.gsub over N bytes", "library", 1000, 200, S, "local s = s", "s:gsub('a', 'b')");
        lib("string.gsub with a table over N matches", "library", 100, 200, "s = string.rep('a', $N) r = {a = 'b'}",
                "local s, r = s, r", "s:gsub('a', r)");
        fixed("string.len", "library", "s = 'abc'", "s:len()");
        lib("string.lower of N bytes", "library", 1000, 200, "s = string.rep('A', $N)", "local s = s", "s:lower()");
        lib("string.match of N bytes", "library", 1000, 200, S, "local s = s", "s:match('^(a*)$')");
        lib("string.match %b over N bytes", "library", 1000, 200, "s = '(' .. string.rep('x', $N) .. ')'", "local s = s",
                "s:match('%b()')");
        lib("string.pack of N items", "library", 100, 200, LIST + " f = string.rep('i4', $N)", "local t, f = t, f",
                "string.pack(f, table.unpack(t))");
        lib("string.pack('z') of N bytes", "library", 1000, 200, S, "local s = s", "string.pack('z', s)");
        lib("string.packsize of N items", "library", 100, 200, "f = string.rep('i4', $N)", "local f = f", "string.packsize(f)");
        lib("string.rep to N bytes", "library", 1000, 200, "", "", "string.rep('ab', $N // 2)");
        lib("string.rep with a separator to N bytes", "library", 1000, 200, "", "", "string.rep('ab', $N // 4, ',,')");
        lib("string.reverse of N bytes", "library", 1000, 200, S, "local s = s", "s:reverse()");
        lib("string.sub of N bytes", "library", 1000, 200, S, "local s = s", "s:sub(2, -2)");
        lib("string.unpack of N items", "library", 100, 200, LIST + " f = string.rep('i4', $N) p = string.pack(f, table.unpack(t))",
                "local f, p = f, p", "string.unpack(f, p)");
        lib("string.unpack('z') of N bytes", "library", 1000, 200, "p = string.rep('a', $N) .. '\\0'", "local p = p",
                "string.unpack('z', p)");
        lib("string.upper of N bytes", "library", 1000, 200, S, "local s = s", "s:upper()");

        // ---- table
        lib("table.concat of N strings", "library", 100, 200, WORDS, "local t = t", "table.concat(t, ',')");
        lib("table.insert at 1 in N values (+ remove)", "library", 100, 200, LIST, "local t = t",
                "table.insert(t, 1, 0) table.remove(t, 1)");
        lib("table.move of N values", "library", 100, 200, LIST + " u = {}", "local t, u = t, u", "table.move(t, 1, #t, 1, u)");
        lib("table.pack of N values", "library", 100, 200, LIST, "local t = t", "table.pack(table.unpack(t))");
        lib("table.remove at 1 of N values (+ insert)", "library", 100, 200, LIST, "local t = t",
                "table.remove(t, 1) table.insert(t, 1, 0)");
        lib("table.sort of N numbers", "library", 100, 20, "src = {} for i = 1, $N do src[i] = (i * 7919) % 1000003 end t = {}",
                "local src, t = src, t", "table.move(src, 1, #src, 1, t) table.sort(t)");
        lib("table.sort of 200 equal N-byte strings", "library", 100, 20,
                "t = {} for i = 1, 200 do t[i] = string.rep('a', $N) end", "local t = t", "table.sort(t)");
        lib("table.sort of N numbers with a comparator", "library", 100, 20,
                "src = {} for i = 1, $N do src[i] = (i * 7919) % 1000003 end t = {} lt = function(a, b) return a < b end",
                "local src, t, lt = src, t, lt", "table.move(src, 1, #src, 1, t) table.sort(t, lt)");
        lib("table.unpack of N values", "library", 100, 200, LIST, "local t = t", "table.unpack(t)");

        // ---- math
        for (String f : new String[] {"abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "log",
            "rad", "sin", "sqrt", "tan", "tointeger", "type"}) {
            fixed("math." + f, "library", "", "math." + f + "(0.5)");
        }
        fixed("math.fmod", "library", "", "math.fmod(7, 3)");
        fixed("math.modf", "library", "", "math.modf(3.5)");
        fixed("math.random", "library", "", "math.random(1, 100)");
        fixed("math.randomseed", "library", "", "math.randomseed(42)");
        fixed("math.ult", "library", "", "math.ult(1, 2)");
        lib("math.max of N values", "library", 100, 200, LIST, "local t = t", "math.max(table.unpack(t))");
        lib("math.min of N values", "library", 100, 200, LIST, "local t = t", "math.min(table.unpack(t))");
        lib("math.max of two equal N-byte strings", "library", 1000, 200, S, "local s, s2 = s, s2", "math.max(s, s2)");
        lib("math.abs of an N-byte numeral", "library", 1000, 200, "s = string.rep('0', $N) .. '1'", "local s = s", "math.abs(s)");

        // ---- utf8
        lib("utf8.char of N values", "library", 100, 200, "t = {} for i = 1, $N do t[i] = 0x4e2d end", "local t = t",
                "utf8.char(table.unpack(t))");
        lib("utf8.codepoint of N bytes", "library", 100, 200, "s = string.rep('a', $N)", "local s = s", "utf8.codepoint(s, 1, -1)");
        lib("utf8.codes over N characters", "library", 100, 200, "s = string.rep('\\u{4e2d}', $N)", "local s = s",
                "for p, c in utf8.codes(s) do end");
        lib("utf8.codes step over N continuation bytes", "library", 1000, 200, "s = 'a' .. string.rep('\\x80', $N)",
                "local s = s local it = utf8.codes(s)", "it(s, 1)");
        lib("utf8.len of N bytes", "library", 1000, 200, S, "local s = s", "utf8.len(s)");
        lib("utf8.offset over N characters", "library", 1000, 200, S, "local s = s", "utf8.offset(s, #s)");
        lib("utf8.offset over N continuation bytes", "library", 1000, 200, "s = 'a' .. string.rep('\\x80', $N)",
                "local s = s", "utf8.offset(s, 0, #s)");

        // ---- os
        fixed("os.clock", "library", "", "os.clock()");
        lib("os.date of an N-conversion format", "library", 100, 200, "f = string.rep('%Y-', $N)", "local f = f", "os.date(f, 0)");
        lib("os.date of an N-byte literal format", "library", 1000, 200, "f = string.rep('x', $N)", "local f = f", "os.date(f, 0)");
        fixed("os.date('*t')", "library", "", "os.date('*t', 0)");
        fixed("os.difftime", "library", "", "os.difftime(2, 1)");
        fixed("os.time", "library", "d = {year = 2020, month = 1, day = 1}", "os.time(d)");

        // ---- package and debug
        lib("package.searchpath over N templates", "library", 100, 200, "p = string.rep('./?.lua;', $N)", "local p = p",
                "package.searchpath('a.b', p)");
        lib("package.searchpath with an N-byte name", "library", 1000, 200, "n = string.rep('a.', $N // 2)", "local n = n",
                "package.searchpath(n, '?')");
        fixed("require (cached)", "library", "package.preload.m = function() return {} end require('m')", "require('m')");
        fixed("debug.getinfo", "library", "f = function() end", "debug.getinfo(f)");
        lib("debug.traceback with an N-byte message", "library", 1000, 200, S, "local s = s", "debug.traceback(s)");

        // ---- opcodes: constant work, one loop each
        opFixed("MOVE", "local a, b = 1, 2", "b = a");
        opFixed("LOADK", "", "local x = 1.5");
        opFixed("LOADBOOL", "", "local x = true");
        opFixed("LOADNIL", "", "local x = nil");
        op("GETUPVAL/SETUPVAL", "VM", 0, 20_000, "", "local u = 0 local function f() u = u + 1 end", "f()");
        opFixed("GETTABUP", "g = 1", "local x = g");
        opFixed("SETTABUP", "", "g = 1");
        opFixed("GETTABLE", "local t = {a = 1}", "local x = t.a");
        opFixed("SETTABLE", "local t = {a = 1}", "t.a = 2");
        opFixed("NEWTABLE", "", "local x = {}");
        opFixed("SELF", "local o = {m = function() end}", "o:m()");
        for (String[] a : new String[][] {{"ADD", "+"}, {"SUB", "-"}, {"MUL", "*"}, {"MOD", "%"}, {"POW", "^"},
            {"DIV", "/"}, {"IDIV", "//"}, {"BAND", "&"}, {"BOR", "|"}, {"BXOR", "~"}, {"SHL", "<<"}, {"SHR", ">>"}}) {
            opFixed(a[0], "local a, b = 7, 3", "local x = a " + a[1] + " b");
        }
        opFixed("UNM", "local a = 7", "local x = -a");
        opFixed("BNOT", "local a = 7", "local x = ~a");
        opFixed("NOT", "local a = 7", "local x = not a");
        opFixed("LEN (string)", "local s = 'abc'", "local x = #s");
        opFixed("CONCAT (short)", "local a, b = 'ab', 'cd'", "local x = a .. b");
        opFixed("JMP/TEST", "local a = false", "if a then a = 1 end");
        opFixed("TESTSET", "local a, b = false, 1", "local x = a or b");
        opFixed("EQ (numbers)", "local a, b = 1, 2", "local x = a == b");
        opFixed("LT (numbers)", "local a, b = 1, 2", "local x = a < b");
        opFixed("LE (numbers)", "local a, b = 1, 2", "local x = a <= b");
        opFixed("CALL/RETURN", "local function f() end", "f()");
        opFixed("TAILCALL", "local function g() end local function f() return g() end", "f()");
        opFixed("FORPREP/FORLOOP", "", "for j = 1, 10 do end");
        opFixed("TFORCALL/TFORLOOP", "local t = {1, 2, 3}", "for k, v in next, t do end");
        opFixed("CLOSURE", "", "local f = function() end");
        opFixed("VARARG (few)", "local function f(...) local a, b = ... end", "f(1, 2)");
        opFixed("SETLIST (few)", "", "local x = {1, 2, 3}");

        // ---- opcodes whose work grows with their operands
        op("CONCAT of two N-byte strings", "VM work", 1000, 200, S, "local a, b = s, s2", "local x = a .. b");
        op("EQ of two equal N-byte strings", "VM work", 1000, 200, S, "local a, b = s, s2", "local x = a == b");
        op("LT of two equal N-byte strings", "VM work", 1000, 200, S, "local a, b = s, s2", "local x = a < b");
        op("LE of two equal N-byte strings", "VM work", 1000, 200, S, "local a, b = s, s2", "local x = a <= b");
        op("ADD of an N-byte numeral", "VM work", 1000, 200, "s = string.rep('0', $N) .. '1'", "local a = s", "local x = a + 0");
        op("LEN of a table with N keys in its hash part", "VM work", 100, 200, "t = {} for i = $N, 1, -1 do t[i] = true end",
                "local t = t", "local x = #t");
        op("CALL with N arguments", "VM work", 100, 200, LIST, "local t = t local function f(...) end", "f(table.unpack(t))");
        op("VARARG of N values", "VM work", 100, 200, LIST, "local t = t local function f(...) local a = {...} end",
                "f(table.unpack(t))");
        op("RETURN of N values", "VM work", 100, 200, LIST, "local t = t local function f(...) return ... end",
                "f(table.unpack(t))");
        op("SETLIST of N values", "VM work", 100, 200, LIST, "local t = t", "local x = {table.unpack(t)}");
        op("SETTABLE of N colliding integer keys", "VM work", 30, 20, "",
                "", "local t = {} for i = 1, $N do t[(i << 32) | i] = true end");
        op("SETTABLE of N colliding float keys", "VM work", 30, 20, "",
                "local pack, unpack = string.pack, string.unpack",
                "local t = {} for i = 1, $N do t[unpack('<d', pack('<I4I4', 0x3FF00000 + i, 0x3FF00000 + i))] = true end");
        op("SETTABLE of N colliding string keys", "VM work", 30, 20,
                "keys = {} for i = 1, $N do local b = {} local x = i for j = 1, 20 do b[j] = (x % 2 == 0) and 'Aa' or 'BB' x = x // 2 end keys[i] = table.concat(b) end",
                "local keys = keys", "local t = {} for i = 1, #keys do t[keys[i]] = true end");
        op("SETTABLE of N plain integer keys (reference)", "VM", 30, 20, "", "", "local t = {} for i = 1, $N do t[i * 7] = true end");
    }

    private static void opFixed(String name, String pre, String stmt) {
        op(name, "VM", 0, 20_000, "", pre, stmt);
    }
}
