package dev.luavm.stdlib.table;

import static dev.luavm.stdlib.table.TableArgs.READ;
import static dev.luavm.stdlib.table.TableArgs.WRITE;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaValues;

/**
 * {@code table.sort(list [, comp])}: PUC 5.3.6's quicksort, comparison for comparison.
 *
 * <p>The same sequence of {@code lua_geti}/{@code lua_seti} and comparator calls as
 * {@code ltablib.c}'s {@code auxsort}/{@code partition} matters: an inconsistent comparator must
 * produce the same "invalid order function for sorting" error (or the same garbage order) as in
 * PUC, and a comparator with side effects sees the same calls. Pivot choice: the middle element,
 * median-of-three with the ends; when a partition comes out badly imbalanced on a large interval,
 * later pivots are "randomized" ({@code l_randomizePivot}). PUC reads {@code clock()} and
 * {@code time()} there; here the numbers come from a generator seeded by the sandbox's random seed
 * and the list's length, so a sort makes the same comparisons, and uses the same gas, on every run
 * with the same seed (VM rule 7; a replay reproduces it), while a script still cannot choose the
 * pivots it will get without knowing the host's seed. Recursion goes into the smaller half, so the Java
 * stack depth is logarithmic.
 *
 * <p>Each comparison costs {@link TableCosts#COMPARISON} gas before it is made, and a comparison
 * of two strings also the bytes it compares (1 per 8, chunk by chunk before each chunk is
 * compared); a Lua comparator is metered by the VM on top. A comparator's error propagates unchanged.
 */
final class TableSort {
    /** intervals at least this large may use a randomized pivot ({@code RANLIMIT}) */
    private static final long RANLIMIT = 100;
    /** {@code INT_MAX}: PUC sorts with {@code unsigned int} indices */
    private static final long INT_MAX = Integer.MAX_VALUE;

    private final CallContext c;
    private final Object t;
    /** the Lua comparator, or null for the {@code <} operator */
    private final Object comp;
    /** the pivot generator's state (SplitMix64), seeded on first need */
    private long noise;
    private boolean seeded;

    /** the list's length, which with the sandbox's seed seeds the pivot generator */
    private final long length;

    private TableSort(CallContext c, Object t, Object comp, long length) {
        this.c = c;
        this.length = length;
        this.t = t;
        this.comp = comp;
    }

    static int sort(CallContext c) {
        long n = TableArgs.checkLength(c, 1, READ | WRITE);
        if (n > 1) { // non-trivial interval?
            if (n >= INT_MAX) throw c.argError(1, "array too big");
            if (!c.isNoneOrNil(2)) c.checkType(2, "function");
            new TableSort(c, c.arg(1), c.arg(2), n).auxsort(1, n, 0);
        }
        return 0;
    }

    /** {@code sort_comp}: is {@code a} less than {@code b} in the sort's order? */
    private boolean less(Object a, Object b) {
        c.chargeGas(TableCosts.COMPARISON);
        if (comp == null) {
            // two strings: paid by the bytes compared (a long common prefix is not one unit of work)
            if (a instanceof LuaString x && b instanceof LuaString y) return x.compareTo(y, c::chargeGas) < 0;
            return c.lessThan(a, b);
        }
        return LuaValues.isTruthy(c.call1(comp, a, b));
    }

    private Object get(long i) {
        return TableArgs.get(c, t, i);
    }

    private void set(long i, Object v) {
        TableArgs.set(c, t, i, v);
    }

    /** QuickSort of {@code a[lo..up]}; loops on the larger half, recurses on the smaller. */
    private void auxsort(long lo, long up, int rnd) {
        while (lo < up) { // loop for tail recursion
            // sort elements a[lo], a[(lo+up)/2] and a[up]
            Object alo = get(lo);
            Object aup = get(up);
            if (less(aup, alo)) { // a[up] < a[lo]?
                set(lo, aup);
                set(up, alo);
            }
            if (up - lo == 1) break; // only 2 elements: already sorted
            long p; // pivot index
            if (up - lo < RANLIMIT || rnd == 0) {
                p = (lo + up) / 2; // middle element is a good pivot
            } else {
                p = choosePivot(lo, up, rnd);
            }
            Object ap = get(p);
            alo = get(lo);
            if (less(ap, alo)) { // a[p] < a[lo]?
                set(p, alo);
                set(lo, ap);
            } else {
                aup = get(up);
                if (less(aup, ap)) { // a[up] < a[p]?
                    set(p, aup);
                    set(up, ap);
                }
            }
            if (up - lo == 2) break; // only 3 elements: already sorted
            Object pivot = get(p);
            Object aup1 = get(up - 1);
            set(p, aup1); // swap pivot (a[p]) with a[up - 1]
            set(up - 1, pivot);
            p = partition(lo, up, pivot);
            long n; // size of the smaller interval
            // a[lo .. p - 1] <= a[p] == P <= a[p + 1 .. up]
            if (p - lo < up - p) { // lower interval is shorter?
                auxsort(lo, p - 1, rnd);
                n = p - lo;
                lo = p + 1; // tail call for [p + 1 .. up]
            } else {
                auxsort(p + 1, up, rnd);
                n = up - p;
                up = p - 1; // tail call for [lo .. p - 1]
            }
            if ((up - lo) / 128 > n) rnd = randomizePivot(); // partition too imbalanced?
        }
    }

    /**
     * {@code partition}: with {@code a[lo] <= P == a[up - 1] <= a[up]}, partitions
     * {@code lo + 1 .. up - 2} and returns {@code i} such that
     * {@code a[lo .. i - 1] <= a[i] == P <= a[i + 1 .. up]}.
     */
    private long partition(long lo, long up, Object pivot) {
        long i = lo; // incremented before first use
        long j = up - 1; // decremented before first use
        // loop invariant: a[lo .. i] <= P <= a[j .. up], a[up - 1] == P
        while (true) {
            Object ai;
            while (less(ai = get(++i), pivot)) { // repeat ++i while a[i] < P
                if (i == up - 1) throw c.error("invalid order function for sorting"); // a[i] < P == a[up - 1]?
            }
            // after the loop, a[i] >= P and a[lo .. i - 1] < P
            Object aj;
            while (less(pivot, aj = get(--j))) { // repeat --j while P < a[j]
                if (j < i) throw c.error("invalid order function for sorting"); // j < i but a[j] > P?
            }
            // after the loop, a[j] <= P and a[j + 1 .. up] >= P
            if (j < i) { // no elements out of place?
                set(up - 1, ai); // swap pivot (a[up - 1]) with a[i] to satisfy the post-condition
                set(i, pivot);
                return i;
            }
            set(i, aj); // otherwise swap a[i] - a[j] to restore the invariant and repeat
            set(j, ai);
        }
    }

    /** {@code choosePivot}: an element in the middle half of {@code [lo, up]}, chosen by {@code rnd}. */
    private static long choosePivot(long lo, long up, int rnd) {
        long r4 = (up - lo) / 4; // range / 4
        return Integer.toUnsignedLong(rnd) % (r4 * 2) + (lo + r4);
    }

    /** {@code l_randomizePivot}: the next number of the sort's generator (seeded, never the clock). */
    private int randomizePivot() {
        if (!seeded) {
            seeded = true;
            noise = c.host().randomSeed() ^ 0x5DEECE66DL * length;
        }
        long z = noise += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) (z ^ (z >>> 31));
    }
}
