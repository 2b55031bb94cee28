package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code string.pack}, {@code string.unpack} and {@code string.packsize}: binary
 * serialisation driven by a format string, with the sizes of PUC-Rio Lua on a 64-bit
 * little-endian Linux host ({@code int} 4, {@code short} 2, {@code long}, {@code size_t},
 * {@code lua_Integer} and the maximum alignment 8). The format is read up to its first zero
 * byte, as C reads it.
 */
final class StringPack {
    private StringPack() {}

    static final Builtin PACK = new Builtin("string.pack") { @Override public int call(CallContext c) { return StringPack.pack(c); } };
    static final Builtin UNPACK = new Builtin("string.unpack") { @Override public int call(CallContext c) { return StringPack.unpack(c); } };
    static final Builtin PACKSIZE = new Builtin("string.packsize") { @Override public int call(CallContext c) { return StringPack.packsize(c); } };

    /** Largest integral size ({@code i16}). */
    private static final int MAXINTSIZE = 16;
    /** Size of a Lua integer. */
    private static final int SZINT = 8;
    /** Default for {@code !} (offsetof a double/pointer/integer after a char). */
    private static final int MAXALIGN = 8;
    /** PUC's MAXSIZE (INT_MAX in 5.3), the limit for packsize and numerals in formats. */
    private static final long MAXSIZE = StringLibrary.MAXSIZE;

    private enum Kind {
        INT, UINT, FLOAT, CHAR, STRING, ZSTR, PADDING, PADALIGN, NOP
    }

    /**
     * A cursor over a format string and its state (PUC's Header): endianness and maximum
     * alignment, plus the details of the option last read.
     */
    private static final class Format {
        final CallContext c;
        final byte[] fmt;
        final int end;
        int pos;
        boolean little = true;
        int maxAlign = 1;
        Kind kind;
        int size;
        int toAlign;

        Format(CallContext c, LuaString f) {
            this.c = c;
            this.fmt = f.bytesUnsafe();
            c.chargeBytes(fmt.length); // the format is scanned and read once
            int z = 0;
            while (z < fmt.length && fmt[z] != 0) z++;
            this.end = z;
        }

        boolean more() {
            return pos < end;
        }

        private int peek() {
            return pos < end ? fmt[pos] & 0xFF : 0;
        }

        private int getNum(int df) {
            if (!CType.isDigit(peek())) return df;
            int a = 0;
            do {
                a = a * 10 + (fmt[pos++] - '0');
            } while (CType.isDigit(peek()) && a <= (MAXSIZE - 9) / 10);
            return a;
        }

        private int getNumLimit(int df) {
            int sz = getNum(df);
            if (sz > MAXINTSIZE || sz <= 0) {
                throw c.error("integral size (" + sz + ") out of limits [1," + MAXINTSIZE + "]");
            }
            return sz;
        }

        /** Reads one option: its kind, with its size left in {@code size}. */
        private Kind option() {
            int opt = fmt[pos++] & 0xFF;
            size = 0;
            switch (opt) {
                case 'b': size = 1; return Kind.INT;
                case 'B': size = 1; return Kind.UINT;
                case 'h': size = 2; return Kind.INT;
                case 'H': size = 2; return Kind.UINT;
                case 'l': case 'j': size = 8; return Kind.INT;
                case 'L': case 'J': case 'T': size = 8; return Kind.UINT;
                case 'f': size = 4; return Kind.FLOAT;
                case 'd': case 'n': size = 8; return Kind.FLOAT;
                case 'i': size = getNumLimit(4); return Kind.INT;
                case 'I': size = getNumLimit(4); return Kind.UINT;
                case 's': size = getNumLimit(8); return Kind.STRING;
                case 'c':
                    size = getNum(-1);
                    if (size == -1) throw c.error("missing size for format option 'c'");
                    return Kind.CHAR;
                case 'z': return Kind.ZSTR;
                case 'x': size = 1; return Kind.PADDING;
                case 'X': return Kind.PADALIGN;
                case ' ': break;
                case '<': case '=': little = true; break;
                case '>': little = false; break;
                case '!': maxAlign = getNumLimit(MAXALIGN); break;
                default: throw c.error("invalid format option '" + CType.forMessage(opt) + "'");
            }
            return Kind.NOP;
        }

