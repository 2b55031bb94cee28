package dev.luavm.audit;

import dev.luavm.LuaHandle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * SHA-256 digests for the audit log: of source bytes, and of Java values (run inputs and
 * results) in a canonical encoding, so the same values give the same digest on any JVM.
 *
 * <p>The encoding: a tag byte per value ({@code 0} nil, {@code F}/{@code T} booleans, {@code I}
 * a long as 8 bytes, {@code D} a double's bits, {@code S} a UTF-8 string and {@code B} a byte
 * string, each after its 4-byte length, {@code L} a list, {@code M} a map, each after its
 * size). A map's entries are encoded and sorted by their bytes, so the map's iteration order does
 * not matter. A value met again inside itself is {@code C} (cyclic); a function or host object is
 * {@code H} and its type name.
 */
public final class Digests {
    private Digests() {}

    /** Hex SHA-256 of {@code bytes}. */
    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha().digest(bytes));
    }

    /** Hex SHA-256 of the canonical encoding of {@code values}. */
    public static String ofValues(List<?> values) {
        Encoder e = new Encoder();
        e.value(values);
        return HexFormat.of().formatHex(sha().digest(e.bytes()));
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    private static final class Encoder {
        private byte[] buf = new byte[64];
        private int n;
        private final IdentityHashMap<Object, Boolean> path = new IdentityHashMap<>();

        byte[] bytes() {
            return Arrays.copyOf(buf, n);
        }

        void value(Object v) {
            if (v == null) tag('0');
            else if (v instanceof Boolean b) tag(b ? 'T' : 'F');
            else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                tag('I');
                long8(((Number) v).longValue());
            } else if (v instanceof Double || v instanceof Float) {
                tag('D');
                long8(Double.doubleToLongBits(((Number) v).doubleValue()));
            } else if (v instanceof CharSequence s) blob('S', s.toString().getBytes(StandardCharsets.UTF_8));
            else if (v instanceof byte[] b) blob('B', b);
            else if (v instanceof Collection<?> || v instanceof Map<?, ?> || v instanceof Object[]) container(v);
            else if (v instanceof LuaHandle h) blob('H', h.type().getBytes(StandardCharsets.UTF_8));
            else blob('H', v.getClass().getName().getBytes(StandardCharsets.UTF_8));
        }

        private void container(Object v) {
            if (path.put(v, Boolean.TRUE) != null) {
                tag('C');
                return;
            }
            try {
                if (v instanceof Map<?, ?> m) {
                    tag('M');
                    int4(m.size());
                    List<byte[]> entries = new ArrayList<>(m.size());
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        Encoder sub = new Encoder();
                        sub.path.putAll(path);
                        sub.value(e.getKey());
                        sub.value(e.getValue());
                        entries.add(sub.bytes());
                    }
                    entries.sort(Arrays::compare);
                    for (byte[] b : entries) raw(b);
                } else {
                    Collection<?> c = v instanceof Object[] a ? Arrays.asList(a) : (Collection<?>) v;
                    tag('L');
                    int4(c.size());
                    for (Object o : c) value(o);
                }
            } finally {
                path.remove(v);
            }
        }

        private void blob(char t, byte[] b) {
            tag(t);
            int4(b.length);
            raw(b);
        }

        private void tag(char t) {
            ensure(1);
            buf[n++] = (byte) t;
        }

        private void int4(int v) {
            ensure(4);
            for (int s = 24; s >= 0; s -= 8) buf[n++] = (byte) (v >>> s);
        }

        private void long8(long v) {
            ensure(8);
            for (int s = 56; s >= 0; s -= 8) buf[n++] = (byte) (v >>> s);
        }

        private void raw(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, n, b.length);
            n += b.length;
        }

        private void ensure(int k) {
            if (n + k > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + k));
        }
    }
}
