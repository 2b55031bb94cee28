package dev.luavm.host;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.LuaPatterns;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * A condition on one argument of a declared host function ({@link Param}), checked by the
 * {@link HostGateway} after the types and before the policy and the function: a host grants
 * {@code payments.refund} only for {@code amount <= 1000} with {@code range(1, 1000)}. A value
 * that fails makes the call a catchable Lua error {@code permission denied: payments.refund:
 * amount 5000 exceeds 1000}, and the call is audited as denied.
 *
 * <p>Values are the arguments converted to Java (Long, Double, String, byte[], Boolean, List,
 * Map...). Constraints are immutable and may be shared by any number of grants.
 */
public interface ArgConstraint {
    /**
     * Null when {@code value} (never null: an absent optional argument is not checked) meets
     * the constraint; otherwise the reason, naming the parameter: {@code "amount 5000 exceeds 1000"}.
     * Work that grows with the value is charged to {@code c} before it is done.
     */
    String check(String param, Object value, CallContext c);

    /** A short description for listings: {@code "1..1000"}, {@code "one of 'EUR', 'USD'"}. */
    String describe();

    /** A number from {@code min} to {@code max} inclusive (integer bounds print as integers). */
    static ArgConstraint range(long min, long max) {
        return new Range(min, max);
    }

    /** A number from {@code min} to {@code max} inclusive. */
    static ArgConstraint range(double min, double max) {
        return new Range(min, max);
    }

    /** An integer or float of at most {@code max}. */
    static ArgConstraint atMost(long max) {
        return new Range(Long.MIN_VALUE, max);
    }

    /** An integer or float of at least {@code min}. */
    static ArgConstraint atLeast(long min) {
        return new Range(min, Long.MAX_VALUE);
    }

    /** One of the given values (strings, integers, floats, booleans; 1 and 1.0 are equal, as in Lua). */
    static ArgConstraint oneOf(Object... values) {
        return new OneOf(List.of(values));
    }

    /** A string of {@code min} to {@code max} bytes. */
    static ArgConstraint length(int min, int max) {
        return new Length(min, max);
    }

    /**
     * A string in which the Lua pattern finds a match, as {@code string.find(value, pattern)}
     * would: anchor it ({@code "^INV%-%d+$"}) to constrain the whole value. The matcher is the
     * standard library's, found through {@link ServiceLoader} ({@code LuaPatterns}).
     *
     * @throws IllegalStateException when no implementation is on the class path (the stdlib
     *                               module is missing): a grant never silently skips a check
     */
    static ArgConstraint pattern(String luaPattern) {
        Objects.requireNonNull(luaPattern, "pattern");
        LuaPatterns matcher = PatternHolder.MATCHER.orElseThrow(() -> new IllegalStateException(
                "pattern constraint '" + luaPattern + "' needs a Lua pattern matcher (dev.luavm.lib.LuaPatterns), "
                        + "provided by the luavm-stdlib module, which is not on the class path"));
        return new Pattern(luaPattern, matcher);
    }

    // ------------------------------------------------------------------ implementations

    /** The pattern service, looked up once (an immutable, stateless service: no mutable static state). */
    final class PatternHolder {
        static final Optional<LuaPatterns> MATCHER =
                ServiceLoader.load(LuaPatterns.class, ArgConstraint.class.getClassLoader()).findFirst();

        private PatternHolder() {}
    }

    /** A number from {@code min} to {@code max} inclusive ({@link #range(long, long)}). */
    record Range(Number min, Number max) implements ArgConstraint {
        /** Refuses an empty range. */
        public Range {
            if (compare(min, max) > 0) throw new IllegalArgumentException("empty range " + min + ".." + max);
        }

        @Override
        public String check(String param, Object value, CallContext c) {
            if (!(value instanceof Long || value instanceof Double)) return param + " is not a number";
            if (value instanceof Double d && d.isNaN()) return param + " is not a number (nan)";
            if (compare((Number) value, max) > 0) return param + " " + text(value) + " exceeds " + text(max);
            if (compare((Number) value, min) < 0) return param + " " + text(value) + " is below " + text(min);
            return null;
        }

        @Override
        public String describe() {
            boolean noMin = min instanceof Long l && l == Long.MIN_VALUE;
            boolean noMax = max instanceof Long l && l == Long.MAX_VALUE;
            if (noMin) return "<= " + text(max);
            if (noMax) return ">= " + text(min);
            return text(min) + ".." + text(max);
        }

