package dev.luavm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.InstallContext;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaError;

import java.util.function.Consumer;

/**
 * The API's one adapter to the VM ({@code dev.luavm.vm}): everything {@link Sandbox} asks of the
 * interpreter goes through here. PLACEHOLDER until the vm branch lands.
 */
final class Engine {
    private final LuaTable globals;
    private final LuaTable registry;

    Engine(MemoryMeter meter, HostEnvironment env, Limits limits) {
        this.globals = new LuaTable(meter);
        this.registry = new LuaTable(meter);
    }

    static long freshSeed() {
        return System.nanoTime() ^ Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    }

    LuaTable globals() {
        return globals;
    }

    InstallContext installContext() {
        throw new UnsupportedOperationException("VM not merged yet");
    }

    void pushRoots(Consumer<Object> push) {
        push.accept(globals);
        push.accept(registry);
    }

    long visitVmObject(Object o, Consumer<Object> push) {
        return -1;
    }

    Object load(Prototype p) {
        throw new UnsupportedOperationException("VM not merged yet");
    }

    void chargeCompileWork(long units) {
    }

    void startRun(long gas, long deadlineNanos) {
    }

    Object[] call(Object fn, Object[] args) {
        throw new UnsupportedOperationException("VM not merged yet");
    }

    long gasUsed() {
        return 0;
    }

    void cancel() {
    }

    void clearCancel() {
    }

    RuntimeException terminate(LuaLimitException.Limit limit) {
        return new LuaLimitException(limit);
    }

    LuaLimitException.Limit terminationLimit(RuntimeException e) {
        return null;
    }

    boolean isStackOverflow(LuaError e) {
        return true;
    }
}
