package dev.luavm.vm;

import dev.luavm.bytecode.OpCode;
import dev.luavm.meter.GasMeter;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

import static dev.luavm.vm.Ops.*;

/**
 * The dispatch loop.
 *
 * <h2>VM rules</h2>
 * These are law; reviews cite them by number.
 * <ol>
 *   <li><b>Gas before work.</b> Each instruction's cost ({@link OpCode#gas}) is added to a local
 *       counter; the counter is charged to the {@link GasMeter} at safepoints (backward jumps,
 *       calls, returns, loop steps), so the overshoot is bounded by one straight-line block.
 *       Work that grows with the operands rather than the instruction count is charged too:
 *       values copied by VARARG, RETURN, TAILCALL and SETLIST beyond {@link Calls#FREE_VALUES}
 *       go into the same local counter (flushed at once when large); long string compares
 *       ({@link LuaString#equals(LuaString, dev.luavm.meter.GasSink)}), table probes and rehashes
 *       ({@link LuaTable}) and string coercions ({@link Arith}) charge the meter directly.
 *       Library functions charge through {@code CallContext.chargeGas}. Exhaustion, timeout and
 *       cancellation (a volatile flag polled at the meter's checks) throw
 *       {@link LuaTermination}, which is not a {@link LuaError}: nothing in Lua catches it and no
 *       Lua code runs after it.</li>
 *   <li><b>Memory before allocation.</b> Every Lua-visible allocation (tables, strings from
 *       concatenation and tostring, closures, upvalues, coroutines and their stacks, stack and
 *       frame growth) is charged to the {@code MemoryMeter} before it happens.</li>
 *   <li><b>No Lua call on the Java stack.</b> Lua frames live in the coroutine's frame stack
 *       ({@link CallFrame}s, registers in one growable array). Lua metamethods called by opcodes
 *       are pushed as frames flagged META and the interrupted instruction is completed when they
 *       return ({@link Calls#finishOp}); pcall/xpcall and coroutine resume/yield are marker
 *       frames and stack switches inside this same loop. Only library re-entry
 *       ({@code CallContext.call}) nests a loop, counted and capped at 200 ("C stack
 *       overflow"); a coroutine cannot yield while one is active on it. The Lua call depth is
 *       capped (default 200,000) with the catchable error "stack overflow".</li>
 *   <li><b>No static mutable state.</b> All sandbox state is in {@link LuaState}; builtins and
 *       prototypes are immutable and shared.</li>
 *   <li><b>Termination is final.</b> Gas exhaustion, timeout and cancellation cannot be caught
 *       by pcall, xpcall, coroutine.resume or error handlers.</li>
 * </ol>
 *
 * <h2>Shape</h2>
 * {@link #execute} is one method kept under HotSpot's 8,000-byte limit for JIT compilation.
 * The outer loop loads the top frame of the running coroutine into locals (marker frames are
 * completed out of line); the inner loop decodes and runs instructions with the integer, float
 * and plain-table fast paths inline and everything else in named out-of-line methods
 * ({@link Arith}, {@link Meta}, {@link Calls}). Any frame change saves {@code pc} and restarts
 * the outer loop. A {@link LuaError} thrown inside is caught once, here, and handed to
 * {@link Calls#unwind}, which either rearranges the frame stack (pcall, xpcall, dead coroutine)
 * and lets the loop go on, or gives the error back to rethrow to the Java caller.
 *
 * <p>The loop fetches only the opcode before the {@code switch}; each case decodes its own
 * operands from {@link dev.luavm.bytecode.Prototype#operands} (the same array as {@code code},
 * through another field). Decoding from the fetched word made C2 share the operand
 * computations of all cases, compute them before the jump table on every instruction and spill
 * them; per-case decoding removed that (benchmarks/PROFILE.md: about 20% off the warm runs).
 *
 * <p>Numeric for loops deviate from 5.3 on purpose: an integer loop never steps past its limit
 * (5.4's semantics), so {@code for i = math.maxinteger - 1, math.maxinteger} ends (threat T1).
 */
final class Interpreter {
    private Interpreter() {}

    private static final int[] GAS = new int[64];

    static {
        for (OpCode op : OpCode.values()) GAS[op.ordinal()] = op.gas;
    }

    /** Runs until the FRESH frame on top at entry (or pushed by the caller) completes. */
    static void execute(LuaState st, LuaError pendingError) {
        execute(st, pendingError, 0, st.gas.room());
    }

