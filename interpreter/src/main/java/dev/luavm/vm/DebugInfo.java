package dev.luavm.vm;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.ChunkId;
import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * What the VM can say about running code, worked out from the bytecode only when needed
 * (PUC's {@code ldebug.c}): variable names for error messages ({@link #getObjName}, after
 * {@code getobjname}/{@code findsetreg}), names of called functions ({@code funcnamefromcode}),
 * positions ({@code chunk:line:}), {@code luaL_traceback}-format tracebacks and the safe subset
 * of {@code debug.getinfo}.
 */
public final class DebugInfo {
    private DebugInfo() {}

    /** luaL_traceback: first LEVELS1 levels, then "...", then the last LEVELS2. */
    private static final int LEVELS1 = 10;
    private static final int LEVELS2 = 11;

    // ---- positions

    static String chunkId(Prototype p) {
        return ChunkId.of(p.source == null ? "?" : p.source.toLatin1());
    }

    static int currentLine(CallFrame f) {
        return f.closure.proto.lineAt(f.pc - 1);
    }

    /** "chunk:line: " for a Lua frame, "" for anything else (luaL_where). */
    static String where(CallFrame f) {
        if (f == null || f.kind != CallFrame.LUA) return "";
        return chunkId(f.closure.proto) + ":" + currentLine(f) + ": ";
    }

    /** luaL_where(level): level 1 is the function that called the running builtin. */
    static String where(Coroutine co, int level) {
        int i = co.nframes - level;
        if (level <= 0 || i < 0) return "";
        return where(co.frames[i]);
    }

    // ---- variable names (getobjname)

    /** {kind, name} of register {@code reg} at {@code lastpc}, or null (ldebug.c getobjname). */
    static String[] getObjName(Prototype p, int lastpc, int reg) {
        String name = p.localName(reg + 1, lastpc);
        if (name != null) return new String[] {"local", name};
        int pc = findSetReg(p, lastpc, reg);
        if (pc == -1) return null;
        int i = p.code[pc];
        OpCode op = Instr.op(i);
        switch (op) {
            case MOVE: {
                int b = Instr.b(i);
                if (b < Instr.a(i)) return getObjName(p, pc, b);
                return null;
            }
            case GETTABUP:
            case GETTABLE: {
                int k = Instr.c(i);
                int t = Instr.b(i);
                String vn = op == OpCode.GETTABLE ? p.localName(t + 1, pc) : upvalName(p, t);
                String kn = kname(p, pc, k);
                return new String[] {"_ENV".equals(vn) ? "global" : "field", kn};
            }
            case GETUPVAL:
                return new String[] {"upvalue", upvalName(p, Instr.b(i))};
            case LOADK:
            case LOADKX: {
                int b = op == OpCode.LOADK ? Instr.bx(i) : Instr.ax(p.code[pc + 1]);
                if (p.constants[b] instanceof LuaString s) return new String[] {"constant", s.toLatin1()};
                return null;
            }
            case SELF:
                return new String[] {"method", kname(p, pc, Instr.c(i))};
            default:
                return null;
        }
    }

    private static String upvalName(Prototype p, int u) {
        if (u < 0 || u >= p.upvalues.length) return "?";
        String n = p.upvalues[u].name();
        return n == null ? "?" : n;
    }

    private static String kname(Prototype p, int pc, int c) {
        if (Instr.isK(c)) {
            if (p.constants[Instr.indexK(c)] instanceof LuaString s) return s.toLatin1();
        } else {
            String[] what = getObjName(p, pc, c);
            if (what != null && what[0].equals("constant")) return what[1];
        }
        return "?";
    }

    private static int findSetReg(Prototype p, int lastpc, int reg) {
        int setreg = -1;
        int jmptarget = 0;
        for (int pc = 0; pc < lastpc; pc++) {
            int i = p.code[pc];
            OpCode op = Instr.op(i);
            int a = Instr.a(i);
            switch (op) {
                case LOADNIL:
                    if (a <= reg && reg <= a + Instr.b(i)) setreg = pc < jmptarget ? -1 : pc;
                    break;
                case TFORCALL:
                    if (reg >= a + 2) setreg = pc < jmptarget ? -1 : pc;
                    break;
                case CALL:
                case TAILCALL:
                    if (reg >= a) setreg = pc < jmptarget ? -1 : pc;
                    break;
                case JMP: {
                    int dest = pc + 1 + Instr.sbx(i);
                    if (pc < dest && dest <= lastpc && dest > jmptarget) jmptarget = dest;
                    break;
                }
                default:
                    if (op.setsA && reg == a) setreg = pc < jmptarget ? -1 : pc;
                    break;
            }
        }
        return setreg;
    }

