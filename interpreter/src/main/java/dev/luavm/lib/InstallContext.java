package dev.luavm.lib;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaTable;

/** What a {@link Library} may touch while installing itself into a sandbox. */
public interface InstallContext {
    LuaTable globals();

    LuaTable registry();

    MemoryMeter memory();

    HostEnvironment host();

    /** Installs the per-sandbox metatable shared by all strings ({@code ("x"):upper()}). */
    void setStringMetatable(LuaTable mt);

    /** A VM-implemented function (pcall, coroutine.resume, ...), see {@link Intrinsic}. */
    dev.luavm.value.Builtin intrinsic(Intrinsic which);

    /** What the sandbox was granted (the {@code docs} bundle lists it). */
    default dev.luavm.Capabilities capabilities() {
        return dev.luavm.Capabilities.none();
    }

    /** Registers state this bundle keeps for the sandbox that a snapshot must carry (see {@link SnapshotParticipant}). */
    default void participate(SnapshotParticipant participant) {
        throw new UnsupportedOperationException("this sandbox takes no snapshot participants");
    }

    default LuaTable newTable() {
        return new LuaTable(memory());
    }
}
