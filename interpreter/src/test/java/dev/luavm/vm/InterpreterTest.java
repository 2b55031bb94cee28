package dev.luavm.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.Intrinsic;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.LiveHeapWalker;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaString;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Interpreter-module tests: hand-assembled bytecode and a minimal test-only global setup. */
class InterpreterTest {
    static final HostEnvironment HOST = new HostEnvironment() {
        @Override
        public long currentTimeMillis() {
            return 0;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long randomSeed() {
            return 0;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
        }
    };

    static LuaState state(GasMeter gas) {
        LuaState L = new LuaState(new MemoryMeter(64L << 20), gas, HOST, LuaState.Settings.defaults());
        L.globals().put(LuaString.of("pcall"), LuaState.intrinsic(Intrinsic.PCALL));
        L.globals().put(LuaString.of("error"), LuaState.intrinsic(Intrinsic.ERROR));
        return L;
    }

    static Object[] run(LuaState L, String src) {
        return L.call(L.load(src.getBytes(StandardCharsets.UTF_8), "=t"));
    }

    @Test
    void handAssembledAddAndReturn() {
        int[] code = {
            Instr.abx(OpCode.LOADK, 0, 0),
            Instr.abc(OpCode.ADD, 0, 0, Instr.rkAsK(1)),
            Instr.abc(OpCode.RETURN, 0, 2, 0),
        };
        Prototype p = new Prototype(LuaString.of("=asm"), 0, 0, 0, true, 2, code, new Object[] {40L, 2L},
                new Prototype[0], new Prototype.UpvalueDesc[] {new Prototype.UpvalueDesc("_ENV", true, 0)},
                new int[] {1, 1, 1}, new Prototype.LocalVar[0]);
        LuaState L = state(GasMeter.unlimited());
        assertEquals(42L, L.call(L.load(p))[0]);
    }

    @Test
    void integerAndFloatSemantics() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "return 7 // 2, -7 // 2, 7 % -3, 7 / 2, 2^2, 1 << 64, -9223372036854775807 - 1 == "
                + "-9223372036854775808, 2^53 < 2^53 + 1, 9007199254740993 < 9007199254740992.0");
        assertEquals(3L, r[0]);
        assertEquals(-4L, r[1]);
        assertEquals(-2L, r[2]);
        assertEquals(3.5, r[3]);
        assertEquals(4.0, r[4]);
        assertEquals(0L, r[5]);
        assertEquals(Boolean.TRUE, r[6]);
        assertEquals(Boolean.FALSE, r[7]);
        assertEquals(Boolean.FALSE, r[8]);
    }

    @Test
    void errorMessagesNameVariables() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local t = {} local ok, m = pcall(function() return t.x.y end) return m");
        assertEquals("t:1: attempt to index a nil value (field 'x')", r[0].toString());
        r = run(L, "local ok, m = pcall(function() undefined() end) return m");
        assertEquals("t:1: attempt to call a nil value (global 'undefined')", r[0].toString());
    }

    @Test
    void gasIsNotCatchable() {
        LuaState L = state(new GasMeter(100_000));
        assertThrows(LuaTermination.class, () -> run(L, "while true do pcall(error, 'x') end"));
    }

    @Test
    void liveHeapWalkSeesCoroutineStacks() {
        LuaState L = state(GasMeter.unlimited());
        run(L, "big = {} for i = 1, 1000 do big[i] = i end");
        long live = new LiveHeapWalker(L::pushRoots, L::visitVmObject).liveBytes();
        assertEquals(true, live > 1000 * 8);
    }
}