    /** " (kind 'name')" for the operand a VmError blames, or "" (ldebug.c varinfo). */
    static String varInfo(CallFrame f, VmError e) {
        if (e.operand == VmError.NONE || f == null || f.kind != CallFrame.LUA) return "";
        Prototype p = f.closure.proto;
        int pc = f.pc - 1;
        if (pc < 0 || pc >= p.code.length) return "";
        int i = p.code[pc];
        OpCode op = Instr.op(i);
        int reg;
        if (e.operand >= VmError.REG) {
            reg = e.operand - VmError.REG;
        } else {
            int raw = switch (e.operand) {
                case VmError.OP_A -> Instr.a(i);
                case VmError.OP_B -> Instr.b(i);
                default -> Instr.c(i);
            };
            if ((op == OpCode.GETTABUP && e.operand == VmError.OP_B)
                    || (op == OpCode.SETTABUP && e.operand == VmError.OP_A)) {
                return " (upvalue '" + upvalName(p, raw) + "')";
            }
            if (op == OpCode.TFORCALL) raw = Instr.a(i) + 3;
            boolean rk = (e.operand == VmError.OP_B && op.bMode == OpCode.Mode.RK)
                    || (e.operand == VmError.OP_C && op.cMode == OpCode.Mode.RK);
            if (rk && Instr.isK(raw)) return ""; // a constant is not a variable
            reg = raw;
        }
        String[] kn = getObjName(p, pc, reg);
        return kn == null ? "" : " (" + kn[0] + " '" + kn[1] + "')";
    }

    // ---- function names (funcnamefromcode)

    /** {namewhat, name} for the function called by the instruction at {@code caller}'s pc, or null. */
    static String[] funcNameFromCode(CallFrame caller) {
        if (caller == null || caller.kind != CallFrame.LUA) return null;
        Prototype p = caller.closure.proto;
        int pc = caller.pc - 1;
        if (pc < 0 || pc >= p.code.length) return null;
        int i = p.code[pc];
        String tm;
        switch (Instr.op(i)) {
            case CALL:
            case TAILCALL:
                return getObjName(p, pc, Instr.a(i));
            case TFORCALL:
                return new String[] {"for iterator", "for iterator"};
            case SELF: case GETTABUP: case GETTABLE: tm = "index"; break;
            case SETTABUP: case SETTABLE: tm = "newindex"; break;
            case ADD: tm = "add"; break;
            case SUB: tm = "sub"; break;
            case MUL: tm = "mul"; break;
            case MOD: tm = "mod"; break;
            case POW: tm = "pow"; break;
            case DIV: tm = "div"; break;
            case IDIV: tm = "idiv"; break;
            case BAND: tm = "band"; break;
            case BOR: tm = "bor"; break;
            case BXOR: tm = "bxor"; break;
            case SHL: tm = "shl"; break;
            case SHR: tm = "shr"; break;
            case UNM: tm = "unm"; break;
            case BNOT: tm = "bnot"; break;
            case LEN: tm = "len"; break;
            case CONCAT: tm = "concat"; break;
            case EQ: tm = "eq"; break;
            case LT: tm = "lt"; break;
            case LE: tm = "le"; break;
            default: return null;
        }
        return new String[] {"metamethod", "__" + tm};
    }

    /** {namewhat, name} of the function running in frame {@code idx}, from its caller (getfuncname). */
    static String[] frameFuncName(Coroutine co, int idx) {
        CallFrame f = co.frames[idx];
        if ((f.flags & (CallFrame.TAIL | CallFrame.FRESH | CallFrame.BOTTOM | CallFrame.HANDLER)) != 0) return null;
        if (idx == 0) return null;
        return funcNameFromCode(co.frames[idx - 1]);
    }

