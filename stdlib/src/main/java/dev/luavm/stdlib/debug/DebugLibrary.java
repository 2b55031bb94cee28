package dev.luavm.stdlib.debug;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.Coroutine;
import dev.luavm.vm.DebugInfo;

/**
 * The safe subset of {@code debug}: {@code traceback}, and {@code getinfo} limited to the fields
 * source, short_src, currentline, linedefined, lastlinedefined, what, name and namewhat. Nothing
 * here reads or writes locals, upvalues, metatables of other types, hooks or the registry.
 */
public final class DebugLibrary implements Library {
    private static final LuaString TRACEBACK_KEY = LuaString.of("traceback");
    private static final LuaString GETINFO_KEY = LuaString.of("getinfo");
    private static final LuaString DEBUG = LuaString.of("debug");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        lib.put(TRACEBACK_KEY, TRACEBACK);
        lib.put(GETINFO_KEY, GETINFO);
    }});

    @Override
    public String name() {
        return "debug";
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(DEBUG, template.copy(ctx.memory()));
    }

    static final Builtin TRACEBACK = new Builtin("debug.traceback") { @Override public int call(CallContext c) {
        int a = 1;
        Coroutine co = null;
        if (c.arg(1) instanceof Coroutine t) {
            co = t;
            a = 2;
        }
        Object msg = c.arg(a);
        if (msg != null && !(msg instanceof LuaString) && !(msg instanceof Long) && !(msg instanceof Double)) {
            return c.ret(msg);
        }
        LuaString ms = msg == null ? null : c.checkString(a);
        if (ms != null) c.chargeBytes(ms.length()); // the message is copied into the traceback
        String m = ms == null ? null : ms.toLatin1();
        // a negative level names no stack level: lua5.3 then lists none
        int level = (int) Math.max(-1, Math.min(Integer.MAX_VALUE, c.optInteger(a + 1, co == null ? 1 : 0)));
        String tb = co == null ? DebugInfo.traceback(c, m, level) : DebugInfo.traceback(c, co, m, level);
        c.chargeBytes(tb.length() - (ms == null ? 0 : ms.length())); // the levels listed (at most 22 lines)
        return c.ret(c.newString(tb.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
    }};

    static final Builtin GETINFO = new Builtin("debug.getinfo") { @Override public int call(CallContext c) {
        int a = 1;
        if (c.arg(1) instanceof Coroutine) {
            throw c.argError(1, "getinfo of another coroutine is not available");
        }
        Object target = c.arg(a);
        if (target instanceof LuaFunction) return c.ret(DebugInfo.getInfo(c, target));
        if (target instanceof Long || target instanceof Double || target instanceof LuaString) {
            long level = c.checkInteger(a);
            return c.ret(DebugInfo.getInfo(c, level));
        }
        throw c.argError(a, "function or level expected");
    }};
}
