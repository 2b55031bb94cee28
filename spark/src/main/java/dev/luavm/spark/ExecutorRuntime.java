package dev.luavm.spark;

import dev.luavm.LuaVM;

/**
 * The one {@link LuaVM} of an executor JVM (or of the driver, in local mode): what its sandboxes
 * share is immutable (the bundles, compiled code and the compiled tier's code cache), so one runtime
 * serves every task. Made on first use.
 */
final class ExecutorRuntime {
    private ExecutorRuntime() {}

    private static final class Holder {
        static final LuaVM VM = LuaVM.create();
    }

    static LuaVM vm() {
        return Holder.VM;
    }
}
