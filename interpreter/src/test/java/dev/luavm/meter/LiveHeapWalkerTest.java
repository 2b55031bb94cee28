package dev.luavm.meter;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LiveHeapWalkerTest {
    @Test
    void countsWhatIsReachableOnceAndNothingElse() {
        MemoryMeter meter = new MemoryMeter(1 << 30);
        LuaTable root = new LuaTable(meter);
        LuaString s = LuaString.of("x".repeat(100));
        root.put(LuaString.of("a"), s);
        root.put(LuaString.of("b"), s); // same object twice: counted once
        new LuaTable(meter).put(1L, LuaString.of("garbage".repeat(1000))); // unreachable
        LiveHeapWalker w = new LiveHeapWalker(push -> push.accept(root), null);
        long expected = root.estimatedBytes() + Sizes.string(100) + 2 * Sizes.string(1);
        assertEquals(expected, w.liveBytes());
    }

    @Test
    void deepChainsDoNotUseTheJavaStack() {
        MemoryMeter meter = new MemoryMeter(1L << 40);
        LuaTable root = new LuaTable(meter);
        LuaTable cur = root;
        for (int i = 0; i < 300_000; i++) {
            LuaTable n = new LuaTable(meter);
            cur.putInt(1, n);
            cur = n;
        }
        cur.put(LuaString.of("loop"), root); // and a cycle
        long bytes = new LiveHeapWalker(push -> push.accept(root), null).liveBytes();
        assertTrue(bytes > 300_000 * Sizes.TABLE_HEADER);
    }

    @Test
    void capAppliesToWhatIsHeldNotToChurn() {
        MemoryMeter meter = new MemoryMeter(1 << 20);
        LuaTable root = new LuaTable(meter);
        meter.setLiveSizer(new LiveHeapWalker(push -> push.accept(root), null));
        for (int i = 0; i < 1000; i++) meter.charge(Sizes.string(10_000)); // 10 MB of dropped strings
        assertTrue(meter.traces() > 0);
        for (int i = 0; i < 50; i++) {
            meter.charge(Sizes.string(10_000));
            root.putInt(i + 1, LuaString.of("k".repeat(10_000)));
        }
        assertThrows(dev.luavm.vm.LuaError.class, () -> {
            for (int i = 50; i < 2000; i++) {
                meter.charge(Sizes.string(10_000));
                root.putInt(i + 1, LuaString.of("k".repeat(10_000)));
            }
        });
    }

    @Test
    void builtinsAreSizedAndTheirReferencesWalked() {
        MemoryMeter meter = new MemoryMeter(1 << 30);
        LuaTable root = new LuaTable(meter);
        LuaString held = LuaString.of("h".repeat(1000));
        Builtin holder = new Builtin("holder") {
            @Override
            public int call(CallContext c) {
                return 0;
            }

            @Override
            public void forEachReference(java.util.function.Consumer<Object> visitor) {
                visitor.accept(held);
            }

            @Override
            public long estimatedBytes() {
                return 48;
            }
        };
        Builtin shared = Builtin.of("shared", c -> 0);
        root.putInt(1, holder);
        root.putInt(2, shared);
        long expected = root.estimatedBytes() + 48 + Sizes.string(1000); // the shared builtin weighs 0
        assertEquals(expected, new LiveHeapWalker(push -> push.accept(root), null).liveBytes());
    }
}
