package dev.luavm.lib;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

import java.util.function.Consumer;

/**
 * A library table built once and copied into each sandbox: the copy has the template's exact
 * layout (same {@code next}/{@code pairs} order) and is charged what building the table
 * charged, so a sandbox sees and pays for the same table as if it had been built in place, minus
 * the rehashes. The template itself is never reachable from Lua; fill it only with immutable
 * values (builtins, shared keys, numbers, strings). A {@link Library} keeps its templates in
 * instance fields: the library instances belong to one {@code LuaVM}.
 */
public final class TableTemplate {
    private final LuaTable table;
    private final long bytes;

    private TableTemplate(LuaTable table, long bytes) {
        this.table = table;
        this.bytes = bytes;
    }

    /** Builds the template: {@code fill} puts the entries, in installation order, into a fresh table. */
    public static TableTemplate of(Consumer<LuaTable> fill) {
        MemoryMeter scratch = MemoryMeter.unlimited();
        LuaTable t = new LuaTable(scratch);
        fill.accept(t);
        // the walk counts the keys and string values in every sandbox (shared objects are counted
        // per sandbox, as if each had built them), so the copy's charge includes them
        long strings = 0;
        for (int i = 0; i < t.slots(); i++) {
            if (t.valueAt(i) == null) continue;
            if (t.keyAt(i) instanceof LuaString k) strings += Sizes.string(k.length());
            if (t.valueAt(i) instanceof LuaString v) strings += Sizes.string(v.length());
        }
        return new TableTemplate(t, scratch.totalCharged() + strings);
    }

    /** A new table for one sandbox, charged to {@code meter}. */
    public LuaTable copy(MemoryMeter meter) {
        return new LuaTable(meter, table, bytes);
    }

    /**
     * Fills {@code target} as {@link #copy} would have built it, when {@code target} is still
     * empty (its header was charged when it was created); returns false, changing nothing, when
     * it is not.
     */
    public boolean copyInto(LuaTable target) {
        return target.copyFrom(table, bytes - Sizes.TABLE_HEADER);
    }
}
