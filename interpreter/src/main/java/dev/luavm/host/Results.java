package dev.luavm.host;

import dev.luavm.TypedAccess;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Several values at once, {@code return a, b} in Lua terms, in both directions: what a
 * {@link HostFunction} returns to give Lua more than one result, and what a run gives back
 * ({@code Sandbox.evalAll}, {@code run}, {@code call}, {@code LuaHandle.call}).
 *
 * <p>An immutable {@link List} of Java values (null for nil), so code written against the
 * {@code List<Object>} those methods used to return keeps working, with typed access on top:
 * {@code sb.call("f", 2).first(int.class)}, {@code r.get(1, String.class)} (see
 * {@link TypedAccess} for the conversion rules). A missing result reads as nil: {@link #first()}
 * of no results is null, and {@code get(i, type)} past the end converts nil.
 */
public final class Results extends AbstractList<Object> implements RandomAccess {
    private static final Results NONE = new Results(new Object[0]);

    private final Object[] values;

    /**
     * Results holding a copy of {@code values}.
     *
     * @param values the values, in order (null elements are nil)
     */
    public Results(List<?> values) {
        this(values.toArray());
    }

    private Results(Object[] values) {
        this.values = values;
    }

    /**
     * Results holding {@code values}, in order.
     *
     * @param values the values (null elements are nil)
     * @return the results
     */
    public static Results of(Object... values) {
        return values.length == 0 ? NONE : new Results(values.clone());
    }

    /**
     * No results ({@code return} with nothing).
     *
     * @return the empty results
     */
    public static Results none() {
        return NONE;
    }

    /**
     * The values as a list: this object itself (kept from when {@code Results} was a record).
     *
     * @return this
     */
    public List<Object> values() {
        return this;
    }

    @Override
    public Object get(int index) {
        return values[index];
    }

    @Override
    public int size() {
        return values.length;
    }

    /**
     * The first value, or null when there is none (as Lua adjusts results to one value).
     *
     * @return the first value or null
     */
    public Object first() {
        return values.length == 0 ? null : values[0];
    }

    /**
     * The first value converted to {@code type}; no values read as nil.
     *
     * @param <T> the requested type
     * @param type the Java type wanted ({@code int.class}, {@code String.class}, {@code List.class} ...)
     * @return the converted value
     * @throws dev.luavm.LuaConversionException the value does not convert
     */
    public <T> T first(Class<T> type) {
        return TypedAccess.as(first(), type);
    }

    /**
     * Value {@code index} (0-based) converted to {@code type}; past the end reads as nil.
     *
     * @param <T> the requested type
     * @param index the position, from 0
     * @param type the Java type wanted
     * @return the converted value
     * @throws dev.luavm.LuaConversionException the value does not convert
     */
    public <T> T get(int index, Class<T> type) {
        if (index < 0) throw new IndexOutOfBoundsException(index);
        return TypedAccess.as(index < values.length ? values[index] : null, type);
    }

    /**
     * The values as an array (a copy).
     *
     * @return a new array of the values
     */
    @Override
    public Object[] toArray() {
        return Arrays.copyOf(values, values.length);
    }
}
