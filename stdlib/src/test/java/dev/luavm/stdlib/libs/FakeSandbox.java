package dev.luavm.stdlib.libs;

import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaError;
import java.util.ArrayList;
import java.util.List;

/**
 * A test-only stand-in for a sandbox: globals, registry, meters and a fixed host, enough to
 * install a {@link Library} and call its builtins through {@link FakeContext} without the VM.
 * "Lua functions" in tests are {@link Builtin}s made with {@link Builtin#of}.
 */
public final class FakeSandbox {
    /** Thrown when the gas budget runs out (the VM's uncatchable termination). */
    public static final class OutOfGas extends RuntimeException {
        OutOfGas() {
            super("out of gas", null, false, false);
        }
    }

    public final MemoryMeter memory;
    public final LuaTable globals;
    public final LuaTable registry;
    public final FixedHost host = new FixedHost();
    public long gasUsed;
    public long gasBudget = Long.MAX_VALUE;
    /** what InstallContext.intrinsic(LOAD) hands out; null when a test gives none */
    public Builtin loadIntrinsic;

    public FakeSandbox() {
        this(MemoryMeter.unlimited());
    }

    public FakeSandbox(MemoryMeter memory) {
        this.memory = memory;
        this.globals = new LuaTable(memory);
        this.registry = new LuaTable(memory);
    }

    public FakeSandbox install(Library lib) {
        lib.install(new InstallContext() {
            @Override public LuaTable globals() { return globals; }
            @Override public LuaTable registry() { return registry; }
            @Override public MemoryMeter memory() { return memory; }
            @Override public HostEnvironment host() { return host; }
            @Override public void setStringMetatable(LuaTable mt) { throw new UnsupportedOperationException(); }
            @Override public Builtin intrinsic(Intrinsic which) {
                if (which == Intrinsic.LOAD) return loadIntrinsic;
                throw new UnsupportedOperationException(which.name());
            }
        });
        return this;
    }

    void chargeGas(long units) {
        if (units < 0) throw new IllegalArgumentException("negative gas");
        gasUsed += units;
        if (gasUsed > gasBudget || gasUsed < 0) throw new OutOfGas();
    }

    /** The global {@code lib.name} (or {@code name}) as a builtin. */
    public Builtin fn(String dotted) {
        Object v;
        int dot = dotted.indexOf('.');
        if (dot < 0) {
            v = globals.get(LuaString.of(dotted));
        } else {
            LuaTable lib = (LuaTable) globals.get(LuaString.of(dotted.substring(0, dot)));
            v = lib.get(LuaString.of(dotted.substring(dot + 1)));
        }
        if (!(v instanceof Builtin b)) throw new AssertionError("no builtin " + dotted);
        return b;
    }

    /** Calls {@code fn} with {@code args}; returns its results. */
    public Object[] call(Object fn, Object... args) {
        if (fn instanceof Builtin b) {
            FakeContext c = new FakeContext(this, b, args);
            int n = b.call(c);
            return c.results(n);
        }
        throw LuaError.of("attempt to call a " + dev.luavm.value.LuaValues.typeName(fn) + " value");
    }

    public Object[] call(String dotted, Object... args) {
        return call(fn(dotted), args);
    }

    /** First result of {@link #call(String, Object...)}, or nil. */
    public Object call1(String dotted, Object... args) {
        Object[] r = call(dotted, args);
        return r.length == 0 ? null : r[0];
    }

    /** The message of the Lua error the call raises; fails if it raises none. */
    public String error(String dotted, Object... args) {
        try {
            call(dotted, args);
        } catch (LuaError e) {
            return e.getMessage();
        }
        throw new AssertionError(dotted + " raised no error");
    }

    // ---- value helpers for tests

    public static LuaString s(String v) {
        return LuaString.of(v);
    }

    public LuaTable table(Object... items) {
        LuaTable t = new LuaTable(memory);
        for (int i = 0; i < items.length; i++) t.putInt(i + 1, items[i]);
        return t;
    }

    public static List<Object> list(LuaTable t) {
        List<Object> r = new ArrayList<>();
        long n = t.length();
        for (long i = 1; i <= n; i++) r.add(t.getInt(i));
        return r;
    }

    /** A host with a settable clock and zone; records what is written. */
    public static final class FixedHost implements HostEnvironment {
        public long millis = 946_684_800_000L; // 2000-01-01T00:00:00Z
        public long nanos = 1_500_000_000L;
        public long seed = 42;
        public int zoneOffset;
        public final java.util.Map<String, byte[]> modules = new java.util.HashMap<>();
        public final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        @Override public long currentTimeMillis() { return millis; }
        @Override public long nanoTime() { return nanos; }
        @Override public long randomSeed() { return seed; }
        @Override public void write(byte[] bytes, int offset, int length) { out.write(bytes, offset, length); }
        @Override public byte[] resolveModule(String name) { return modules.get(name); }
        @Override public int zoneOffsetSeconds(long epochSeconds) { return zoneOffset; }
    }
}
