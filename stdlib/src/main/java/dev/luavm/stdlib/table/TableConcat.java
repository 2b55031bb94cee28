package dev.luavm.stdlib.table;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaValues;
import dev.luavm.vm.LuaError;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code table.concat(list [, sep [, i [, j]]])} ({@code tconcat}).
 *
 * <p>Each element costs {@link TableCosts#ELEMENT} gas before it is read and its bytes (with the
 * separator) cost gas and memory before they join the result, so a huge or proxied list is
 * stopped by a meter, not by the JVM.
 */
final class TableConcat {
    private TableConcat() {}

    private static final int MAX_RESULT = Integer.MAX_VALUE - 64;

    static int concat(CallContext c) {
        long last = TableArgs.checkLength(c, 1, TableArgs.READ);
        LuaString sep = c.optString(2, LuaString.EMPTY);
        long i = c.optInteger(3, 1);
        last = c.optInteger(4, last);
        Object t = c.arg(1);
        List<LuaString> parts = new ArrayList<>();
        long total = 0;
        for (; i < last; i++) {
            total = add(c, parts, field(c, t, i), total);
            total = add(c, parts, sep, total);
        }
        if (i == last) total = add(c, parts, field(c, t, i), total);
        c.memory().charge(Sizes.STRING_HEADER);
        byte[] out = new byte[(int) total];
        int at = 0;
        for (LuaString p : parts) {
            System.arraycopy(p.bytesUnsafe(), 0, out, at, p.length());
            at += p.length();
        }
        return c.ret(LuaString.wrap(out));
    }

    /** {@code addfield}: element {@code i} as a string, or the 5.3.6 "invalid value" error. */
    private static LuaString field(CallContext c, Object t, long i) {
        c.chargeGas(TableCosts.ELEMENT);
        Object v = TableArgs.get(c, t, i);
        if (v instanceof LuaString s) return s;
        if (v instanceof Long l) return c.newString(LuaNumbers.toLuaString(l).bytesUnsafe());
        if (v instanceof Double d) return c.newString(LuaNumbers.toLuaString(d).bytesUnsafe());
        // PUC formats the index with %d, which truncates it to a C int
        throw c.error("invalid value (" + LuaValues.typeName(v) + ") at index " + (int) i
                + " in table for 'concat'");
    }

    /** Charges gas and memory for {@code s}'s bytes, then appends it; returns the new total. */
    private static long add(CallContext c, List<LuaString> parts, LuaString s, long total) {
        int n = s.length();
        c.chargeGas(TableCosts.bytes(n));
        c.memory().charge(n + Sizes.REF);
        long next = total + n;
        if (next > MAX_RESULT) throw LuaError.of("not enough memory");
        if (n > 0) parts.add(s);
        return next;
    }
}