    /** As {@link #execute(LuaState, LuaError)}, continuing with a gas counter and room handed over (ReEntry). */
    static void execute(LuaState st, LuaError pendingError, long gas0, long room0) {
        final GasMeter meter = st.gas;
        LuaError pending = pendingError;
        long gas = gas0;
        long gasRoom = room0;
        Coroutine co = null;
        CallFrame f = null;
        int pc = -1;
        final int tierDepth = st.tierDepth;
        outer:
        while (true) {
            if (pending != null) {
                LuaError out;
                try {
                    out = Calls.unwind(st, pending);
                } catch (LuaError again) {
                    pending = again;
                    continue;
                }
                pending = null;
                if (out != null) throw out;
            }
            pc = -1;
            try {
                co = st.current;
                f = co.frames[co.nframes - 1];
                if (f.kind != CallFrame.LUA) {
                    if (Calls.finishMarker(st, co, f)) {
                        meter.charge(gas);
                        return;
                    }
                    continue;
                }
                final LuaClosure cl = f.closure;
                // compiled tier (Tiering): runs this frame until it changes; a frame restored from a
                // snapshot stays interpreted (its registers came from outside)
                if (++cl.heat.count >= st.tierAt && (f.flags & CallFrame.RESTORED) == 0) {
                    TierSupport jit = Tiering.code(st, cl);
                    if (jit != null) {
                        pc = -1; // compiled code keeps f.pc
                        st.tierGas = gas;
                        st.tierRoom = gasRoom;
                        gas = 0;
                        CallFrame direct = st.tierDirect; // a re-entry's runs return to this loop, not to a direct caller
                        st.tierDirect = null;
                        int r = jit.run(st, co, f);
                        st.tierDirect = direct;
                        gas = TierSupport.gasIn(st);
                        gasRoom = st.tierRoom;
                        if (r != TierSupport.CONTINUE) {
                            meter.charge(gas);
                            return;
                        }
                        continue;
                    }
                }
                final int[] code = cl.proto.code;
                final int[] operands = cl.proto.operands;
                final Object[] k = cl.proto.constants;
                final int base = f.base;
                Object[] stack = co.stack;
                pc = f.pc;
                while (true) {
                    final int op = code[pc++] & 0x3F;
                    gas += GAS[op];
                    switch (op) {
                        case OP_MOVE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = stack[base + (i >>> 23)];
                            continue;
                        }
                        case OP_LOADK: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = k[i >>> 14];
                            continue;
                        }
                        case OP_LOADKX: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = k[code[pc++] >>> 6];
                            continue;
                        }
                        case OP_LOADBOOL: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = (i >>> 23) != 0 ? Boolean.TRUE : Boolean.FALSE;
                            if (((i >>> 14) & 0x1FF) != 0) pc++;
                            continue;
                        }
                        case OP_LOADNIL: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            for (int j = i >>> 23; j >= 0; j--) stack[ra + j] = null;
                            continue;
                        }
                        case OP_GETUPVAL: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = cl.upvals[i >>> 23].get();
                            continue;
                        }
                        case OP_GETTABUP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int c = (i >>> 14) & 0x1FF;
                            Object key = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            Object t = cl.upvals[i >>> 23].get();
                            if (t instanceof LuaTable tt) {
                                Object v = key instanceof LuaString s ? tt.getStr(s) : tt.get(key);
                                if (v != null || tt.getMetatable() == null) {
                                    stack[ra] = v;
                                    continue;
                                }
                            }
                            if (TierSupport.index(st, co, f, pc, t, key, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_GETTABLE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int c = (i >>> 14) & 0x1FF;
                            Object key = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            Object t = stack[base + (i >>> 23)];
                            if (t instanceof LuaTable tt) {
                                Object v;
                                if (key instanceof Long l) v = tt.getInt(l);
                                else if (key instanceof LuaString s) v = tt.getStr(s);
                                else v = tt.get(key);
                                if (v != null || tt.getMetatable() == null) {
                                    stack[ra] = v;
                                    continue;
                                }
                            }
                            if (TierSupport.index(st, co, f, pc, t, key, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_SETTABUP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            int c = (i >>> 14) & 0x1FF;
                            Object key = b > 0xFF ? k[b & 0xFF] : stack[base + b];
                            Object val = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            Object t = cl.upvals[(i >>> 6) & 0xFF].get();
                            if (t instanceof LuaTable tt && tt.getMetatable() == null && key instanceof LuaString s) {
                                tt.putStr(s, val);
                                continue;
                            }
                            if (TierSupport.setIndex(st, f, pc, t, key, val) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_SETUPVAL: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            cl.upvals[i >>> 23].set(stack[ra]);
                            continue;
                        }
                        case OP_SETTABLE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            int c = (i >>> 14) & 0x1FF;
                            Object key = b > 0xFF ? k[b & 0xFF] : stack[base + b];
                            Object val = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            Object t = stack[ra];
                            if (t instanceof LuaTable tt && tt.getMetatable() == null) {
                                if (key instanceof Long l) {
                                    tt.putInt(l, val);
                                    continue;
                                }
                                if (key instanceof LuaString s) {
                                    tt.putStr(s, val);
                                    continue;
                                }
                            }
                            if (TierSupport.setIndex(st, f, pc, t, key, val) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_NEWTABLE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            stack[ra] = new LuaTable(st.memory, Calls.fb2int(i >>> 23), Calls.fb2int((i >>> 14) & 0x1FF));
                            continue;
                        }
                        case OP_SELF: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int c = (i >>> 14) & 0x1FF;
                            Object key = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            Object t = stack[base + (i >>> 23)];
                            stack[ra + 1] = t;
                            if (t instanceof LuaTable tt && key instanceof LuaString s) {
                                Object v = tt.getStr(s);
                                if (v != null || tt.getMetatable() == null) {
                                    stack[ra] = v;
                                    continue;
                                }
                            }
                            if (TierSupport.index(st, co, f, pc, t, key, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_ADD:
                        case OP_SUB:
                        case OP_MUL:
                        case OP_MOD:
                        case OP_POW:
                        case OP_DIV:
                        case OP_IDIV:
                        case OP_BAND:
                        case OP_BOR:
                        case OP_BXOR:
                        case OP_SHL:
                        case OP_SHR: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            int c = (i >>> 14) & 0x1FF;
                            Object x = b > 0xFF ? k[b & 0xFF] : stack[base + b];
                            Object y = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            if (x instanceof Long lx && y instanceof Long ly) {
                                long u = lx;
                                long w = ly;
                                switch (op) {
                                    case OP_ADD: stack[ra] = u + w; continue;
                                    case OP_SUB: stack[ra] = u - w; continue;
                                    case OP_MUL: stack[ra] = u * w; continue;
                                    case OP_BAND: stack[ra] = u & w; continue;
                                    case OP_BOR: stack[ra] = u | w; continue;
                                    case OP_BXOR: stack[ra] = u ^ w; continue;
                                    // shifts by 0..63 inline; negative or >= 64 counts go to Arith.shiftLeft
                                    case OP_SHL:
                                        if ((w & ~63L) == 0) {
                                            stack[ra] = u << w;
                                            continue;
                                        }
                                        break;
                                    case OP_SHR:
                                        if ((w & ~63L) == 0) {
                                            stack[ra] = u >>> w;
                                            continue;
                                        }
                                        break;
                                    case OP_DIV: stack[ra] = (double) u / (double) w; continue;
                                    case OP_MOD:
                                        if (w > 0) {
                                            long m = u % w;
                                            stack[ra] = m < 0 ? m + w : m;
                                            continue;
                                        }
                                        break;
                                    case OP_IDIV:
                                        if (w > 0) {
                                            stack[ra] = Math.floorDiv(u, w);
                                            continue;
                                        }
                                        break;
                                    default:
                                        break;
                                }
                            } else if ((x instanceof Double || x instanceof Long) && (y instanceof Double || y instanceof Long)) {
                                // at least one float: both converted (luai_num*), as PUC for mixed operands
                                double u = x instanceof Double dx ? dx : (double) (Long) x;
                                double w = y instanceof Double dy ? dy : (double) (Long) y;
                                switch (op) {
                                    case OP_ADD: stack[ra] = u + w; continue;
                                    case OP_SUB: stack[ra] = u - w; continue;
                                    case OP_MUL: stack[ra] = u * w; continue;
                                    case OP_DIV: stack[ra] = u / w; continue;
                                    default: break;
                                }
                            }
                            if (TierSupport.metaArith(st, co, f, pc, op, x, y, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_UNM: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[base + (i >>> 23)];
                            if (x instanceof Long l) {
                                stack[ra] = -l;
                                continue;
                            }
                            if (x instanceof Double d) {
                                stack[ra] = -d;
                                continue;
                            }
                            if (TierSupport.metaArith(st, co, f, pc, op, x, x, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_BNOT: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[base + (i >>> 23)];
                            if (x instanceof Long l) {
                                stack[ra] = ~l;
                                continue;
                            }
                            if (TierSupport.metaArith(st, co, f, pc, op, x, x, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_NOT: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[base + (i >>> 23)];
                            stack[ra] = TierSupport.falsy(x) ? Boolean.TRUE : Boolean.FALSE;
                            continue;
                        }
                        case OP_LEN: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[base + (i >>> 23)];
                            if (x instanceof LuaString s) {
                                stack[ra] = (long) s.length();
                                continue;
                            }
                            if (x instanceof LuaTable t && t.getMetatable() == null) {
                                stack[ra] = t.length();
                                continue;
                            }
                            if (TierSupport.metaLen(st, co, f, pc, x, ra) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_CONCAT: {
                            if (TierSupport.concat(st, co, f, base, operands[pc - 1], pc) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_JMP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int sbx = (i >>> 14) - 131071;
                            pc += sbx;
                            if (((i >>> 6) & 0xFF) != 0) co.closeUpvalues(ra - 1);
                            if (sbx < 0 && gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                                if (Tiering.backEdge(st, cl)) {
                                    f.pc = pc;
                                    continue outer;
                                }
                            }
                            continue;
                        }
                        case OP_EQ:
                        case OP_LT:
                        case OP_LE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            int c = (i >>> 14) & 0x1FF;
                            Object x = b > 0xFF ? k[b & 0xFF] : stack[base + b];
                            Object y = c > 0xFF ? k[c & 0xFF] : stack[base + c];
                            boolean res;
                            if (x instanceof Long lx && y instanceof Long ly) {
                                long u = lx;
                                long w = ly;
                                res = op == 31 ? u == w : op == 32 ? u < w : u <= w;
                            } else if (x instanceof Double dx && y instanceof Double dy) {
                                double u = dx;
                                double w = dy;
                                res = op == 31 ? u == w : op == 32 ? u < w : u <= w;
                            } else {
                                int r = TierSupport.compareSlow(st, f, pc, op, x, y);
                                if (r < 0) continue outer;
                                stack = co.stack;
                                res = r != 0;
                            }
                            if (res != (((i >>> 6) & 0xFF) != 0)) pc++;
                            continue;
                        }
                        case OP_TEST: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            if (TierSupport.falsy(stack[ra]) == (((i >>> 14) & 0x1FF) != 0)) pc++;
                            continue;
                        }
                        case OP_TESTSET: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[base + (i >>> 23)];
                            if (TierSupport.falsy(x) == (((i >>> 14) & 0x1FF) != 0)) pc++;
                            else stack[ra] = x;
                            continue;
                        }
                        case OP_CALL: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            if (b != 0) co.top = ra + b;
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                            }
                            f.pc = pc;
                            Object fn = stack[ra];
                            if (fn instanceof LuaClosure ncl) { // inline, as TierSupport.call: through a call fib measured 10% slower
                                Calls.pushLua(st, co, ncl, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0);
                                continue outer;
                            }
                            if (Calls.precall(st, co, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0, f)) {
                                stack = co.stack;
                                continue;
                            }
                            continue outer;
                        }
                        case OP_TAILCALL: {
                            final int i = operands[pc - 1];
                            gas += TierSupport.tailcallGas(co, base, i); // args moved down
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                            }
                            if (TierSupport.tailcall(st, co, f, base, i, pc) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_RETURN: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            int b = i >>> 23;
                            int n = b != 0 ? b - 1 : co.top - ra;
                            if (n > Calls.FREE_VALUES) gas += n - Calls.FREE_VALUES; // element work: values returned
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                            }
                            // inline, as TierSupport.ret: through a call fib measured 4% slower
                            if (co.openUpvals != null) co.closeUpvalues(base);
                            int dst = f.func;
                            int want = f.nresults;
                            if (want == 1) {
                                stack[dst] = n > 0 ? stack[ra] : null;
                            } else if (want < 0) {
                                System.arraycopy(stack, ra, stack, dst, n);
                                co.top = dst + n;
                            } else {
                                int j = 0;
                                for (; j < want && j < n; j++) stack[dst + j] = stack[ra + j];
                                for (; j < want; j++) stack[dst + j] = null;
                            }
                            co.nframes--;
                            f.closure = null; // a returned frame keeps nothing alive (threat T19)
                            if ((f.flags & CallFrame.SPECIAL) != 0 && Calls.finishSpecial(st, co, f)) {
                                meter.charge(gas);
                                return;
                            }
                            continue outer;
                        }
                        case OP_FORLOOP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object o = stack[ra];
                            if (o instanceof Long lo) {
                                long idx = lo;
                                long step = (Long) stack[ra + 2];
                                if (TierSupport.forI(idx, (Long) stack[ra + 1], step)) {
                                    Long v = idx + step;
                                    stack[ra] = v;
                                    stack[ra + 3] = v;
                                    pc += (i >>> 14) - 131071;
                                }
                            } else {
                                double idx = (Double) o;
                                double step = (Double) stack[ra + 2];
                                if (TierSupport.forF(idx, (Double) stack[ra + 1], step)) {
                                    Double v = idx + step;
                                    stack[ra] = v;
                                    stack[ra + 3] = v;
                                    pc += (i >>> 14) - 131071;
                                }
                            }
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                                if (Tiering.backEdge(st, cl)) {
                                    f.pc = pc;
                                    continue outer;
                                }
                            }
                            continue;
                        }
                        case OP_FORPREP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            f.pc = pc;
                            if (!Calls.forPrep(st, stack, ra)) pc += (i >>> 14) - 131071 + 1;
                            continue;
                        }
                        case OP_TFORCALL: {
                            final int i = operands[pc - 1];
                            TierSupport.tforprep(co, base, i);
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                            }
                            if (TierSupport.tforcall(st, co, f, base, i, pc) < 0) continue outer;
                            stack = co.stack;
                            continue;
                        }
                        case OP_TFORLOOP: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            Object x = stack[ra + 1];
                            if (x != null) {
                                stack[ra] = x;
                                pc += (i >>> 14) - 131071;
                            }
                            if (gas >= gasRoom) {
                                meter.charge(gas);
                                gas = 0;
                                gasRoom = meter.room();
                                if (Tiering.backEdge(st, cl)) {
                                    f.pc = pc;
                                    continue outer;
                                }
                            }
                            continue;
                        }
                        case OP_SETLIST: {
                            final int i = operands[pc - 1];
                            long extra = TierSupport.setlistGas(co, base, i); // element work: values stored from a multiple result
                            if (extra != 0) {
                                gas += extra;
                                if (gas >= gasRoom) {
                                    meter.charge(gas);
                                    gas = 0;
                                    gasRoom = meter.room();
                                }
                            }
                            int c = (i >>> 14) & 0x1FF;
                            if (c == 0) c = code[pc++] >>> 6;
                            f.pc = pc;
                            TierSupport.storeList(co, base, i, c);
                            continue;
                        }
                        case OP_CLOSURE: {
                            final int i = operands[pc - 1];
                            final int ra = base + ((i >>> 6) & 0xFF);
                            f.pc = pc;
                            stack[ra] = Calls.closure(st, co, cl, i >>> 14, base);
                            continue;
                        }
                        case OP_VARARG: {
                            final int i = operands[pc - 1];
                            long extra = TierSupport.varargGas(co, f, base, i); // element work: values copied
                            if (extra != 0) {
                                gas += extra;
                                if (gas >= gasRoom) {
                                    meter.charge(gas);
                                    gas = 0;
                                    gasRoom = meter.room();
                                }
                            }
                            TierSupport.vararg(st, co, f, base, i, pc);
                            stack = co.stack;
                            continue;
                        }
                        default:
                            throw new IllegalStateException("bad opcode " + op);
                    }
                }
            } catch (LuaError | StackOverflowError e) {
                if (pc >= 0) f.pc = pc;
                // a host thread's Java stack ran out before MAX_C_CALLS re-entries: an ordinary Lua error here
                pending = e instanceof LuaError le ? le : LuaError.of(LuaState.C_STACK_OVERFLOW);
                st.tierDepth = tierDepth; // no compiled run of this loop is on the Java stack any more
                long g = gas;
                gas = 0;
                meter.charge(g);
                gasRoom = meter.room();
            }
        }
    }
}
