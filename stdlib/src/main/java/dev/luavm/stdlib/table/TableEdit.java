package dev.luavm.stdlib.table;

import static dev.luavm.stdlib.table.TableArgs.READ;
import static dev.luavm.stdlib.table.TableArgs.WRITE;

import dev.luavm.lib.CallContext;

/**
 * The functions that shift elements: {@code table.insert}, {@code table.remove} and
 * {@code table.move} ({@code tinsert}, {@code tremove}, {@code tmove}). Each charges gas for all
 * the elements it will move before moving the first, so a lying {@code __len} costs the script
 * its budget at once instead of running for ever.
 */
final class TableEdit {
    private TableEdit() {}

    /** {@code table.insert(list, [pos,] value)} */
    static int insert(CallContext c) {
        long e = TableArgs.checkLength(c, 1, READ | WRITE) + 1; // first empty slot (wraps like C)
        Object t = c.arg(1);
        long pos;
        switch (c.nargs()) {
            case 2 -> pos = e;
            case 3 -> {
                pos = c.checkInteger(2);
                if (!(1 <= pos && pos <= e)) throw c.argError(2, "position out of bounds");
                for (long i = e; i > pos; i--) {
                    TableCosts.beforeMove(c, e - i, e - pos);
                    TableArgs.set(c, t, i, TableArgs.get(c, t, i - 1)); // t[i] = t[i - 1]
                }
            }
            default -> throw c.error("wrong number of arguments to 'insert'");
        }
        TableArgs.set(c, t, pos, c.arg(c.nargs()));
        return 0;
    }

    /** {@code table.remove(list [, pos])} */
    static int remove(CallContext c) {
        long size = TableArgs.checkLength(c, 1, READ | WRITE);
        long pos = c.optInteger(2, size);
        Object t = c.arg(1);
        if (pos != size && !(1 <= pos && pos <= size + 1)) { // size + 1 wraps like C
            // PUC reports this against argument #1
            throw c.argError(1, "position out of bounds");
        }
        Object result = TableArgs.get(c, t, pos);
        long first = pos;
        for (; pos < size; pos++) {
            TableCosts.beforeMove(c, pos - first, size - first);
            TableArgs.set(c, t, pos, TableArgs.get(c, t, pos + 1)); // t[pos] = t[pos + 1]
        }
        TableArgs.set(c, t, pos, null);
        return c.ret(result);
    }

    /** {@code table.move(a1, f, e, t [, a2])} */
    static int move(CallContext c) {
        long f = c.checkInteger(2);
        long e = c.checkInteger(3);
        long t = c.checkInteger(4);
        int tt = c.isNoneOrNil(5) ? 1 : 5; // destination table
        TableArgs.checkTab(c, 1, READ);
        TableArgs.checkTab(c, tt, WRITE);
        Object src = c.arg(1);
        Object dst = c.arg(tt);
        if (e >= f) {
            if (!(f > 0 || e < Long.MAX_VALUE + f)) throw c.argError(3, "too many elements to move");
            long n = e - f + 1; // number of elements to move
            if (!(t <= Long.MAX_VALUE - n + 1)) throw c.argError(4, "destination wrap around");
            if (t > e || t <= f || (tt != 1 && !c.equalsLua(src, dst))) {
                for (long i = 0; i < n; i++) {
                    TableCosts.beforeMove(c, i, n);
                    TableArgs.set(c, dst, t + i, TableArgs.get(c, src, f + i));
                }
            } else {
                for (long i = n - 1; i >= 0; i--) {
                    TableCosts.beforeMove(c, n - 1 - i, n);
                    TableArgs.set(c, dst, t + i, TableArgs.get(c, src, f + i));
                }
            }
        }
        return c.ret(dst);
    }
}
