package dev.luavm.stdlib.os;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The {@code os.exit} bundle: {@code os.exit([code])} ends the run (not the JVM: the host gets
 * {@code LuaExitException} with the status, {@code true} and none 0, {@code false} 1, an integer
 * as given). Like a limit it is final: {@code pcall} cannot catch it. Installed after the other
 * bundles, into the {@code os} table (made if {@code os} is not granted).
 */
public final class ExitLibrary implements Library {
    private static final LuaString OS = LuaString.of("os");
    private static final Builtin EXIT = new Builtin("os.exit") { @Override public int call(CallContext c) { return ExitLibrary.exit(c); } };

    @Override
    public String name() {
        return "os.exit";
    }

    @Override
    public boolean installsLast() {
        return true;
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable os = ctx.globals().get(OS) instanceof LuaTable t ? t : ctx.newTable();
        os.put(LuaString.of("exit"), EXIT);
        ctx.globals().put(OS, os);
    }

    /**
     * {@code os_exit} of 5.3; a true second argument asks for the state to be closed, so the
     * pending {@code __gc} finalizers run when the host closes the sandbox (without it, lua5.3
     * exits without running them).
     */
    static int exit(CallContext c) {
        int status;
        if (c.arg(1) instanceof Boolean b) status = b ? 0 : 1;
        else status = (int) c.optInteger(1, 0);
        Object close = c.arg(2);
        throw c.host().exit(status, close != null && close != Boolean.FALSE);
    }
}
