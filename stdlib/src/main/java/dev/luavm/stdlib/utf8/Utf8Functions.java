package dev.luavm.stdlib.utf8;

import dev.luavm.lib.CallContext;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

/**
 * {@code utf8.char}, {@code codepoint}, {@code len}, {@code offset} and {@code codes}. Work over
 * a string is charged before it runs, by the rule of docs/STDLIB.md: 1 per 8 bytes scanned
 * (chunk by chunk through {@link ByteWork}), and 1 per value produced.
 */
final class Utf8Functions {
    private Utf8Functions() {}

    /** most results {@code codepoint} returns (PUC: the stack limit) */
    private static final long MAX_RESULTS = 999_999;

    /** {@code utf8.char(...)}: the concatenated encodings of the arguments. */
    static int utfChar(CallContext c) {
        int n = c.nargs();
        c.chargeGas(1 + n);
        int[] codes = new int[n];
        for (int i = 1; i <= n; i++) {
            long code = c.checkInteger(i);
            if (Long.compareUnsigned(code, Utf8Decoder.MAXUNICODE) > 0) throw c.argError(i, "value out of range");
            codes[i - 1] = (int) code;
        }
        c.memory().charge(Sizes.STRING_HEADER + 4L * n);
        byte[] buf = new byte[4 * n];
        int len = 0;
        for (int code : codes) len = Utf8Decoder.encode(code, buf, len);
        return c.ret(LuaString.copyOf(buf, 0, len));
    }

    /** {@code utf8.codepoint(s [, i [, j]])} */
    static int codepoint(CallContext c) {
        LuaString str = c.checkString(1);
        byte[] s = str.bytesUnsafe();
        long len = s.length;
        long posi = Utf8Decoder.posrelat(c.optInteger(2, 1), len);
        long pose = Utf8Decoder.posrelat(c.optInteger(3, posi), len);
        if (!(posi >= 1)) throw c.argError(2, "out of range");
        if (!(pose <= len)) throw c.argError(3, "out of range");
        if (posi > pose) return 0; // empty interval: no values
        if (pose - posi >= Integer.MAX_VALUE) throw c.error("string slice too long");
        long n = pose - posi + 1;
        if (n > MAX_RESULTS) throw c.error("stack overflow (string slice too long)");
        c.chargeGas(n + CallContext.gasForBytes(n)); // values produced, bytes decoded
        c.memory().charge(n, Sizes.REF);
        Object[] codes = new Object[(int) n];
        int count = 0;
        for (int i = (int) posi - 1; i < pose; ) {
            long d = Utf8Decoder.decode(s, i);
            if (d < 0) throw c.error("invalid UTF-8 code");
            codes[count++] = (long) Utf8Decoder.code(d);
            i = Utf8Decoder.next(d);
        }
        return c.retArray(codes, count);
    }

    /** {@code utf8.len(s [, i [, j]])}: the number of characters, or nil and the first invalid position. */
    static int len(CallContext c) {
        LuaString str = c.checkString(1);
        byte[] s = str.bytesUnsafe();
        long len = s.length;
        long posi = Utf8Decoder.posrelat(c.optInteger(2, 1), len);
        long posj = Utf8Decoder.posrelat(c.optInteger(3, -1), len);
        if (!(1 <= posi && --posi <= len)) throw c.argError(2, "initial position out of string");
        if (!(--posj < len)) throw c.argError(3, "final position out of string");
        ByteWork work = ByteWork.upTo(c, posj - posi + 1);
        long n = 0;
        while (posi <= posj) {
            work.step(); // a sequence is 1 to 4 bytes: one step per sequence start, the range bounds the rest
            long d = Utf8Decoder.decode(s, (int) posi);
            if (d < 0) return c.ret(null, posi + 1); // conversion error: nil and the position
            posi = Utf8Decoder.next(d);
            n++;
        }
        return c.ret(n);
    }

    /** {@code utf8.offset(s, n [, i])}: the byte position where the n-th character (from i) starts. */
    static int offset(CallContext c) {
        LuaString str = c.checkString(1);
        byte[] s = str.bytesUnsafe();
        long len = s.length;
        long n = c.checkInteger(2);
        long posi = n >= 0 ? 1 : len + 1;
        posi = Utf8Decoder.posrelat(c.optInteger(3, posi), len);
        if (!(1 <= posi && --posi <= len)) throw c.argError(3, "position out of range");
        ByteWork work = ByteWork.scan(c); // how far the scan goes depends on n and the bytes: paid as it goes
        if (n == 0) {
            while (posi > 0 && Utf8Decoder.isContinuation(s, posi)) { // start of the current sequence
                work.step();
                posi--;
            }
        } else {
            if (Utf8Decoder.isContinuation(s, posi)) throw c.error("initial position is a continuation byte");
            if (n < 0) {
                while (n < 0 && posi > 0) { // move back
                    do { // find the beginning of the previous character
                        work.step();
                        posi--;
                    } while (posi > 0 && Utf8Decoder.isContinuation(s, posi));
                    n++;
                }
            } else {
                n--; // do not move for the first character
                while (n > 0 && posi < len) {
                    do { // find the beginning of the next character
                        work.step();
                        posi++;
                    } while (Utf8Decoder.isContinuation(s, posi)); // cannot pass the final '\0'
                    n--;
                }
            }
        }
        return c.ret(n == 0 ? (Object) (posi + 1) : null); // nil: no such character
    }

    /** The iterator {@code utf8.codes} returns ({@code iter_aux}). */
    static final Builtin ITERATOR = new Builtin("for iterator") { @Override public int call(CallContext c) { return Utf8Functions.iterate(c); } };

    /** {@code utf8.codes(s)}: the iterator triple for {@code for p, c in utf8.codes(s)}. */
    static int codes(CallContext c) {
        c.checkString(1);
        return c.ret(ITERATOR, c.arg(1), 0L);
    }

    private static int iterate(CallContext c) {
        byte[] s = c.checkString(1).bytesUnsafe();
        long len = s.length;
        long n = toInteger(c.arg(2)) - 1;
        c.chargeGas(1);
        if (n < 0) { // first iteration?
            n = 0;
        } else if (n < len) {
            n++; // skip the current byte
            // and its continuations: a few in valid UTF-8, any number in a crafted string
            ByteWork work = null;
            for (int k = 0; Utf8Decoder.isContinuation(s, n); k++, n++) {
                if (k >= ByteWork.FIRST) { // beyond the base cost: paid as the scan goes
                    if (work == null) work = ByteWork.scan(c);
                    work.step();
                }
            }
        }
        if (n >= len) return 0; // no more code points
        long d = Utf8Decoder.decode(s, (int) n);
        if (d < 0 || Utf8Decoder.isContinuation(s, Utf8Decoder.next(d))) throw c.error("invalid UTF-8 code");
        return c.ret(n + 1, (long) Utf8Decoder.code(d));
    }

    /** {@code lua_tointeger}: the integer value, or 0 when there is none. */
    private static long toInteger(Object v) {
        if (v instanceof Long l) return l;
        if (v instanceof Double d) {
            Long l = LuaNumbers.floatToInteger(d);
            return l == null ? 0 : l;
        }
        if (v instanceof LuaString s) {
            Object n = LuaNumbers.parse(s);
            if (n instanceof Long l) return l;
            if (n instanceof Double d) {
                Long l = LuaNumbers.floatToInteger(d);
                return l == null ? 0 : l;
            }
        }
        return 0;
    }
}
