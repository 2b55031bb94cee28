package dev.luavm.docs;

import java.util.List;
import java.util.Map;

/**
 * One line and the function names of each standard bundle, for {@link HostDocs}. A test in the
 * {@code docs} bundle's module compares the lists with what a sandbox really installs.
 */
final class BundleCatalog {
    private BundleCatalog() {}

    /** A bundle's summary and the names it puts in the sandbox (qualified, as a script writes them). */
    record BundleDoc(String name, String summary, List<String> functions) {}

    private static final Map<String, BundleDoc> STANDARD = Map.ofEntries(
            doc("base", "Lua 5.3 basic functions (load takes text only; no dofile or loadfile)",
                    "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load", "next", "pairs", "pcall",
                    "print", "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber",
                    "tostring", "type", "xpcall", "_G", "_VERSION"),
            doc("coroutine", "Lua 5.3 coroutines",
                    "coroutine.create", "coroutine.isyieldable", "coroutine.resume", "coroutine.running",
                    "coroutine.status", "coroutine.wrap", "coroutine.yield"),
            doc("string", "the Lua 5.3 string library and string methods (\"x\"):upper(); no string.dump",
                    "string.byte", "string.char", "string.find", "string.format", "string.gmatch", "string.gsub",
                    "string.len", "string.lower", "string.match", "string.pack", "string.packsize", "string.rep",
                    "string.reverse", "string.sub", "string.unpack", "string.upper"),
            doc("table", "the Lua 5.3 table library",
                    "table.concat", "table.insert", "table.move", "table.pack", "table.remove", "table.sort",
                    "table.unpack"),
            doc("math", "the Lua 5.3 math library (math.random seeded per sandbox)",
                    "math.abs", "math.acos", "math.asin", "math.atan", "math.ceil", "math.cos", "math.deg",
                    "math.exp", "math.floor", "math.fmod", "math.huge", "math.log", "math.max", "math.maxinteger",
                    "math.min", "math.mininteger", "math.modf", "math.pi", "math.rad", "math.random",
                    "math.randomseed", "math.sin", "math.sqrt", "math.tan", "math.tointeger", "math.type",
                    "math.ult"),
            doc("utf8", "the Lua 5.3 utf8 library",
                    "utf8.char", "utf8.charpattern", "utf8.codepoint", "utf8.codes", "utf8.len", "utf8.offset"),
            doc("os", "time functions only: no execute, exit, getenv or files",
                    "os.clock", "os.date", "os.difftime", "os.time"),
            doc("package", "require of modules the host provides (nothing is read from files)",
                    "require", "package.config", "package.cpath", "package.loaded", "package.path",
                    "package.preload", "package.searchers", "package.searchpath"),
            doc("debug", "a harmless subset of the debug library", "debug.getinfo", "debug.traceback"),
            doc("compat", "what stock lua5.3 adds for Lua 5.2 code: bit32, the deprecated math functions, __ipairs;"
                            + " string.dump only says binary chunks are not supported",
                    "bit32.arshift", "bit32.band", "bit32.bnot", "bit32.bor", "bit32.btest", "bit32.bxor",
                    "bit32.extract", "bit32.lrotate", "bit32.lshift", "bit32.replace", "bit32.rrotate",
                    "bit32.rshift", "math.atan2", "math.cosh", "math.sinh", "math.tanh", "math.pow", "math.frexp",
                    "math.ldexp", "math.log10", "string.dump"),
            doc("docs", "this documentation: docs() lists what the sandbox may use, docs(\"name\") shows one entry",
                    "docs"));

    private static Map.Entry<String, BundleDoc> doc(String name, String summary, String... functions) {
        return Map.entry(name, new BundleDoc(name, summary, List.of(functions)));
    }

    /** The bundle's documentation; a bundle not in the standard set gets a summary naming it only. */
    static BundleDoc of(String name) {
        BundleDoc d = STANDARD.get(name);
        return d != null ? d : new BundleDoc(name, "the host's bundle '" + name + "'", List.of());
    }
}
