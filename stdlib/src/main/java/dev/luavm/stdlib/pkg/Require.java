package dev.luavm.stdlib.pkg;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;

/** {@code require} and its two searchers ({@code ll_require}, {@code findloader}, {@code searcher_preload}). */
final class Require {
    private Require() {}

    private static final LuaString SEARCHERS = LuaString.of("searchers");

    /** {@code require(name)} */
    static int require(CallContext c) {
        LuaString name = c.checkString(1);
        Object loaded = c.registry().get(Registry.LOADED);
        Object cached = c.index(loaded, name);
        if (LuaValues.isTruthy(cached)) return c.ret(cached); // package is already loaded
        Object[] found = findLoader(c, name);
        Object value = c.call1(found[0], name, found[1]); // run the loader
        if (value != null) c.setIndex(loaded, name, value); // LOADED[name] = returned value
        Object result = c.index(loaded, name);
        if (result == null) { // module set no value?
            result = Boolean.TRUE;
            c.setIndex(loaded, name, result);
        }
        return c.ret(result);
    }

    /** Asks each of {@code package.searchers} in turn; returns the loader and its extra value. */
    private static Object[] findLoader(CallContext c, LuaString name) {
        Object pkg = c.registry().get(Registry.PACKAGE);
        if (!(c.index(pkg, SEARCHERS) instanceof LuaTable searchers)) {
            throw c.error("'package.searchers' must be a table");
        }
        StringBuilder msg = new StringBuilder();
        long checkAt = 1 << 16;
        for (long i = 1; ; i++) {
            Object searcher = searchers.getInt(i);
            if (searcher == null) { // no more searchers
                c.chargeBytes(name.length() + msg.length()); // the message built
                throw c.error("module '" + name + "' not found:" + msg);
            }
            c.chargeGas(1);
            Object[] r = c.call(searcher, name);
            Object loader = r.length > 0 ? r[0] : null;
            if (loader instanceof LuaFunction) return new Object[] {loader, r.length > 1 ? r[1] : null};
            if (loader instanceof LuaString s) {
                // the searchers are the script's, and may return one huge message many times: the
                // whole message so far must fit in memory beside what the script holds (checked
                // each time it doubles, so the checks cost O(log n)); each piece pays its bytes
                long len = (long) msg.length() + s.length();
                if (len >= checkAt) {
                    c.memory().charge(len);
                    checkAt = 2 * len;
                }
                c.chargeBytes(s.length()); // copied into the message
                msg.append(s); // searcher returned an error message
            } else if (loader instanceof Long || loader instanceof Double) {
                msg.append(loader instanceof Long l ? LuaNumbers.toString(l) : LuaNumbers.toString((Double) loader));
            }
        }
    }

    /** {@code searcher_preload}: the loader in {@code package.preload}, or why there is none. */
    static final Builtin PRELOAD_SEARCHER = new Builtin("searcher_preload") { @Override public int call(CallContext c) {
        LuaString name = c.checkString(1);
        Object loader = c.index(c.registry().get(Registry.PRELOAD), name);
        if (loader == null) {
            c.chargeBytes(2L * name.length()); // decoded, then copied into the message
            return c.ret(LuaString.of("\n\tno field package.preload['" + name + "']"));
        }
        return c.ret(loader);
    }};

    /**
     * The host searcher: source text from the host resolver, compiled by the VM's {@code load};
     * the chunk belongs to the module asked for ({@code CallContext#asModule}).
     */
    static final Builtin HOST_SEARCHER = new Builtin("searcher_host") { @Override public int call(CallContext c) {
        LuaString name = c.checkString(1);
        // stands where PUC's Lua-file searcher stands, so it insists on a string package.path as that one does
        Object path = c.index(c.registry().get(Registry.PACKAGE), LuaString.of("path"));
        if (!(path instanceof LuaString)) throw c.error("'package.path' must be a string");
        c.chargeBytes(name.length()); // decoded for the host, and into any message
        byte[] source = c.host().resolveModule(name.toString());
        if (source == null) return c.ret(LuaString.of("\n\tno module '" + name + "' in host resolver"));
        Object load = c.registry().get(Registry.LOAD);
        if (load == null) {
            throw c.error("error loading module '" + name + "' from host resolver:\n\tno compiler in this sandbox");
        }
        c.memory().charge(Sizes.string(source.length));
        c.chargeBytes(source.length); // copied; compiling it is charged by load
        LuaString text = LuaString.wrap(source.clone());
        Object[] r = c.call(load, text, LuaString.of("@" + name), LuaString.of("t"));
        Object chunk = r.length > 0 ? r[0] : null;
        if (!(chunk instanceof LuaFunction)) {
            Object why = r.length > 1 ? r[1] : null;
            throw c.error("error loading module '" + name + "' from host resolver:\n\t"
                    + (why instanceof LuaString s ? s.toString() : LuaValues.typeName(why)));
        }
        // the host's resolver answered for this name: the code is that module (grants bound to it)
        String module = name.toString();
        if (dev.luavm.host.ModuleIdentity.isName(module)) chunk = c.asModule((LuaFunction) chunk, module);
        return c.ret(chunk, name);
    }};
}