    /**
     * pushglobalfuncname: "name" or "mod.name" of a function found in package.loaded, or null. A
     * library function still found under its own name is called by it: where PUC finds one C
     * function under two names ({@code math.atan} and {@code math.atan2}), which name it prints
     * depends on its hash order, and lua5.3 prints the library's own.
     */
    static String globalFuncName(LuaState st, Object fn) {
        if (fn instanceof Builtin b && isReachableAs(st, b)) return b.qualifiedName;
        Object loaded = st.registry.get(LuaString.of("_LOADED"));
        Object[] kv = new Object[2];
        if (loaded instanceof LuaTable lt) {
            Object key = null;
            while (lt.next(key, kv)) {
                key = kv[0];
                if (kv[1] instanceof LuaTable mod && key instanceof LuaString modName) {
                    String hit = findIn(mod, fn, modName.toLatin1());
                    if (hit != null) return hit.startsWith("_G.") ? hit.substring(3) : hit;
                }
            }
            return null;
        }
        String hit = findIn(st.globals, fn, null);
        if (hit != null) return hit;
        Object key = null;
        while (st.globals.next(key, kv)) {
            key = kv[0];
            if (kv[1] instanceof LuaTable mod && key instanceof LuaString modName && mod != st.globals) {
                hit = findIn(mod, fn, modName.toLatin1());
                if (hit != null) return hit;
            }
        }
        return null;
    }

    /** True when {@code b} is where its qualified name says ({@code "math.atan"}: loaded.math.atan; {@code "print"}: _G.print). */
    private static boolean isReachableAs(LuaState st, Builtin b) {
        String q = b.qualifiedName;
        int dot = q.indexOf('.');
        if (dot < 0 || q.indexOf('.', dot + 1) >= 0) return dot < 0 && st.globals.get(LuaString.of(q)) == b;
        Object loaded = st.registry.get(LuaString.of("_LOADED"));
        Object mod = loaded instanceof LuaTable lt ? lt.get(LuaString.of(q.substring(0, dot))) : st.globals.get(LuaString.of(q.substring(0, dot)));
        return mod instanceof LuaTable m && m.get(LuaString.of(q.substring(dot + 1))) == b;
    }

    private static String findIn(LuaTable t, Object fn, String prefix) {
        Object[] kv = new Object[2];
        Object key = null;
        while (t.next(key, kv)) {
            key = kv[0];
            if (kv[1] == fn && key instanceof LuaString s) return prefix == null ? s.toLatin1() : prefix + "." + s.toLatin1();
        }
        return null;
    }

    // ---- tracebacks

    /**
     * luaL_traceback of {@code co}: {@code msg} (may be null), then "stack traceback:" and one
     * line per level starting at {@code level} (1 = top frame). {@code pendingBuiltin}, when
     * not null, is a builtin that was running on top (the one that raised) and is shown first.
     */
    static String traceback(LuaState st, Coroutine co, String msg, int level, Builtin pendingBuiltin,
                            boolean javaEntryAtBottom) {
        StringBuilder sb = new StringBuilder();
        if (msg != null) sb.append(msg).append('\n');
        sb.append("stack traceback:");
        if (level < 1) return sb.toString(); // no such level (lua_getstack fails), as lua5.3 prints it
        // collect the levels: the pending builtin, then frames top-down
        int nlev = co.nframes - (level - 1) + (pendingBuiltin != null ? 1 : 0);
        int shown = 0;
        int lev = 0;
        if (pendingBuiltin != null) {
            appendC(sb, st, pendingBuiltin, null);
            lev++;
            shown++;
        }
        for (int idx = co.nframes - level; idx >= 0; idx--, lev++) {
            if (lev == LEVELS1 && nlev > LEVELS1 + LEVELS2) {
                sb.append("\n\t...");
                int skipTo = nlev - LEVELS2; // level number to continue from
                idx -= (skipTo - lev) - 1;
                lev = skipTo - 1;
                continue;
            }
            CallFrame f = co.frames[idx];
            if (f.kind == CallFrame.LUA) {
                Prototype p = f.closure.proto;
                sb.append("\n\t").append(chunkId(p)).append(':').append(currentLine(f)).append(": in ");
                sb.append(describeFunction(st, co, idx, f.closure));
                if ((f.flags & CallFrame.TAIL) != 0) sb.append("\n\t(...tail calls...)");
            } else {
                appendC(sb, st, f.builtin, frameFuncName(co, idx));
            }
            shown++;
        }
        if (javaEntryAtBottom) sb.append("\n\t[C]: in ?");
        return sb.toString();
    }

