package dev.luavm.vm;

import dev.luavm.meter.GasMeter;
import dev.luavm.value.Heat;

/**
 * A library's call into Lua (table.sort's comparator, gsub's callback, a metamethod called from
 * Java) once the callee has compiled code: its {@code run} is called here, without a nested
 * dispatch loop, exactly as that loop's first step would call it (same heat bookkeeping, gas
 * counter started the loop's way, no direct caller). Anything else the run leaves for the loop
 * (a call to an interpreted function, a metamethod frame, a yield attempt, an error to unwind) is
 * handed to {@link Interpreter#execute} with the gas counter and room as the run left them, so
 * gas, errors and tracebacks are the loop's own. The caller ({@code LuaState.runJava}) keeps the
 * re-entry cap, the no-yield count and the stack-overflow recovery as for the loop.
 */
final class ReEntry {
    private ReEntry() {}

    /** Runs the FRESH Lua frame {@code co}'s last call pushed, until it completes. */
    static void run(LuaState st, Coroutine co) {
        CallFrame f = co.frames[co.nframes - 1];
        Heat h;
        if (f.kind != CallFrame.LUA || co != st.current
                || (h = f.closure.heat).count + 1 < st.tierAt || !(h.jit instanceof TierSupport t)) {
            Interpreter.execute(st, null);
            return;
        }
        h.count = st.tierAt; // what the loop's entry leaves (Tiering.code)
        GasMeter meter = st.gas;
        st.tierGas = 0;
        st.tierRoom = meter.room();
        CallFrame direct = st.tierDirect; // this run returns here, not to a direct caller
        st.tierDirect = null;
        int depth = st.tierDepth;
        int r;
        try {
            r = t.run(st, co, f);
        } catch (LuaError | StackOverflowError e) {
            // what the loop's catch does (the run recorded its pc and charged its counter)
            st.tierDepth = depth;
            Interpreter.execute(st, e instanceof LuaError le ? le : LuaError.of(LuaState.C_STACK_OVERFLOW));
            return;
        }
        st.tierDirect = direct;
        long gas = TierSupport.gasIn(st);
        if (r != TierSupport.CONTINUE) {
            meter.charge(gas);
            return;
        }
        Interpreter.execute(st, null, gas, st.tierRoom);
    }
}
