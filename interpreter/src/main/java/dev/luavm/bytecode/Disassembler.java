package dev.luavm.bytecode;

import dev.luavm.value.LuaString;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A {@code luac -l} style listing of a {@link Prototype} and its nested functions. Names,
 * formats and operand modes come only from {@link OpCode}; operands are printed as luac prints
 * them (RK and constant operands as {@code -1-k}), with luac's comments (constants, upvalue
 * names, jump targets). Function addresses are replaced by stable ids ({@code F0} for the
 * outermost function, then the nested ones in pre-order), so listings can be golden files.
 *
 * <p>With {@code full}, each function is followed by its constants, locals and upvalues, as
 * {@code luac -l -l}.
 */
public final class Disassembler {
    private final StringBuilder out = new StringBuilder();
    private final Map<Prototype, Integer> ids = new IdentityHashMap<>();
    private final boolean full;

    private Disassembler(boolean full) {
        this.full = full;
    }

    /** The listing of {@code p} and every function nested in it. */
    public static String listing(Prototype p, boolean full) {
        Disassembler d = new Disassembler(full);
        d.number(p);
        d.function(p);
        return d.out.toString();
    }

    private void number(Prototype p) {
        ids.put(p, ids.size());
        for (Prototype c : p.protos) number(c);
    }

    private String id(Prototype p) {
        return "F" + ids.get(p);
    }

    private static String plural(int n) {
        return n == 1 ? "" : "s";
    }

    private void function(Prototype f) {
        header(f);
        code(f);
        if (full) debug(f);
        for (Prototype c : f.protos) function(c);
    }

    private void header(Prototype f) {
        String s = f.source == null ? "=?" : f.source.toLatin1();
        if (s.startsWith("@") || s.startsWith("=")) s = s.substring(1);
        else if (s.startsWith("\033")) s = "(bstring)";
        else s = "(string)";
        int n = f.code.length;
        out.append('\n').append(f.lineDefined == 0 ? "main" : "function").append(" <").append(s)
            .append(':').append(f.lineDefined).append(',').append(f.lastLineDefined).append("> (")
            .append(n).append(" instruction").append(plural(n)).append(" at ").append(id(f)).append(")\n");
        out.append(f.numParams).append(f.isVararg ? "+" : "").append(" param").append(plural(f.numParams))
            .append(", ").append(f.maxStackSize).append(" slot").append(plural(f.maxStackSize))
            .append(", ").append(f.upvalues.length).append(" upvalue").append(plural(f.upvalues.length))
            .append(", ").append(f.localVars.length).append(" local").append(plural(f.localVars.length))
            .append(", ").append(f.constants.length).append(" constant").append(plural(f.constants.length))
            .append(", ").append(f.protos.length).append(" function").append(plural(f.protos.length))
            .append('\n');
    }

    /** An operand as luac prints it: constants as -1-k. */
    private static int shown(OpCode.Mode mode, int v) {
        if (mode == OpCode.Mode.CONST) return -1 - v;
        if (mode == OpCode.Mode.RK && Instr.isK(v)) return -1 - Instr.indexK(v);
        return v;
    }

    private void code(Prototype f) {
        int[] code = f.code;
        for (int pc = 0; pc < code.length; pc++) {
            int i = code[pc];
            OpCode o = Instr.op(i);
            int a = Instr.a(i);
            int b = Instr.b(i);
            int c = Instr.c(i);
            int line = f.lineAt(pc);
            out.append('\t').append(pc + 1).append('\t');
            out.append(line > 0 ? "[" + line + "]" : "[-]").append('\t');
            out.append(String.format("%-9s", o.name())).append('\t');
            switch (o.format) {
                case ABC:
                    out.append(a);
                    if (o.bMode != OpCode.Mode.UNUSED) out.append(' ').append(shown(o.bMode, b));
                    if (o.cMode != OpCode.Mode.UNUSED) out.append(' ').append(shown(o.cMode, c));
                    break;
                case ABx:
                    out.append(a);
                    if (o.bMode != OpCode.Mode.UNUSED) out.append(' ').append(shown(o.bMode, Instr.bx(i)));
                    break;
                case AsBx:
                    out.append(a).append(' ').append(Instr.sbx(i));
                    break;
                case Ax:
                    out.append(-1 - Instr.ax(i));
                    break;
            }
            pc = comment(f, pc, o, i);
            out.append('\n');
        }
    }