    private static void appendC(StringBuilder sb, LuaState st, Builtin b, String[] callName) {
        sb.append("\n\t[C]: in ");
        String g = b == null ? null : globalFuncName(st, b);
        if (g != null) sb.append("function '").append(g).append('\'');
        else if (callName != null) sb.append(callName[0]).append(" '").append(callName[1]).append('\'');
        else sb.append('?');
    }

    private static String describeFunction(LuaState st, Coroutine co, int idx, LuaClosure cl) {
        String g = globalFuncName(st, cl);
        if (g != null) return "function '" + g + "'";
        String[] n = frameFuncName(co, idx);
        if (n != null) return n[0] + " '" + n[1] + "'";
        Prototype p = cl.proto;
        if (p.lineDefined == 0) return "main chunk";
        return "function <" + chunkId(p) + ":" + p.lineDefined + ">";
    }

    // ---- public entry points for the debug library

    /** debug.traceback([msg [, level]]) for the coroutine running the builtin {@code c}. */
    public static String traceback(CallContext c, String msg, int level) {
        Ctx ctx = (Ctx) c;
        // level 0 is debug.traceback itself, a C function, then its caller's levels
        if (level < 0) return traceback(ctx.st, ctx.st.current, msg, 0, null, false);
        if (level == 0) return traceback(ctx.st, ctx.st.current, msg, 1, ctx.callee(), true);
        Builtin raiser = level == 1 && ctx.caller == null ? ctx.st.handlerRaiser : null;
        return traceback(ctx.st, ctx.st.current, msg, level, raiser, true);
    }

    /** debug.traceback of another coroutine. */
    public static String traceback(CallContext c, Coroutine co, String msg, int level) {
        Ctx ctx = (Ctx) c;
        return traceback(ctx.st, co, msg, level + 1, null, false);
    }

    /**
     * debug.getinfo restricted to source, short_src, currentline, linedefined, lastlinedefined,
     * what, name, namewhat. {@code target} is a level (Long; 0 = getinfo itself) or a function.
     * Returns null for a level beyond the stack.
     */
    public static LuaTable getInfo(CallContext c, Object target) {
        Ctx ctx = (Ctx) c;
        LuaState st = ctx.st;
        LuaTable t = c.newTable(0, 8);
        if (target instanceof LuaFunction fn) {
            fill(t, fn, -1, null);
            return t;
        }
        long level = (Long) target;
        Coroutine co = st.current;
        if (level < 0) return null;
        if (level == 0) {
            fill(t, ctx.callee(), -1, new String[] {"field", "getinfo"});
            return t;
        }
        long idx = co.nframes - level;
        if (idx < 0) return null;
        CallFrame f = co.frames[(int) idx];
        String[] name = frameFuncName(co, (int) idx);
        if (f.kind == CallFrame.LUA) fill(t, f.closure, currentLine(f), name);
        else fill(t, f.builtin, -1, name);
        return t;
    }

    private static void fill(LuaTable t, Object fn, int currentLine, String[] name) {
        if (fn instanceof LuaClosure cl) {
            Prototype p = cl.proto;
            LuaString src = p.source == null ? LuaString.of("=?") : p.source;
            t.put(LuaString.of("source"), src);
            t.put(LuaString.of("short_src"), LuaString.ofLatin1(chunkId(p)));
            t.put(LuaString.of("linedefined"), (long) p.lineDefined);
            t.put(LuaString.of("lastlinedefined"), (long) p.lastLineDefined);
            t.put(LuaString.of("what"), LuaString.of(p.lineDefined == 0 ? "main" : "Lua"));
        } else {
            t.put(LuaString.of("source"), LuaString.of("=[C]"));
            t.put(LuaString.of("short_src"), LuaString.of("[C]"));
            t.put(LuaString.of("linedefined"), -1L);
            t.put(LuaString.of("lastlinedefined"), -1L);
            t.put(LuaString.of("what"), LuaString.of("C"));
        }
        t.put(LuaString.of("currentline"), (long) currentLine);
        if (name != null) {
            t.put(LuaString.of("name"), LuaString.ofLatin1(name[1]));
            t.put(LuaString.of("namewhat"), LuaString.ofLatin1(name[0]));
        } else {
            t.put(LuaString.of("namewhat"), LuaString.EMPTY);
        }
    }
}
