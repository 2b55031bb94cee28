package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;

/**
 * {@code string.format} (str_format in {@code lstrlib.c}): reads the format string, hands each
 * numeric conversion to {@link Printf}, and does {@code %c}, {@code %s}, {@code %q} and
 * {@code %%} itself on bytes. Limits and messages are PUC's: at most 5 flag characters
 * ("invalid format (repeated flags)"), two digits each of width and precision ("invalid
 * format (width or precision too long)"), no length modifiers ("invalid option '%l' to
 * 'format'"). Output goes through a {@link ByteBuilder}, so it is charged per byte.
 */
final class StringFormat {
    private StringFormat() {}

    static final Builtin FORMAT = new Builtin("string.format") { @Override public int call(CallContext c) { return StringFormat.format(c); } };

    /** Valid flag characters; a run of sizeof(FLAGS) = 6 or more is an error, as in PUC. */
    private static final String FLAGS = "-+ #0";

    private static int format(CallContext c) {
        LuaString fs = c.checkString(1);
        byte[] f = fs.bytesUnsafe();
        int n = f.length;
        int top = c.nargs();
        int arg = 1;
        c.chargeBytes(n); // the format is read once; output is paid as it grows (ByteBuilder)
        ByteBuilder b = new ByteBuilder(c, n + 16);
        int i = 0;
        while (i < n) {
            int ch = f[i] & 0xFF;
            if (ch != '%') {
                int j = i;
                while (j < n && f[j] != '%') j++;
                b.append(f, i, j);
                i = j;
                continue;
            }
            i++;
            if (i < n && f[i] == '%') { // %%
                b.append('%');
                i++;
                continue;
            }
            if (++arg > top) throw c.argError(arg, "no value");
            Printf.Spec spec = new Printf.Spec();
            i = scanFormat(c, f, i, spec);
            c.chargeGas(1);
            switch (spec.conversion) {
                case 'c': {
                    int byteValue = (int) c.checkInteger(arg) & 0xFF;
                    int padding = spec.width - 1;
                    if (!spec.left) b.fill(' ', padding);
                    b.append(byteValue);
                    if (spec.left) b.fill(' ', padding);
                    break;
                }
                case 'd': case 'i':
                    b.appendAscii(Printf.signedInteger(spec, c.checkInteger(arg)));
                    break;
                case 'o': case 'u': case 'x': case 'X':
                    b.appendAscii(Printf.unsignedInteger(spec, c.checkInteger(arg)));
                    break;
                case 'a': case 'A':
                    b.appendAscii(Printf.hexFloat(spec, c.checkNumber(arg)));
                    break;
                case 'e': case 'E': case 'f': case 'g': case 'G': {
                    double x = c.checkNumber(arg);
                    c.chargeGas(Printf.decimalWork(spec, x)); // exact decimal digits: big-number arithmetic
                    b.appendAscii(Printf.decimalFloat(spec, x));
                    break;
                }
                case 'q':
                    addLiteral(c, b, arg);
                    break;
                case 's':
                    addString(c, b, arg, spec);
                    break;
                default:
                    throw c.error("invalid option '%" + CType.forMessage(spec.conversion) + "' to 'format'");
            }
        }
        return c.ret(b.toLuaString());
    }

    /**
     * Reads flags, width and precision after a '%' at {@code i} into {@code spec}, and the
     * conversion byte (0 past the end, like C's terminator); returns the index after it.
     */
    private static int scanFormat(CallContext c, byte[] f, int i, Printf.Spec spec) {
        int n = f.length;
        int start = i;
        while (i < n && f[i] != 0 && FLAGS.indexOf(f[i]) >= 0) {
            switch (f[i]) {
                case '-': spec.left = true; break;
                case '+': spec.plus = true; break;
                case ' ': spec.space = true; break;
                case '#': spec.alt = true; break;
                default: spec.zero = true;
            }
            i++;
        }
        if (i - start >= FLAGS.length() + 1) throw c.error("invalid format (repeated flags)");
        int width = 0;
        for (int k = 0; k < 2 && i < n && CType.isDigit(f[i]); k++) width = width * 10 + (f[i++] - '0');
        spec.width = width;
        if (i < n && f[i] == '.') {
            i++;
            int precision = 0;
            for (int k = 0; k < 2 && i < n && CType.isDigit(f[i]); k++) precision = precision * 10 + (f[i++] - '0');
            spec.precision = precision;
        }
        if (i < n && CType.isDigit(f[i])) throw c.error("invalid format (width or precision too long)");
        spec.modified = i > start;
        spec.conversion = i < n ? f[i] & 0xFF : 0;
        return i + 1;
    }

    /** {@code %s}: the value as tostring gives it; with modifiers, C's {@code %s} on its bytes. */
    private static void addString(CallContext c, ByteBuilder b, int arg, Printf.Spec spec) {
        LuaString s = c.toStringMeta(c.arg(arg));
        if (!spec.modified) {
            b.append(s);
            return;
        }
        byte[] bytes = s.bytesUnsafe();
        // C's strlen check scans the whole string even when the precision keeps a few bytes
        for (int from = 0; from < bytes.length; from += ByteWork.CHUNK) {
            int to = Math.min(bytes.length, from + ByteWork.CHUNK);
            c.chargeBytes(to - from);
            for (int i = from; i < to; i++) {
                if (bytes[i] == 0) throw c.argError(arg, "string contains zeros");
            }
        }
        if (spec.precision < 0 && bytes.length >= 100) { // too long to be formatted: kept whole
            b.append(s);
            return;
        }
        int len = spec.precision < 0 ? bytes.length : Math.min(bytes.length, spec.precision);
        int padding = spec.width - len;
        if (!spec.left) b.fill(' ', padding);
        b.append(bytes, 0, len);
        if (spec.left) b.fill(' ', padding);
    }

    /** {@code %q}: a Lua literal that reads back as the same value. */
    private static void addLiteral(CallContext c, ByteBuilder b, int arg) {
        Object v = c.arg(arg);
        if (v instanceof LuaString s) {
            addQuoted(b, s.bytesUnsafe());
        } else if (v instanceof Long l) {
            b.appendAscii(l == Long.MIN_VALUE ? "0x8000000000000000" : Long.toString(l));
        } else if (v instanceof Double d) {
            Printf.Spec plain = new Printf.Spec();
            plain.conversion = 'a';
            b.appendAscii(Printf.hexFloat(plain, d)); // exact; inf and nan as %a prints them
        } else if (v == null || v instanceof Boolean) {
            b.appendAscii(String.valueOf(v == null ? "nil" : v));
        } else {
            throw c.argError(arg, "value has no literal form");
        }
    }

    /**
     * A quoted string: {@code "}, {@code \} and newline are escaped with a backslash (newline
     * as backslash-newline), other control bytes as {@code \ddd}, written short ({@code \9})
     * unless a digit follows; bytes above 127 pass through.
     */
    static void addQuoted(ByteBuilder b, byte[] s) {
        b.reserve(s.length + 2L);
        b.append('"');
        for (int i = 0; i < s.length; i++) {
            int ch = s[i] & 0xFF;
            if (ch == '"' || ch == '\\' || ch == '\n') {
                b.append('\\');
                b.append(ch);
            } else if (CType.isCntrl(ch)) {
                int next = i + 1 < s.length ? s[i + 1] & 0xFF : 0;
                String code = Integer.toString(ch);
                if (CType.isDigit(next)) code = "0".repeat(3 - code.length()) + code;
                b.append('\\');
                b.appendAscii(code);
            } else {
                b.append(ch);
            }
        }
        b.append('"');
    }
}
