package dev.luavm.stdlib.table;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/** {@code table.pack} and {@code table.unpack} ({@code pack}, {@code unpack}). */
final class TablePack {
    private TablePack() {}

    private static final LuaString N = LuaString.of("n");

    /**
     * Most results {@code table.unpack} returns: PUC's limit is the free C stack under
     * {@code LUAI_MAXSTACK} (1,000,000 slots), which we fix at just under that.
     */
    static final long MAX_RESULTS = 999_999;

    /** {@code table.pack(...)}: the arguments in a fresh table with field {@code n}. */
    static int pack(CallContext c) {
        int n = c.nargs();
        c.chargeGas(TableCosts.elements(n));
        LuaTable t = c.newTable(n, 1);
        for (int i = 1; i <= n; i++) t.putInt(i, c.arg(i));
        t.put(N, (long) n);
        return c.ret(t);
    }

    /** {@code table.unpack(list [, i [, j]])} */
    static int unpack(CallContext c) {
        Object t = c.arg(1);
        long i = c.optInteger(2, 1);
        long e = c.isNoneOrNil(3) ? c.length(t) : c.checkInteger(3);
        if (i > e) return 0; // empty range
        long n = e - i; // number of elements minus 1, as unsigned (avoids overflow)
        if (Long.compareUnsigned(n, MAX_RESULTS) >= 0) throw c.error("too many results to unpack");
        int count = (int) n + 1;
        c.chargeGas(TableCosts.elements(count));
        c.memory().charge(count, Sizes.REF);
        Object[] values = new Object[count];
        // read everything first: __index may call Lua, and results overwrite the arguments
        for (int k = 0; k < count; k++) values[k] = TableArgs.get(c, t, i + k);
        return c.retArray(values, count);
    }
}