    /** luac's trailing comment; returns the pc (SETLIST with C = 0 consumes the next word). */
    private int comment(Prototype f, int pc, OpCode o, int i) {
        int b = Instr.b(i);
        int c = Instr.c(i);
        switch (o) {
            case GETUPVAL: case SETUPVAL:
                out.append("\t; ").append(upvalName(f, b));
                return pc;
            case GETTABUP:
                out.append("\t; ").append(upvalName(f, b));
                if (Instr.isK(c)) out.append(' ').append(constant(f, Instr.indexK(c)));
                return pc;
            case SETTABUP:
                out.append("\t; ").append(upvalName(f, Instr.a(i)));
                if (Instr.isK(b)) out.append(' ').append(constant(f, Instr.indexK(b)));
                if (Instr.isK(c)) out.append(' ').append(constant(f, Instr.indexK(c)));
                return pc;
            case CLOSURE:
                out.append("\t; ").append(id(f.protos[Instr.bx(i)]));
                return pc;
            case SETLIST:
                if (c == 0) out.append("\t; ").append(f.code[++pc]);
                else out.append("\t; ").append(c);
                return pc;
            case EXTRAARG:
                out.append("\t; ").append(constant(f, Instr.ax(i)));
                return pc;
            default:
                break;
        }
        if (o.bMode == OpCode.Mode.CONST) {
            out.append("\t; ").append(constant(f, Instr.bx(i)));
        } else if (o.bMode == OpCode.Mode.JUMP) {
            out.append("\t; to ").append(Instr.sbx(i) + pc + 2);
        } else if (o.bMode == OpCode.Mode.RK && (Instr.isK(b) || Instr.isK(c))) {
            out.append("\t; ").append(Instr.isK(b) ? constant(f, Instr.indexK(b)) : "-").append(' ')
                .append(Instr.isK(c) ? constant(f, Instr.indexK(c)) : "-");
        } else if (o.cMode == OpCode.Mode.RK && Instr.isK(c)) {
            out.append("\t; ").append(constant(f, Instr.indexK(c)));
        }
        return pc;
    }

    private static String upvalName(Prototype f, int n) {
        if (n < f.upvalues.length && f.upvalues[n].name() != null) return f.upvalues[n].name();
        return "-";
    }

    private void debug(Prototype f) {
        out.append("constants (").append(f.constants.length).append(") for ").append(id(f)).append(":\n");
        for (int i = 0; i < f.constants.length; i++) {
            out.append('\t').append(i + 1).append('\t').append(constant(f, i)).append('\n');
        }
        out.append("locals (").append(f.localVars.length).append(") for ").append(id(f)).append(":\n");
        for (int i = 0; i < f.localVars.length; i++) {
            Prototype.LocalVar v = f.localVars[i];
            out.append('\t').append(i).append('\t').append(v.name()).append('\t').append(v.startPc() + 1)
                .append('\t').append(v.endPc() + 1).append('\n');
        }
        out.append("upvalues (").append(f.upvalues.length).append(") for ").append(id(f)).append(":\n");
        for (int i = 0; i < f.upvalues.length; i++) {
            Prototype.UpvalueDesc u = f.upvalues[i];
            out.append('\t').append(i).append('\t').append(upvalName(f, i)).append('\t')
                .append(u.inStack() ? 1 : 0).append('\t').append(u.index()).append('\n');
        }
    }

    /** A constant as luac prints it: strings quoted with C escapes, floats as %.14g. */
    static String constant(Prototype f, int k) {
        Object o = f.constants[k];
        if (o == null) return "nil";
        if (o instanceof Boolean bo) return bo ? "true" : "false";
        if (o instanceof Long l) return Long.toString(l);
        if (o instanceof Double d) {
            String s = formatG14(d);
            return s.matches("-?[0-9]+") ? s + ".0" : s;
        }
        if (o instanceof LuaString s) return quote(s);
        return "? " + o;
    }

    private static String quote(LuaString s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            int c = s.byteAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case 7: b.append("\\a"); break;
                case '\b': b.append("\\b"); break;
                case '\f': b.append("\\f"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                case 0x0B: b.append("\\v"); break;
                default:
                    if (c >= 0x20 && c < 0x7F) b.append((char) c);
                    else b.append(String.format("\\%03d", c));
            }
        }
        return b.append('"').toString();
    }

    /** C's printf("%.14g", d). */
    static String formatG14(double d) {
        if (Double.isNaN(d)) return (Double.doubleToRawLongBits(d) < 0) ? "-nan" : "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        if (d == 0) return (1 / d < 0) ? "-0" : "0";
        BigDecimal bd = new BigDecimal(d).round(new MathContext(14));
        int exp = bd.precision() - bd.scale() - 1; // decimal exponent of the leading digit
        if (exp < -4 || exp >= 14) {
            String digits = bd.unscaledValue().abs().toString();
            digits = digits.replaceAll("0+$", "");
            String mant = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            String e = String.format("%s%02d", exp < 0 ? "-" : "+", Math.abs(exp));
            return (d < 0 ? "-" : "") + mant + "e" + e;
        }
        String plain = bd.toPlainString();
        if (plain.contains(".")) plain = plain.replaceAll("0+$", "").replaceAll("\\.$", "");
        return plain;
    }
}