        /** Reads the next option and the padding that aligns it at {@code total} (getdetails). */
        void next(long total) {
            kind = option();
            int align = size;
            if (kind == Kind.PADALIGN) { // 'X' takes its alignment from the next option, consuming it
                if (!more()) throw c.argError(1, "invalid next option for option 'X'");
                int mySize = size;
                Kind k = option();
                align = size;
                size = mySize;
                if (k == Kind.CHAR || align == 0) throw c.argError(1, "invalid next option for option 'X'");
            }
            if (align <= 1 || kind == Kind.CHAR) {
                toAlign = 0;
            } else {
                if (align > maxAlign) align = maxAlign;
                if ((align & (align - 1)) != 0) throw c.argError(1, "format asks for alignment not power of 2");
                toAlign = (align - (int) (total & (align - 1))) & (align - 1);
            }
        }
    }

    private static void packInt(ByteBuilder b, long n, boolean little, int size, boolean negative) {
        byte[] buf = new byte[size];
        for (int i = 0; i < size; i++) {
            int v = i < SZINT ? (int) (n >>> (8 * i)) & 0xFF : (negative ? 0xFF : 0);
            buf[little ? i : size - 1 - i] = (byte) v;
        }
        b.append(buf, 0, size);
    }

    /**
     * PUC's str_pack pushes a nil after its arguments, so a missing argument reads as nil
     * ("number expected, got nil", not "got no value"); this check reproduces that.
     */
    private static int present(CallContext c, int arg, String expected) {
        if (arg > c.nargs()) throw c.argError(arg, expected + " expected, got nil");
        return arg;
    }

    private static int pack(CallContext c) {
        Format h = new Format(c, c.checkString(1));
        ByteBuilder b = new ByteBuilder(c, 32);
        int arg = 1;
        long total = 0;
        while (h.more()) {
            h.next(total);
            int size = h.size;
            total += h.toAlign + size;
            b.fill(0, h.toAlign);
            arg++;
            c.chargeGas(1);
            switch (h.kind) {
                case INT: {
                    long n = c.checkInteger(present(c, arg, "number"));
                    if (size < SZINT) {
                        long lim = 1L << (size * 8 - 1);
                        if (!(-lim <= n && n < lim)) throw c.argError(arg, "integer overflow");
                    }
                    packInt(b, n, h.little, size, n < 0);
                    break;
                }
                case UINT: {
                    long n = c.checkInteger(present(c, arg, "number"));
                    if (size < SZINT && Long.compareUnsigned(n, 1L << (size * 8)) >= 0) {
                        throw c.argError(arg, "unsigned overflow");
                    }
                    packInt(b, n, h.little, size, false);
                    break;
                }
                case FLOAT: {
                    double d = c.checkNumber(present(c, arg, "number"));
                    if (size == 4) packInt(b, Float.floatToRawIntBits((float) d), h.little, 4, false);
                    else packInt(b, Double.doubleToRawLongBits(d), h.little, 8, false);
                    break;
                }
                case CHAR: {
                    LuaString s = c.checkString(present(c, arg, "string"));
                    if (s.length() > size) throw c.argError(arg, "string longer than given size");
                    b.append(s);
                    b.fill(0, size - s.length());
                    break;
                }
                case STRING: {
                    LuaString s = c.checkString(present(c, arg, "string"));
                    long len = s.length();
                    if (!(size >= 8 || len < (1L << (size * 8)))) {
                        throw c.argError(arg, "string length does not fit in given size");
                    }
                    packInt(b, len, h.little, size, false);
                    b.append(s);
                    total += len;
                    break;
                }
                case ZSTR: {
                    LuaString s = c.checkString(present(c, arg, "string"));
                    c.chargeBytes(s.length()); // the scan for zeros (the copy is paid by the builder)
                    for (byte x : s.bytesUnsafe()) {
                        if (x == 0) throw c.argError(arg, "string contains zeros");
                    }
                    b.append(s);
                    b.append(0);
                    total += s.length() + 1;
                    break;
                }
                case PADDING:
                    b.append(0);
                    arg--;
                    break;
                default: // PADALIGN, NOP
                    arg--;
            }
        }
        return c.ret(b.toLuaString());
    }