        private static int compare(Number a, Number b) {
            if (a instanceof Long x && b instanceof Long y) return Long.compare(x, y);
            // a long bound against a float: compare exactly where a double cannot hold the long
            if (a instanceof Long x) return -compare(b, a);
            double d = a.doubleValue();
            if (b instanceof Long y) {
                if (d >= 0x1p63) return 1;
                if (d < -0x1p63) return -1;
                long t = (long) d;
                int c = Long.compare(t, y);
                return c != 0 ? c : Double.compare(d - t, 0.0);
            }
            return Double.compare(d, b.doubleValue());
        }
    }

    /** One of a fixed set of values ({@link #oneOf(Object...)}). */
    record OneOf(List<Object> values) implements ArgConstraint {
        /** Keeps the values in order, each once; only strings, numbers and booleans. */
        public OneOf {
            Set<Object> set = new LinkedHashSet<>();
            for (Object v : values) {
                if (!(v instanceof String || v instanceof Long || v instanceof Integer || v instanceof Double
                        || v instanceof Boolean)) {
                    throw new IllegalArgumentException("oneOf accepts strings, numbers and booleans, not " + v);
                }
                set.add(normal(v));
            }
            if (set.isEmpty()) throw new IllegalArgumentException("oneOf needs at least one value");
            values = List.copyOf(set);
        }

        @Override
        public String check(String param, Object value, CallContext c) {
            return values.contains(normal(value)) ? null : param + " " + text(value) + " is not " + describe();
        }

        @Override
        public String describe() {
            List<String> shown = new ArrayList<>();
            for (Object v : values) shown.add(text(v));
            return "one of " + String.join(", ", shown);
        }

        /** Lua equality: integers and floats with the same value are equal. */
        private static Object normal(Object v) {
            if (v instanceof Integer i) return (long) i;
            if (v instanceof Double d) {
                Long l = LuaNumbers.floatToInteger(d);
                if (l != null) return l; // not a ?: expression, which would unbox both to double
                return d;
            }
            return v;
        }
    }

    /** A string of {@code min} to {@code max} bytes ({@link #length(int, int)}). */
    record Length(int min, int max) implements ArgConstraint {
        /** Refuses a negative or empty range. */
        public Length {
            if (min < 0 || min > max) throw new IllegalArgumentException("bad length range " + min + ".." + max);
        }

        @Override
        public String check(String param, Object value, CallContext c) {
            long n;
            if (value instanceof String s) n = utf8Length(s);
            else if (value instanceof byte[] b) n = b.length;
            else return param + " is not a string";
            if (n > max) return param + " is " + n + " bytes long, more than " + max;
            if (n < min) return param + " is " + n + " bytes long, less than " + min;
            return null;
        }

        @Override
        public String describe() {
            return "length " + min + ".." + max;
        }

        private static long utf8Length(String s) {
            long n = 0;
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch < 0x80) n++;
                else if (ch < 0x800) n += 2;
                else if (Character.isHighSurrogate(ch)) { n += 4; i++; }
                else n += 3;
            }
            return n;
        }
    }

    /** A string matching a Lua pattern ({@link #pattern(String)}). */
    record Pattern(String pattern, LuaPatterns matcher) implements ArgConstraint {
        @Override
        public String check(String param, Object value, CallContext c) {
            byte[] subject;
            if (value instanceof String s) subject = s.getBytes(StandardCharsets.UTF_8);
            else if (value instanceof byte[] b) subject = b;
            else return param + " is not a string";
            boolean found = matcher.find(c, LuaString.wrap(subject), LuaString.of(pattern));
            return found ? null : param + " " + text(value) + " does not match '" + pattern + "'";
        }

        @Override
        public String describe() {
            return "matches '" + pattern + "'";
        }
    }

    /** A value as messages show it: numbers as Lua prints them, strings quoted and cut. */
    static String text(Object v) {
        if (v instanceof Long || v instanceof Integer) return v.toString();
        if (v instanceof Double d) return LuaNumbers.toString(d);
        if (v instanceof String s) return "'" + (s.length() > 40 ? s.substring(0, 37) + "..." : s) + "'";
        if (v instanceof byte[] b) return "(" + b.length + " bytes)";
        if (v instanceof Boolean) return v.toString();
        return "(a " + (v == null ? "nil" : v instanceof java.util.Map || v instanceof List ? "table" : "value") + ")";
    }
}
