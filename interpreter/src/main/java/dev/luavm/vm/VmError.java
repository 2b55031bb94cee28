package dev.luavm.vm;

import dev.luavm.value.LuaString;

/**
 * A runtime error raised by an opcode's slow path whose final text is not known yet (style
 * rule 9). The slow path knows <em>what</em> went wrong and which operand of the current
 * instruction was at fault; only when the error is raised does the dispatch loop work out the
 * {@code (local 'x')} part by inspecting the bytecode ({@link DebugInfo#varInfo}) and prefix the
 * {@code chunk:line:} position. The fast path stores nothing for this.
 *
 * <p>When a slow path runs on behalf of a library function (through {@code CallContext}), no
 * Lua instruction is at fault: the error is {@linkplain #plain() finished} without variable
 * information or position, exactly as PUC's {@code luaG_typeerror} behaves under a C function.
 */
final class VmError extends LuaError {
    /** no operand to name */
    static final int NONE = -1;
    /** operand A of the current instruction (register, or upvalue for SETTABUP) */
    static final int OP_A = 0;
    /** operand B (register, RK, or upvalue for GETTABUP) */
    static final int OP_B = 1;
    /** operand C (RK) */
    static final int OP_C = 2;
    /** {@code REG + r}: register r of the current frame (CONCAT operands) */
    static final int REG = 0x10000;

    final String before;
    final int operand;
    final String after;

    VmError(String before, int operand, String after) {
        super(null);
        this.before = before;
        this.operand = operand;
        this.after = after;
    }

    /** "attempt to {op} a {type} value{varinfo}" */
    static VmError type(String op, String typeName, int operand) {
        return new VmError("attempt to " + op + " a " + typeName + " value", operand, "");
    }

    /** A positioned runtime error with a fixed text (luaG_runerror). */
    static VmError run(String message) {
        return new VmError(message, NONE, "");
    }

    static VmError stackOverflow() {
        return run("stack overflow");
    }

    /** The final error: {@code position + before + varinfo + after}. */
    LuaError finish(String position, String varInfo) {
        return new LuaError(LuaString.ofLatin1(position + before + varInfo + after));
    }

    /** The error as raised from library code: no position, no variable information. */
    LuaError plain() {
        return finish("", "");
    }

    @Override
    public Object value() {
        return LuaString.ofLatin1(before + after);
    }

    @Override
    public String getMessage() {
        return before + after;
    }
}
