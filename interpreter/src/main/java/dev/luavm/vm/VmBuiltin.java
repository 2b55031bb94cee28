package dev.luavm.vm;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;

/**
 * A builtin that changes the shape of the frame stack instead of computing a value
 * ({@code pcall}, {@code xpcall}, {@code coroutine.resume}, {@code coroutine.yield}, wrap
 * functions). The loop calls {@link #precall} instead of {@link #call}; see
 * {@link Calls#precall} for the contract of the answer.
 */
abstract class VmBuiltin extends Builtin {
    VmBuiltin(String qualifiedName) {
        super(qualifiedName);
    }

    abstract boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller);

    /** Called from Java as an ordinary builtin: re-enter the VM through the context. */
    @Override
    public int call(CallContext c) {
        Object[] args = new Object[c.nargs()];
        for (int i = 0; i < args.length; i++) args[i] = c.arg(i + 1);
        Object[] r = c.call(this, args);
        return c.retArray(r, r.length);
    }

    /** luaL_argerror for a VM builtin, named from its call site as library functions are. */
    static LuaError argError(LuaState st, Coroutine co, Builtin b, CallFrame caller, int arg, String msg) {
        String[] name = DebugInfo.funcNameFromCode(caller);
        String fname = name != null ? name[1] : b.qualifiedName;
        if (name != null && name[0].equals("method")) {
            arg--;
            if (arg == 0) return error(co, caller, "calling '" + fname + "' on bad self");
        }
        return error(co, caller, "bad argument #" + arg + " to '" + fname + "' (" + msg + ")");
    }

    /** luaL_error from a VM builtin: position of the calling Lua code, if any. */
    static LuaError error(Coroutine co, CallFrame caller, String msg) {
        return new LuaError(dev.luavm.value.LuaString.ofLatin1(DebugInfo.where(caller) + msg));
    }
}