    private static int packsize(CallContext c) {
        Format h = new Format(c, c.checkString(1));
        long total = 0;
        while (h.more()) {
            h.next(total);
            long size = (long) h.size + h.toAlign;
            if (total > MAXSIZE - size) throw c.argError(1, "format result too large");
            total += size;
            if (h.kind == Kind.STRING || h.kind == Kind.ZSTR) throw c.argError(1, "variable-length format");
        }
        return c.ret(total);
    }

    private static long unpackInt(CallContext c, byte[] s, int at, boolean little, int size, boolean signed) {
        long res = 0;
        int limit = Math.min(size, SZINT);
        for (int i = limit - 1; i >= 0; i--) {
            res <<= 8;
            res |= s[at + (little ? i : size - 1 - i)] & 0xFF;
        }
        if (size < SZINT) {
            if (signed) {
                long mask = 1L << (size * 8 - 1);
                res = (res ^ mask) - mask; // sign extension
            }
        } else if (size > SZINT) { // the extra bytes must be a sign extension
            int mask = (!signed || res >= 0) ? 0 : 0xFF;
            for (int i = limit; i < size; i++) {
                if ((s[at + (little ? i : size - 1 - i)] & 0xFF) != mask) {
                    throw c.error(size + "-byte integer does not fit into Lua Integer");
                }
            }
        }
        return res;
    }

    private static int unpack(CallContext c) {
        Format h = new Format(c, c.checkString(1));
        LuaString dataString = c.checkString(2);
        byte[] data = dataString.bytesUnsafe();
        long ld = data.length;
        long pos = PatternFunctions.posrelat(c.optInteger(3, 1), ld) - 1;
        if (pos < 0 || pos > ld) throw c.argError(3, "initial position out of string");
        List<Object> results = new ArrayList<>();
        while (h.more()) {
            h.next(pos);
            int size = h.size;
            if (pos + h.toAlign + size > ld) throw c.argError(2, "data string too short");
            pos += h.toAlign;
            int at = (int) pos;
            c.chargeGas(1);
            switch (h.kind) {
                case INT: case UINT:
                    results.add(unpackInt(c, data, at, h.little, size, h.kind == Kind.INT));
                    break;
                case FLOAT:
                    if (size == 4) results.add((double) Float.intBitsToFloat((int) unpackInt(c, data, at, h.little, 4, false)));
                    else results.add(Double.longBitsToDouble(unpackInt(c, data, at, h.little, 8, false)));
                    break;
                case CHAR:
                    results.add(ByteBuilder.substring(c, data, at, at + size));
                    break;
                case STRING: {
                    long len = unpackInt(c, data, at, h.little, size, false);
                    if (len < 0 || len > ld - pos - size) throw c.argError(2, "data string too short");
                    results.add(ByteBuilder.substring(c, data, at + size, at + size + (int) len));
                    pos += len;
                    break;
                }
                case ZSTR: { // up to the first zero, or the end (C stops at the terminator)
                    int z = at;
                    ByteWork scan = ByteWork.scan(c); // up to the first zero: length unknown
                    while (z < data.length) {
                        scan.step();
                        if (data[z] == 0) break;
                        z++;
                    }
                    results.add(ByteBuilder.substring(c, data, at, z));
                    pos += z - at + 1;
                    break;
                }
                default: // padding and no-ops produce nothing
            }
            pos += size;
        }
        results.add(pos + 1);
        c.ensureResults(results.size());
        for (int i = 0; i < results.size(); i++) c.setResult(i, results.get(i));
        return results.size();
    }
}
